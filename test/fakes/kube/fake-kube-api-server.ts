import * as https from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import type { Keypair } from '../../../src/pki/keypair';
import { APPLY_PATCH, jsonPatch, mergePatch, PatchError, PATCH_TYPES, strategicMergePatch } from './kube-patch';
import { checkApplied, discovery, parseYaml } from './kube-discovery';
import { apiVersionOf, ResourceInfo, resourceKey } from './kube-resources';
import { fieldSelector, labelSelector, SelectorError } from './kube-selectors';
import { KubeStatusError, success } from './kube-status';
import { DeleteOptions, KubeObject, KubeResource, KubeStore, Loose } from './kube-store';

/** Who made a request, from its client certificate (CN = user, O = groups), as kube-apiserver's x509 authenticator reads it. */
export interface KubeUser {
  user: string;
  groups: string[];
}

/** One request's authorization attributes, as RBAC sees them. */
export interface KubeRequestAttributes extends KubeUser {
  verb: string;
  /** The plural (`deployments`). */
  resource: string;
  /** The API group ('' for core). */
  group?: string;
  subresource?: string;
  namespace?: string;
  name?: string;
}

/** A request as the fake received it. `verb` is the Kubernetes verb (list, get, patch, delete, create). */
export interface KubeRequestRecord {
  verb: string;
  method: string;
  path: string;
  query: Record<string, string>;
  contentType?: string;
  user?: string;
}

/** Start options. */
export interface FakeKubeApiOptions {
  /** The cluster CA: client certificates must chain to it (else 401). */
  ca: Keypair;
  /** The serving certificate and key (tests choose its SANs). */
  serving: Keypair;
  /** Authorization; default: members of system:masters may do anything, everyone else is forbidden (403). */
  authorize?: (a: KubeRequestAttributes) => boolean;
  /** For how long after start every request answers 503, as a starting kube-apiserver does. Default 0. */
  startingMs?: number;
}

/** A running fake kube-apiserver with hooks for tests to change its state and count its requests. */
export interface FakeKubeApi {
  /** `https://127.0.0.1:PORT`. */
  url: string;
  port: number;
  /** The cluster state; tests add nodes, set conditions and delete pods through it. */
  store: KubeStore;
  /** Every request since start or the last `resetRequests`. */
  requests: KubeRequestRecord[];
  /** Request counts keyed `VERB PATH` (e.g. `list /api/v1/nodes`), sorted by key. */
  requestCounts(): Record<string, number>;
  resetRequests(): void;
  /** Called with each request before it is served, so a test can change the state between requests (a flapping node). */
  onRequest?: (r: KubeRequestRecord) => void;
  /** Makes the next `times` requests (matching `path` when given) fail with this Status. */
  injectFault(fault: { code: number; reason: string; message?: string; times?: number; path?: string }): void;
  /** Answers 503 to every request for the next `ms` milliseconds, as a (re)starting kube-apiserver. */
  setStarting(ms: number): void;
  stop(): Promise<void>;
}

interface Route {
  resource: KubeResource;
  info: ResourceInfo;
  namespace?: string;
  name?: string;
  subresource?: string;
}

/** A path the fake knows the shape of: a discovery document, or a resource (possibly not served yet: a CRD not Established). */
type Parsed = { discovery: string } | { group: string; version: string; plural: string; namespace?: string; name?: string; subresource?: string } | undefined;

function parsePath(path: string): Parsed {
  if (/^\/api(\/v1)?$/.test(path) || /^\/apis(\/[^/]+(\/[^/]+)?)?$/.test(path)) return { discovery: path };
  const m = /^\/(?:api\/(v1)|apis\/([^/]+)\/([^/]+))\/(.+)$/.exec(path);
  if (!m) return undefined;
  const group = m[2] ?? '';
  const version = m[1] ?? m[3];
  const parts = m[4].split('/').map(decodeURIComponent);
  // /api/v1/namespaces/<ns>/<resource>[/<name>[/<sub>]], except /api/v1/namespaces/<name>[/<sub>] itself.
  if (parts[0] === 'namespaces' && parts.length >= 3 && !(group === '' && parts.length === 3 && ['status', 'finalize'].includes(parts[2]))) {
    const [, namespace, plural, name, subresource, ...rest] = parts;
    return rest.length > 0 ? undefined : { group, version, plural, namespace, name, subresource };
  }
  const [plural, name, subresource, ...rest] = parts;
  return rest.length > 0 ? undefined : { group, version, plural, name, subresource };
}

/** Maps a path to the resource it names, or undefined for a path the fake does not serve (a custom resource: only once its CRD is Established). */
function route(store: KubeStore, parsed: Parsed): Route | undefined {
  if (!parsed || 'discovery' in parsed) return undefined;
  const info = store.resolve(parsed.group, parsed.version, parsed.plural);
  if (!info) return undefined;
  // A namespaced resource is named only inside its namespace; a cluster-scoped one never has a namespace.
  if (info.namespaced ? parsed.name && !parsed.namespace : parsed.namespace) return undefined;
  if (parsed.subresource && !(info.resource === 'pods' && parsed.subresource === 'eviction')) return undefined;
  return { resource: resourceKey(info), info, namespace: parsed.namespace, name: parsed.name, subresource: parsed.subresource };
}

function verbOf(method: string, r: { name?: string } | undefined, query: Record<string, string>): string {
  if (method === 'GET') return r?.name ? 'get' : query.watch === 'true' || query.watch === '1' ? 'watch' : 'list';
  return { POST: 'create', PUT: 'update', PATCH: 'patch', DELETE: r?.name ? 'delete' : 'deletecollection' }[method] ?? method.toLowerCase();
}

function forbidden(a: KubeRequestAttributes): KubeStatusError {
  const group = a.group ?? '';
  const res = a.subresource ? `${a.resource}/${a.subresource}` : a.resource;
  const who = a.name ? `${a.resource}${group ? `.${group}` : ''} "${a.name}"` : `${a.resource}${group ? `.${group}` : ''}`;
  const scope = a.namespace ? `in the namespace "${a.namespace}"` : 'at the cluster scope';
  return new KubeStatusError(403, 'Forbidden', `${who} is forbidden: User "${a.user}" cannot ${a.verb} resource "${res}" in API group "${group}" ${scope}`, {
    ...(a.name ? { name: a.name } : {}),
    ...(group ? { group } : {}),
    kind: a.resource,
  });
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function parseJson(text: string): Loose {
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new KubeStatusError(400, 'BadRequest', `the object provided is unrecognized: ${(e as Error).message}`);
  }
}

function userOf(socket: TLSSocket): KubeUser | undefined {
  if (!socket.authorized) return undefined;
  const subject = socket.getPeerCertificate().subject as unknown as Record<string, string | string[]> | undefined;
  if (!subject?.CN) return undefined;
  const o = subject.O;
  return { user: String(subject.CN), groups: [...(o === undefined ? [] : Array.isArray(o) ? o : [o]), 'system:authenticated'] };
}

/** The "public info" paths every authenticated user may read (system:public-info-viewer). */
const PUBLIC = new Set(['/version', '/healthz', '/readyz', '/livez']);

/** Starts a fake kube-apiserver on a loopback port, serving nodes, pods, evictions and PDBs over TLS with client-certificate auth. */
export async function startFakeKubeApi(o: FakeKubeApiOptions): Promise<FakeKubeApi> {
  const store = new KubeStore();
  const requests: KubeRequestRecord[] = [];
  const faults: { code: number; reason: string; message?: string; times: number; path?: string }[] = [];
  const authorize = o.authorize ?? ((a: KubeRequestAttributes) => a.groups.includes('system:masters'));

  let startingUntil = Date.now() + (o.startingMs ?? 0);

  const handle = async (req: IncomingMessage, user: KubeUser | undefined): Promise<{ code: number; body: unknown }> => {
    const url = new URL(req.url ?? '/', 'https://fake');
    const query = Object.fromEntries(url.searchParams);
    const method = req.method ?? 'GET';
    const parsed = parsePath(url.pathname);
    const r = route(store, parsed);
    // Discovery documents are read with `get` (non-resource URLs).
    const verb = parsed && 'discovery' in parsed ? (method === 'GET' ? 'get' : method.toLowerCase()) : verbOf(method, parsed, query);
    const record: KubeRequestRecord = { verb, method, path: url.pathname, query, contentType: req.headers['content-type'], user: user?.user };
    requests.push(record);
    self.onRequest?.(record);
    const body = await readBody(req);
    // kube-apiserver with anonymous auth off (kops's default) answers 401 to a request without a valid client certificate.
    if (!user) throw new KubeStatusError(401, 'Unauthorized', 'Unauthorized');
    // A server still starting (storage not ready, post-start hooks running) answers 503 to everything.
    if (Date.now() < startingUntil) throw new KubeStatusError(503, 'ServiceUnavailable', 'the server is currently unable to handle the request', { retryAfterSeconds: 1 });
    const fault = faults.find((f) => f.path === undefined || f.path === url.pathname);
    if (fault) {
      if (--fault.times <= 0) faults.splice(faults.indexOf(fault), 1);
      throw new KubeStatusError(fault.code, fault.reason, fault.message ?? fault.reason);
    }
    if (PUBLIC.has(url.pathname) && method === 'GET') {
      if (url.pathname === '/version') return { code: 200, body: { major: '1', minor: '31', gitVersion: 'v1.31.4', platform: 'linux/amd64' } };
      return { code: 200, body: 'ok' };
    }
    if (parsed && 'discovery' in parsed && method === 'GET') {
      const doc = discovery(store, parsed.discovery);
      if (doc) return { code: 200, body: doc };
    }
    if (!r) throw new KubeStatusError(404, 'NotFound', 'the server could not find the requested resource', { causes: [{ reason: 'UnexpectedServerResponse', message: '404 page not found' }] });
    const attrs: KubeRequestAttributes = { ...user, verb, resource: r.info.resource, group: r.info.group, subresource: r.subresource, namespace: r.namespace, name: r.name };
    if (!authorize(attrs)) throw forbidden(attrs);
    const kind = r.info.kind;
    const apiVersion = apiVersionOf(r.info);
    const notAllowed = (): KubeStatusError => new KubeStatusError(405, 'MethodNotAllowed', 'the server does not allow this method on the requested resource');

    if (verb === 'list' || verb === 'deletecollection') {
      const byLabel = labelSelector(query.labelSelector);
      const byField = fieldSelector(query.fieldSelector, r.resource);
      const items = store.list(r.resource, r.namespace).filter((x) => byLabel(x.metadata.labels) && byField(x));
      if (verb === 'deletecollection') {
        for (const x of items) store.delete(r.resource, x.metadata.name, x.metadata.namespace);
      }
      for (const x of items) {
        // Items of a real list carry no kind or apiVersion.
        delete x.kind;
        delete x.apiVersion;
      }
      return { code: 200, body: { kind: `${kind}List`, apiVersion, metadata: { resourceVersion: store.resourceVersion }, items } };
    }
    if (verb === 'create' && !r.name) {
      const obj = parseJson(body);
      const name = obj?.metadata?.name;
      if (typeof name !== 'string' || !name) throw new KubeStatusError(422, 'Invalid', `${r.info.kind} "" is invalid: metadata.name: Required value: name or generateName is required`);
      const config = checkApplied(store, { info: r.info, namespace: r.namespace, name }, obj);
      if (store.list(r.resource, r.namespace).some((x) => x.metadata.name === name)) {
        throw new KubeStatusError(409, 'AlreadyExists', `${r.info.resource}${r.info.group ? `.${r.info.group}` : ''} "${name}" already exists`, { name, ...(r.info.group ? { group: r.info.group } : {}), kind: r.info.resource });
      }
      const stored: KubeObject = { ...structuredClone(config), metadata: { ...config.metadata, ...(r.namespace ? { namespace: r.namespace } : {}) } };
      delete stored.kind;
      delete stored.apiVersion;
      // As the real API: a Secret's stringData is written into data, base64-encoded, and not stored.
      if (r.resource === 'secrets' && stored.stringData) {
        stored.data = { ...(stored.data ?? {}), ...Object.fromEntries(Object.entries(stored.stringData as Record<string, string>).map(([k, v]) => [k, Buffer.from(v).toString('base64')])) };
        delete stored.stringData;
      }
      const created = store.put(r.resource, stored);
      store.recordWrite(r.resource, { metadata: created.metadata }, created, query.fieldManager ?? 'unknown');
      return { code: 201, body: store.get(r.resource, name, r.namespace) };
    }
    if (!r.name) throw notAllowed();
    if (r.subresource === 'eviction') {
      if (method !== 'POST') throw notAllowed();
      const ev = parseJson(body);
      if (ev?.kind !== 'Eviction' || (ev.apiVersion !== 'policy/v1' && ev.apiVersion !== 'policy/v1beta1')) throw new KubeStatusError(400, 'BadRequest', `the body of the request was not an Eviction (kind "${ev?.kind}", apiVersion "${ev?.apiVersion}")`);
      if (ev.metadata?.name !== r.name) throw new KubeStatusError(400, 'BadRequest', 'name in URL does not match name in Eviction object');
      if (ev.metadata?.namespace && ev.metadata.namespace !== r.namespace) throw new KubeStatusError(400, 'BadRequest', 'the namespace of the provided object does not match the namespace sent on the request');
      store.evict(r.namespace as string, r.name, (ev.deleteOptions ?? {}) as DeleteOptions);
      return { code: 201, body: success(201) };
    }
    if (verb === 'get') return { code: 200, body: store.get(r.resource, r.name, r.namespace) };
    if (verb === 'delete') {
      const opts: DeleteOptions = body.trim() ? parseJson(body) : {};
      if (query.gracePeriodSeconds !== undefined) opts.gracePeriodSeconds = Number(query.gracePeriodSeconds);
      if (query.dryRun) opts.dryRun = [query.dryRun];
      return { code: 200, body: store.delete(r.resource, r.name, r.namespace, opts) };
    }
    if (verb === 'patch') {
      const type = (req.headers['content-type'] ?? '').split(';')[0].trim();
      if (!PATCH_TYPES.includes(type)) {
        throw new KubeStatusError(415, 'UnsupportedMediaType', `the body of the request was in an unknown format - accepted media types include: ${PATCH_TYPES.join(', ')}`);
      }
      if (type === APPLY_PATCH) {
        const config = checkApplied(store, r, parseYaml(body));
        if (!query.fieldManager) throw new KubeStatusError(422, 'Invalid', 'PatchOptions.meta.k8s.io "" is invalid: fieldManager: Required value: is required for apply patch', { kind: 'PatchOptions', group: 'meta.k8s.io', causes: [{ reason: 'FieldValueRequired', message: 'Required value: is required for apply patch', field: 'fieldManager' }] });
        const applied = store.apply(r.resource, r.namespace, r.name, config, query.fieldManager, query.force === 'true');
        return { code: applied.created ? 201 : 200, body: applied.object };
      }
      if (query.force !== undefined) throw new KubeStatusError(422, 'Invalid', 'PatchOptions.meta.k8s.io "" is invalid: force: Forbidden: may not be specified for non-apply patch', { kind: 'PatchOptions', group: 'meta.k8s.io' });
      const before = store.get(r.resource, r.name, r.namespace);
      const patch = parseJson(body);
      const after = type === 'application/json-patch+json' ? jsonPatch(before, patch) : type === 'application/merge-patch+json' ? mergePatch(before, patch) : strategicMergePatch(before, patch);
      const next = after as KubeObject;
      if (next.spec?.unschedulable !== undefined && typeof next.spec.unschedulable !== 'boolean') {
        throw new KubeStatusError(400, 'BadRequest', `json: cannot unmarshal ${typeof next.spec.unschedulable} into Go struct field NodeSpec.spec.unschedulable of type bool`);
      }
      // As the real strategies do, a write to the main resource leaves status unchanged (status has its own subresource).
      next.status = before.status;
      store.recordWrite(r.resource, before, next, query.fieldManager ?? 'unknown');
      return { code: 200, body: store.update(r.resource, before, next) };
    }
    throw notAllowed();
  };

  const server = https.createServer(
    { cert: o.serving.certificatePem, key: o.serving.privateKeyPem, ca: [o.ca.certificatePem], requestCert: true, rejectUnauthorized: false },
    (req: IncomingMessage, res: ServerResponse) => {
      const user = userOf(req.socket as TLSSocket);
      handle(req, user).then(
        ({ code, body }) => send(res, code, body),
        (e: unknown) => {
          const err = e instanceof KubeStatusError ? e : e instanceof PatchError ? new KubeStatusError(e.code, e.code === 415 ? 'UnsupportedMediaType' : e.code === 422 ? 'Invalid' : 'BadRequest', e.message) : e instanceof SelectorError ? new KubeStatusError(400, 'BadRequest', e.message) : new KubeStatusError(500, 'InternalError', `Internal error occurred: ${(e as Error).message}`);
          send(res, err.code, err.body());
        },
      );
    },
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const self: FakeKubeApi = {
    url: `https://127.0.0.1:${port}`,
    port,
    store,
    requests,
    requestCounts: () => {
      const counts: Record<string, number> = {};
      for (const r of requests) counts[`${r.verb} ${r.path}`] = (counts[`${r.verb} ${r.path}`] ?? 0) + 1;
      return Object.fromEntries(Object.entries(counts).sort(([a], [b]) => a.localeCompare(b)));
    },
    resetRequests: () => {
      requests.length = 0;
    },
    injectFault: (f) => {
      faults.push({ ...f, times: f.times ?? 1 });
    },
    setStarting: (ms) => {
      startingUntil = Date.now() + ms;
    },
    stop: () =>
      new Promise<void>((resolve, reject) => {
        server.close((e) => (e ? reject(e) : resolve()));
        server.closeAllConnections();
      }),
  };
  return self;
}

function send(res: ServerResponse, code: number, body: unknown): void {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(code, { 'content-type': typeof body === 'string' ? 'text/plain; charset=utf-8' : 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}
