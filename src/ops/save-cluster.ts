import type { Cluster, InstanceGroup } from '../api/types';
import { toYaml } from '../api/to-yaml';
import type { YamlDocument } from '../api/yaml-documents';
import { AlreadyExistsError } from '../errors/already-exists-error';
import { ConflictError } from '../errors/conflict-error';
import type { StoredCluster } from '../state/cluster-repository';
import { StatePaths } from '../state/state-paths';
import { StoreTransaction } from '../state/store-transaction';
import type { Vfs } from '../state/vfs/vfs';
import { expandCluster, ExpandedCluster } from './expand-cluster';

/** What a save wrote and removed. */
export interface SaveResult {
  expanded: ExpandedCluster;
  written: string[];
  deleted: string[];
}

/**
 * Validates, expands and stores a cluster's desired state in one all-or-nothing transaction. With no
 * `previous`, it is a create: `config` is written create-only, so a concurrent create of the same name
 * loses cleanly. With `previous`, every object is compare-and-swapped against the version read.
 */
export async function saveCluster(
  vfs: Vfs,
  cluster: Cluster,
  instanceGroups: InstanceGroup[],
  previous: StoredCluster | undefined,
  sources?: Map<string, YamlDocument>,
  extraFiles: Array<[string, string]> = [],
): Promise<SaveResult> {
  const name = cluster.metadata.name;
  const expanded = expandCluster(cluster, instanceGroups, vfs.url, sources);
  const tx = new StoreTransaction(vfs);
  tx.put(StatePaths.config(name), toYaml(cluster), previous ? { ifVersion: previous.cluster.version } : { ifNotExists: true });
  const before = new Map((previous?.instanceGroups ?? []).map((v) => [v.object.metadata.name, v]));
  for (const ig of [...instanceGroups].sort((a, b) => a.metadata.name.localeCompare(b.metadata.name))) {
    const old = before.get(ig.metadata.name);
    tx.put(StatePaths.instanceGroup(name, ig.metadata.name), toYaml(ig), old ? { ifVersion: old.version } : { ifNotExists: true });
  }
  const deleted: string[] = [];
  for (const [igName] of before) {
    if (!instanceGroups.some((ig) => ig.metadata.name === igName)) {
      tx.remove(StatePaths.instanceGroup(name, igName));
      deleted.push(StatePaths.instanceGroup(name, igName));
    }
  }
  for (const [key, content] of [...expanded.files, ...extraFiles]) tx.put(key, content);
  // Nodeup configs of groups that no longer exist (or changed role) must not linger.
  for (const key of await vfs.list(StatePaths.igconfigPrefix(name))) {
    if (!expanded.files.has(key)) {
      tx.remove(key);
      deleted.push(key);
    }
  }
  try {
    await tx.commit();
  } catch (e) {
    if (e instanceof ConflictError && !previous) {
      throw new AlreadyExistsError(`cluster "${name}" already exists in ${vfs.url}; use "kforge replace -f" or "kforge edit cluster ${name}" to change it`);
    }
    throw e;
  }
  return { expanded, written: tx.keys().filter((k) => !deleted.includes(k)), deleted };
}
