import * as yaml from 'js-yaml';
import { toSortedYaml } from '../api/to-yaml';
import type { Cluster } from '../api/types';
import { performAssignments } from '../expand/perform-assignments';
import { ClusterRepository } from '../state/cluster-repository';
import type { Vfs } from '../state/vfs/vfs';
import { completeWithReleaseHashes } from './complete-with-release-hashes';

/**
 * A stored cluster's completed spec, computed now from its config and instance groups (as update will
 * write it), not read: before the first update there is no stored one, and after an edit it is stale.
 * NotFoundError when the cluster does not exist.
 */
export async function completeStoredCluster(vfs: Vfs, name: string): Promise<Cluster> {
  const stored = await new ClusterRepository(vfs).get(name);
  const completed = await completeWithReleaseHashes(vfs, performAssignments(stored.cluster.object), stored.instanceGroups.map((v) => v.object), { useRecorded: true });
  // With its keys in the order of the stored file (sorted), so that printing it shows what update writes.
  return yaml.load(toSortedYaml(completed)) as Cluster;
}
