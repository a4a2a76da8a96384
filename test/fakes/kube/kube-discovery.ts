import * as yaml from 'js-yaml';
import { KubeStatusError } from './kube-status';
import { apiVersionOf, ResourceInfo } from './kube-resources';
import type { KubeObject, KubeStore, Loose } from './kube-store';

/** The discovery documents (`/api`, `/api/v1`, `/apis`, `/apis/<group>`, `/apis/<group>/<version>`), or undefined for a group or version not served. */
export function discovery(store: KubeStore, path: string): Loose | undefined {
  const all = store.resources();
  const resourceList = (group: string, version: string): Loose => {
    const resources = all.filter((r) => r.group === group && r.version === version);
    if (resources.length === 0) return undefined;
    return {
      kind: 'APIResourceList',
      apiVersion: 'v1',
      groupVersion: group ? `${group}/${version}` : version,
      resources: resources.map((r) => ({ name: r.resource, singularName: r.kind.toLowerCase(), namespaced: r.namespaced, kind: r.kind, verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'] })),
    };
  };
  const groups = [...new Set(all.filter((r) => r.group).map((r) => r.group))].sort();
  const groupDoc = (group: string): Loose => {
    const versions = [...new Set(all.filter((r) => r.group === group).map((r) => r.version))].map((v) => ({ groupVersion: `${group}/${v}`, version: v }));
    return { name: group, versions, preferredVersion: versions[0] };
  };
  if (path === '/api') return { kind: 'APIVersions', versions: ['v1'], serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress: '127.0.0.1:443' }] };
  if (path === '/api/v1') return resourceList('', 'v1');
  if (path === '/apis') return { kind: 'APIGroupList', apiVersion: 'v1', groups: groups.map(groupDoc) };
  const m = /^\/apis\/([^/]+)(?:\/([^/]+))?$/.exec(path);
  if (!m || !groups.includes(m[1])) return undefined;
  if (!m[2]) return { kind: 'APIGroup', apiVersion: 'v1', ...groupDoc(m[1]) };
  return resourceList(m[1], m[2]);
}

/** An apply patch's body (YAML, of which JSON is a subset), or 400 as the real API answers a body it cannot decode. */
export function parseYaml(text: string): Loose {
  try {
    const doc = yaml.load(text);
    if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) throw new Error('not an object');
    return doc;
  } catch (e) {
    throw new KubeStatusError(400, 'BadRequest', `error decoding YAML: ${(e as Error).message}`);
  }
}

const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
/** Kinds whose names are DNS labels; RBAC objects' names are path segments (`system:kube-dns`); the rest DNS subdomains. */
const LABEL_NAMED = new Set(['Namespace', 'Service']);
const PATH_SEGMENT_NAMED = new Set(['ClusterRole', 'ClusterRoleBinding', 'Role', 'RoleBinding']);

function invalid(info: ResourceInfo, name: string, field: string, value: unknown, detail: string): KubeStatusError {
  const qualified = info.group ? `${info.kind}.${info.group}` : info.kind;
  const message = `Invalid value: ${JSON.stringify(value)}: ${detail}`;
  return new KubeStatusError(422, 'Invalid', `${qualified} "${name}" is invalid: ${field}: ${message}`, { name, ...(info.group ? { group: info.group } : {}), kind: info.kind, causes: [{ reason: 'FieldValueInvalid', message, field }] });
}

function nameProblem(kind: string, name: string): string | undefined {
  if (PATH_SEGMENT_NAMED.has(kind)) return name === '.' || name === '..' || /[/%]/.test(name) ? 'may not contain \'/\' or \'%\', and may not be \'.\' or \'..\'' : undefined;
  if (LABEL_NAMED.has(kind)) return DNS1123_LABEL.test(name) && name.length <= 63 ? undefined : "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character";
  return DNS1123_SUBDOMAIN.test(name) && name.length <= 253 ? undefined : "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
}

/**
 * Checks an applied object against the URL it was sent to, as kube-apiserver does: apiVersion and kind of
 * the resource (400), name and namespace matching the URL (400), the namespace existing (404), a valid name
 * and, for built-in kinds, the kind's schema (422, kubernetes-models' validation: wrong types, missing
 * required fields).
 */
export function checkApplied(store: KubeStore, r: { info: ResourceInfo; namespace?: string; name?: string }, config: Loose): KubeObject {
  const { info } = r;
  const name = r.name as string;
  if (config.apiVersion !== apiVersionOf(info) || config.kind !== info.kind) {
    throw new KubeStatusError(400, 'BadRequest', `the API version in the data (${config.apiVersion}) and kind (${config.kind}) do not match the expected ${apiVersionOf(info)}, Kind=${info.kind}`);
  }
  if (config.metadata?.name !== undefined && config.metadata.name !== name) throw new KubeStatusError(400, 'BadRequest', `the name of the object (${config.metadata.name}) does not match the name on the URL (${name})`);
  if (r.namespace !== undefined && config.metadata?.namespace !== undefined && config.metadata.namespace !== r.namespace) throw new KubeStatusError(400, 'BadRequest', 'the namespace of the provided object does not match the namespace sent on the request');
  if (r.namespace !== undefined && !store.list('namespaces').some((n) => n.metadata.name === r.namespace)) {
    throw new KubeStatusError(404, 'NotFound', `namespaces "${r.namespace}" not found`, { name: r.namespace, kind: 'namespaces' });
  }
  const problem = nameProblem(info.kind, name);
  if (problem) throw invalid(info, name, 'metadata.name', name, problem);
  if (info.model) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- one model module per kind, loaded when first applied
    const Model = (require(`kubernetes-models/${info.model}`) as Record<string, new (o: unknown) => { validate(): void }>)[info.kind];
    try {
      new Model(config).validate();
    } catch (e) {
      const first = (e as { errors?: { instancePath: string; message: string }[] }).errors?.[0];
      if (!first) throw e;
      const field = first.instancePath.slice(1).replace(/\//g, '.');
      throw invalid(info, name, field, field.split('.').reduce((o: Loose, k) => o?.[k], config), first.message);
    }
  }
  return config as KubeObject;
}
