import type { Cluster, InstanceGroup } from '../api/types';
import { toYaml, toYamlStream } from '../api/to-yaml';
import type { YamlDocument } from '../api/yaml-documents';
import { AlreadyExistsError } from '../errors/already-exists-error';
import { ConflictError } from '../errors/conflict-error';
import type { StoredCluster } from '../state/cluster-repository';
import { StatePaths } from '../state/state-paths';
import { StoreTransaction } from '../state/store-transaction';
import type { Vfs } from '../state/vfs/vfs';
import { performAssignments } from '../expand/perform-assignments';
import { completeWithReleaseHashes } from './complete-with-release-hashes';

/** What a save wrote and removed, and the completed spec it validated (not written: update writes it). */
export interface SaveResult {
  completed: Cluster;
  written: string[];
  deleted: string[];
}

/** One cluster's desired state, as a save takes it. */
export interface ClusterChange {
  cluster: Cluster;
  instanceGroups: InstanceGroup[];
  /** What was read from the store; undefined for a create. */
  previous?: StoredCluster;
  /** Manifest documents of the objects, so errors can name file and line. */
  sources?: Map<string, YamlDocument>;
  /** Objects of other kinds kept with the cluster (`clusteraddons/default`); undefined leaves the stored ones. */
  additionalObjects?: Array<Record<string, unknown>>;
  /** Further objects to write with the cluster (e.g. the SSH public key). */
  extraFiles?: Array<[string, string]>;
}

/**
 * Validates and expands one cluster and stages the writes of the user's objects in `tx`: instance
 * groups, additional objects, extra files (the SSH public key) and `config`. As in kops, the PKI and the
 * managed files (cluster-completed.spec, igconfig/…/nodeupconfig.yaml) are not written here but by
 * `update cluster` (planManagedFiles), so that update can show their changes; the expansion is still
 * done, so that an invalid spec is refused now, by the command that made it.
 *
 * `config` is the commit point, written last (docs/state-stores.md): until it is written, a new cluster
 * does not exist for any reader, and an edited one still reads as before. With no `previous` it is a
 * create: the caller holds the cluster's lock and has removed what an interrupted command left, and
 * every object is written create-only. With `previous`, the user's objects are compare-and-swapped
 * against the versions read. A deleted instance group's nodeup config is left to update, whose plan shows
 * it as a delete.
 */
export async function stageClusterSave(vfs: Vfs, tx: StoreTransaction, change: ClusterChange): Promise<SaveResult> {
  const { instanceGroups, previous } = change;
  // Assigned values (the channel's Kubernetes version) are stored in `config`, explicit from then on.
  const cluster = performAssignments(change.cluster);
  const name = cluster.metadata.name;
  const completed = await completeWithReleaseHashes(vfs, cluster, instanceGroups, { useRecorded: previous !== undefined, sources: change.sources });
  const written: string[] = [];
  const deleted: string[] = [];
  const put = (key: string, data: string, opts = {}) => {
    tx.put(key, data, opts);
    written.push(key);
  };
  const before = new Map((previous?.instanceGroups ?? []).map((v) => [v.object.metadata.name, v]));
  for (const ig of [...instanceGroups].sort((a, b) => a.metadata.name.localeCompare(b.metadata.name))) {
    const old = before.get(ig.metadata.name);
    put(StatePaths.instanceGroup(name, ig.metadata.name), toYaml(ig), old ? { ifVersion: old.version } : { ifNotExists: true });
  }
  for (const [igName] of before) {
    if (!instanceGroups.some((ig) => ig.metadata.name === igName)) {
      tx.remove(StatePaths.instanceGroup(name, igName));
      deleted.push(StatePaths.instanceGroup(name, igName));
    }
  }
  // In a create nothing of the cluster exists yet, so every write is create-only: an object that appears
  // anyway (a writer that ignored the lock) fails the create instead of being overwritten.
  const additional: Array<[string, string]> = change.additionalObjects ? [[StatePaths.additionalObjects(name), toYamlStream(change.additionalObjects)]] : [];
  for (const [key, content] of [...(change.extraFiles ?? []), ...additional]) put(key, content, previous ? {} : { ifNotExists: true });
  tx.putLast(StatePaths.config(name), toYaml(cluster), previous ? { ifVersion: previous.cluster.version } : { ifNotExists: true });
  written.unshift(StatePaths.config(name));
  return { completed, written, deleted };
}

/** Commits a transaction of cluster saves; a create that lost a race becomes "already exists". */
export async function commitClusterSaves(vfs: Vfs, tx: StoreTransaction, changes: ClusterChange[]): Promise<void> {
  try {
    await tx.commit();
  } catch (e) {
    const created = changes.find((c) => !c.previous);
    if (e instanceof ConflictError && created) {
      throw new AlreadyExistsError(`cluster "${created.cluster.metadata.name}" already exists in ${vfs.url}; use "kforge replace -f" or "kforge edit cluster ${created.cluster.metadata.name}" to change it`);
    }
    throw e;
  }
}

/** Validates, expands and stores one cluster's objects in one all-or-nothing transaction. */
export async function saveCluster(vfs: Vfs, change: ClusterChange): Promise<SaveResult> {
  const tx = new StoreTransaction(vfs);
  const result = await stageClusterSave(vfs, tx, change);
  await commitClusterSaves(vfs, tx, [change]);
  return result;
}
