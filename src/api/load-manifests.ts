import type { FieldError } from '../errors/field-error';
import { parseFieldPath } from '../errors/field-error';
import { ValidationError } from '../errors/validation-error';
import { checkObjectNames } from '../validate/check-object-names';
import { validateAgainstSchema } from '../validate/schema-validator';
import { KOPS_API_GROUPS, SUPPORTED_API_VERSIONS, SUPPORTED_CLOUDS } from './api-versions';
import type { Cluster, InstanceGroup } from './types';
import { parseYamlDocuments, YamlDocument } from './yaml-documents';

/** Objects read from a manifest, with where each came from so later errors can name file and line. */
export interface ManifestSet {
  clusters: Cluster[];
  instanceGroups: InstanceGroup[];
  /** Documents of kinds that are not kops's (any apiVersion outside kops's groups), kept as additional objects. */
  additionalObjects: Array<Record<string, unknown>>;
  /** Source document of each object (by identity). */
  sources: Map<object, YamlDocument>;
}

/**
 * Parses a multi-document manifest of Clusters and InstanceGroups, checks apiVersion, kind and the JSON
 * Schema of each document, and throws one ValidationError listing every problem with file and line.
 */
export function loadManifests(text: string, file: string): ManifestSet {
  const docs = parseYamlDocuments(text, file).flatMap(expandLists);
  const errors: FieldError[] = [];
  const set: ManifestSet = { clusters: [], instanceGroups: [], additionalObjects: [], sources: new Map() };
  if (docs.length === 0) throw new ValidationError([{ path: '', message: 'contains no objects', file }], file);
  const clusterNames = new Set<string>();
  docs.forEach((doc, index) => {
    const at = (path: string, message: string) => errors.push({ object: `document ${index + 1}`, path, message, file, line: doc.lineOf(parseFieldPath(path)) });
    const v = doc.value as Record<string, unknown>;
    if (typeof v !== 'object' || Array.isArray(v)) return at('', `must be a mapping with apiVersion, kind, metadata and spec, got ${Array.isArray(v) ? 'a list' : typeof v}`);
    // Objects of other APIs (a KubeSchedulerConfiguration, a ConfigMap…) travel with the cluster, as in kops.
    if (isForeignObject(v)) {
      set.sources.set(v, doc);
      set.additionalObjects.push(v);
      return;
    }
    if (!SUPPORTED_API_VERSIONS.includes(v.apiVersion as string)) {
      return at('apiVersion', `${JSON.stringify(v.apiVersion ?? null)} is not supported; use ${SUPPORTED_API_VERSIONS.join(' or ')}`);
    }
    if (v.kind !== 'Cluster' && v.kind !== 'InstanceGroup') return at('kind', `${JSON.stringify(v.kind ?? null)} is not supported; use Cluster or InstanceGroup`);
    const name = (v.metadata as { name?: unknown } | undefined)?.name;
    // Shortened: a hostile name would otherwise be repeated in full in every message about the object.
    const key = `${v.kind}/${typeof name === 'string' ? (name.length > 80 ? `${name.slice(0, 60)}…` : name) : `document ${index + 1}`}`;
    const cloud = v.kind === 'Cluster' ? (v.spec as { cloudProvider?: unknown } | undefined)?.cloudProvider : undefined;
    // An unsupported cloud makes every other finding noise (its settings are unknown here): say only that.
    const problems =
      typeof cloud === 'string' && !SUPPORTED_CLOUDS.includes(cloud)
        ? [{ path: 'spec.cloudProvider', message: `"${cloud}" is not supported: kforge builds clusters on ${SUPPORTED_CLOUDS.join(' and ')}` }]
        : // Names become store keys (paths): they are checked here, before anything reads the store.
          validateAgainstSchema(v.kind, v).concat(checkObjectNames(v.kind, v));
    for (const p of problems) errors.push({ ...p, object: key, file, line: doc.lineOf(parseFieldPath(p.path)) });
    if (problems.length > 0) return;
    set.sources.set(v, doc);
    if (v.kind === 'Cluster') {
      if (clusterNames.has(name as string)) return at('metadata.name', `${key} is defined twice in this file`);
      clusterNames.add(name as string);
      set.clusters.push(v as unknown as Cluster);
    } else {
      set.instanceGroups.push(v as unknown as InstanceGroup);
    }
  });
  if (errors.length > 0) throw new ValidationError(errors, file);
  return set;
}

/** True for a document with an apiVersion and kind of an API group that is not kops's (or kforge's). */
export function isForeignObject(v: Record<string, unknown>): boolean {
  if (typeof v.apiVersion !== 'string' || typeof v.kind !== 'string' || v.kind === 'List') return false;
  const group = v.apiVersion.includes('/') ? v.apiVersion.slice(0, v.apiVersion.indexOf('/')) : '';
  return !KOPS_API_GROUPS.includes(group);
}

/** A JSON array or a `kind: List` holds several objects (what `get -o json` prints); each becomes a document. */
function expandLists(doc: YamlDocument): YamlDocument[] {
  const v = doc.value as { kind?: unknown; items?: unknown };
  const items = Array.isArray(v) ? v : v && typeof v === 'object' && v.kind === 'List' && Array.isArray(v.items) ? v.items : undefined;
  if (!items) return [doc];
  const prefix: Array<string | number> = Array.isArray(v) ? [] : ['items'];
  return items.map((value, i) => ({ value, file: doc.file, lineOf: (p: Array<string | number>) => doc.lineOf([...prefix, i, ...p]) }));
}

/** Source documents of one cluster's objects, keyed as its errors name them (`Kind/name`). */
export function clusterSources(sources: Map<object, YamlDocument>, cluster: Cluster | undefined, igs: InstanceGroup[]): Map<string, YamlDocument> {
  const out = new Map<string, YamlDocument>();
  const c = cluster && sources.get(cluster);
  if (cluster && c) out.set(`Cluster/${cluster.metadata.name}`, c);
  for (const ig of igs) {
    const d = sources.get(ig);
    if (d) out.set(`InstanceGroup/${ig.metadata.name}`, d);
  }
  return out;
}

/** Adds file and line to errors about objects that came from a manifest. */
export function locateErrors(errors: FieldError[], sources: Map<string, YamlDocument>): FieldError[] {
  return errors.map((e) => {
    const doc = e.object ? sources.get(e.object) : undefined;
    return doc ? { ...e, file: doc.file, line: doc.lineOf(parseFieldPath(e.path)) } : e;
  });
}
