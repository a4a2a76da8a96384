import { CLUSTER_LABEL } from '../api/api-versions';
import { clusterSources, loadManifests } from '../api/load-manifests';
import type { Cluster, InstanceGroup } from '../api/types';
import type { YamlDocument } from '../api/yaml-documents';
import { AlreadyExistsError } from '../errors/already-exists-error';
import type { FieldError } from '../errors/field-error';
import { NotFoundError } from '../errors/not-found-error';
import { ValidationError } from '../errors/validation-error';
import { ClusterRepository } from '../state/cluster-repository';
import { LockOptions, withClusterLocks } from '../state/lock/cluster-lock';
import { StoreTransaction } from '../state/store-transaction';
import type { Vfs } from '../state/vfs/vfs';
import { performAssignments } from '../expand/perform-assignments';
import { prepareNewClusterName } from './create-cluster';
import { expandCluster } from './expand-cluster';
import { ClusterChange, commitClusterSaves, stageClusterSave } from './save-cluster';

/** One line of what `create -f` / `replace -f` did. */
export interface AppliedObject {
  kind: 'Cluster' | 'InstanceGroup';
  name: string;
  cluster: string;
  action: 'created' | 'replaced' | 'unchanged';
}

/**
 * `create -f` and `replace -f`: reads Clusters and InstanceGroups from a manifest and stores them.
 * Create refuses objects that exist; replace refuses objects that do not (kops's semantics). Every
 * cluster in the file is validated as a whole (with its stored instance groups) before anything is
 * written, and all of them are saved in one transaction: the file is applied completely or not at all.
 */
export async function applyManifests(vfs: Vfs, text: string, file: string, mode: 'create' | 'replace', lock: LockOptions): Promise<AppliedObject[]> {
  const set = loadManifests(text, file);
  const repo = new ClusterRepository(vfs);
  const groups = groupByCluster(set.clusters, set.instanceGroups, set.sources, file, set.additionalObjects);
  // New clusters are validated before any lock is taken, so that a bad manifest writes nothing at all
  // (not even a lock, whose versions a versioned bucket would keep). Existing ones need their stored
  // objects, read under the lock.
  if (mode === 'create') await validateNewClusters(repo, set, groups, file);
  // Every cluster of the file is locked, new ones too: the lock, not the create-only write of `config`
  // (which comes last), is what serialises two creates of the same name.
  return withClusterLocks(vfs, [...groups.keys()], lock, async (fence) => {
    // Every write under the locks verifies them first.
    const store = fence.vfs(vfs);
    const existing = new Set<string>();
    for (const [name, group] of groups) {
      if (await repo.exists(name)) existing.add(name);
      else if (mode === 'create' && group.cluster) await prepareNewClusterName(store, name, `use "kforge replace -f ${file}" to change it`);
    }
    return applyGroups(store, repo, set, groups, existing, file, mode);
  });
}

/** Validates (and expands, discarding the result) every cluster of a `create -f` that does not exist yet. */
async function validateNewClusters(repo: ClusterRepository, set: ReturnType<typeof loadManifests>, groups: Map<string, ClusterGroup>, file: string): Promise<void> {
  const invalid: FieldError[] = [];
  for (const [name, { cluster, instanceGroups }] of groups) {
    if (!cluster || (await repo.exists(name))) continue;
    try {
      expandCluster(performAssignments(cluster), instanceGroups, repo.vfs.url, clusterSources(set.sources, cluster, instanceGroups));
    } catch (e) {
      if (!(e instanceof ValidationError)) throw e;
      for (const fe of e.errors) invalid.push(fe);
    }
  }
  if (invalid.length > 0) throw new ValidationError(invalid, file);
}

async function applyGroups(
  vfs: Vfs,
  repo: ClusterRepository,
  set: ReturnType<typeof loadManifests>,
  groups: Map<string, ClusterGroup>,
  existing: Set<string>,
  file: string,
  mode: 'create' | 'replace',
): Promise<AppliedObject[]> {
  const applied: AppliedObject[] = [];
  const changes: ClusterChange[] = [];
  for (const [clusterName, { cluster, instanceGroups, additionalObjects }] of groups) {
    // A cluster that appears meanwhile makes the create-only write of its config fail; one that goes away makes get() fail.
    const stored = existing.has(clusterName) ? await repo.get(clusterName) : undefined;
    if (mode === 'create' && cluster && stored) throw new AlreadyExistsError(`cluster "${clusterName}" already exists in ${vfs.url}; use "kforge replace -f ${file}" to change it`);
    if (!stored && (mode === 'replace' || !cluster)) {
      throw new NotFoundError(`cluster "${clusterName}" not found in ${vfs.url}${mode === 'replace' ? `; use "kforge create -f ${file}" to create it` : ''}`);
    }
    const igs = new Map((stored?.instanceGroups ?? []).map((v) => [v.object.metadata.name, v.object]));
    const igActions: AppliedObject['action'][] = [];
    for (const ig of instanceGroups) {
      const exists = igs.has(ig.metadata.name);
      igActions.push(!exists ? 'created' : sameObject(ig, igs.get(ig.metadata.name)) ? 'unchanged' : 'replaced');
      if (mode === 'create' && exists) throw new AlreadyExistsError(`instance group "${ig.metadata.name}" already exists in cluster "${clusterName}"`);
      if (mode === 'replace' && !exists) throw new NotFoundError(`instance group "${ig.metadata.name}" not found in cluster "${clusterName}"; use "kforge create -f ${file}" to create it`);
      igs.set(ig.metadata.name, ig);
    }
    const finalCluster = cluster ?? (stored as NonNullable<typeof stored>).cluster.object;
    changes.push({
      cluster: finalCluster,
      instanceGroups: [...igs.values()],
      previous: stored,
      sources: clusterSources(set.sources, cluster, instanceGroups),
      // A file's other objects replace the cluster's stored ones; a file without any leaves them alone.
      additionalObjects: additionalObjects.length > 0 ? additionalObjects : undefined,
    });
    if (cluster) applied.push({ kind: 'Cluster', name: clusterName, cluster: clusterName, action: !stored ? 'created' : sameObject(cluster, stored.cluster.object) ? 'unchanged' : 'replaced' });
    instanceGroups.forEach((ig, i) => applied.push({ kind: 'InstanceGroup', name: ig.metadata.name, cluster: clusterName, action: igActions[i] }));
  }
  const tx = new StoreTransaction(vfs);
  const invalid: FieldError[] = [];
  for (const change of changes) {
    try {
      await stageClusterSave(vfs, tx, change);
    } catch (e) {
      if (!(e instanceof ValidationError)) throw e;
      for (const fe of e.errors) invalid.push(fe); // not push(...): a long list overflows the stack
    }
  }
  if (invalid.length > 0) throw new ValidationError(invalid, file);
  await commitClusterSaves(vfs, tx, changes);
  return applied;
}

/** Whether two API objects are equal, whatever the order of their keys. */
function sameObject(a: unknown, b: unknown): boolean {
  return canonicalJson(a) === canonicalJson(b);
}

function canonicalJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`;
  if (v !== null && typeof v === 'object') {
    const entries = Object.entries(v as Record<string, unknown>).filter(([, x]) => x !== undefined);
    return `{${entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([k, x]) => `${JSON.stringify(k)}:${canonicalJson(x)}`).join(',')}}`;
  }
  return JSON.stringify(v) ?? 'null';
}

/** The objects of one cluster in a manifest. */
interface ClusterGroup {
  cluster?: Cluster;
  instanceGroups: InstanceGroup[];
  additionalObjects: Array<Record<string, unknown>>;
}

function groupByCluster(
  clusters: Cluster[],
  igs: InstanceGroup[],
  sources: Map<object, YamlDocument>,
  file: string,
  additional: Array<Record<string, unknown>> = [],
): Map<string, ClusterGroup> {
  const out = new Map<string, ClusterGroup>();
  const errors: FieldError[] = [];
  for (const c of clusters) out.set(c.metadata.name, { cluster: c, instanceGroups: [], additionalObjects: [] });
  for (const ig of igs) {
    const where = (path: string) => ({ object: `InstanceGroup/${ig.metadata.name}`, path, file, line: sources.get(ig)?.lineOf(path === 'metadata.name' ? ['metadata', 'name'] : ['metadata']) });
    const label = ig.metadata.labels?.[CLUSTER_LABEL];
    const name = label ?? (clusters.length === 1 ? clusters[0].metadata.name : undefined);
    if (!name) {
      errors.push({ ...where(`metadata.labels["${CLUSTER_LABEL}"]`), message: 'is required to say which cluster the instance group belongs to (the file has several clusters)' });
      continue;
    }
    if (!out.has(name)) out.set(name, { instanceGroups: [], additionalObjects: [] });
    const group = out.get(name) as ClusterGroup;
    if (group.instanceGroups.some((o) => o.metadata.name === ig.metadata.name)) {
      errors.push({ ...where('metadata.name'), message: `instance group "${ig.metadata.name}" of cluster "${name}" is defined twice in this file` });
      continue;
    }
    group.instanceGroups.push(ig);
  }
  for (const obj of additional) {
    const label = (obj.metadata as { labels?: Record<string, unknown> } | undefined)?.labels?.[CLUSTER_LABEL];
    const name = typeof label === 'string' ? label : clusters.length === 1 ? clusters[0].metadata.name : undefined;
    const group = name === undefined ? undefined : out.get(name);
    if (!group) {
      const line = sources.get(obj)?.lineOf(['metadata']);
      const what = `${String(obj.kind)}${typeof (obj.metadata as { name?: unknown } | undefined)?.name === 'string' ? `/${(obj.metadata as { name: string }).name}` : ''}`;
      errors.push({ object: what, path: `metadata.labels["${CLUSTER_LABEL}"]`, file, line, message: `must name the cluster this object goes with (a Cluster in the same file); kforge keeps objects of other kinds with their cluster, as kops does` });
      continue;
    }
    group.additionalObjects.push(obj);
  }
  if (errors.length > 0) throw new ValidationError(errors, file);
  return out;
}
