import type { Cluster, InstanceGroup } from '../api/types';
import { ClusterRepository } from '../state/cluster-repository';
import type { Vfs } from '../state/vfs/vfs';

/** A cluster with everything stored for it that `get all` shows: its instance groups and additional objects. */
export interface ClusterObjects {
  cluster: Cluster;
  /** Sorted by name. */
  instanceGroups: InstanceGroup[];
  /** Objects of other kinds kept with the cluster (`clusteraddons/default`), in their order. */
  additionalObjects: Array<Record<string, unknown>>;
}

/** `get NAME` / `get all NAME` (kops's `get`): reads one cluster's objects; NotFoundError when it does not exist. */
export async function getClusterObjects(vfs: Vfs, name: string): Promise<ClusterObjects> {
  const stored = await new ClusterRepository(vfs).get(name);
  return { cluster: stored.cluster.object, instanceGroups: stored.instanceGroups.map((v) => v.object), additionalObjects: stored.additionalObjects };
}
