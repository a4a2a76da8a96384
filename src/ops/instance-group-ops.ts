import { CLUSTER_LABEL, DEFAULT_API_VERSION } from '../api/api-versions';
import type { InstanceGroup } from '../api/types';
import { applySetFlags } from '../create/set-fields';
import { AlreadyExistsError } from '../errors/already-exists-error';
import { NotFoundError } from '../errors/not-found-error';
import { UsageError } from '../errors/usage-error';
import { ClusterRepository, StoredCluster } from '../state/cluster-repository';
import { StatePaths } from '../state/state-paths';
import type { Vfs } from '../state/vfs/vfs';
import { expandCluster } from './expand-cluster';
import { saveCluster } from './save-cluster';

/** Inputs of `create instancegroup`. */
export interface NewInstanceGroupOptions {
  cluster: string;
  name: string;
  role: string;
  subnets: string[];
  machineType?: string;
  /** Default: 2 for nodes, 1 otherwise (kops). */
  minSize?: number;
  /** Default: minSize. */
  maxSize?: number;
  sets: string[];
}

/** Builds the InstanceGroup `create instancegroup` would add (kops's defaults: 2 nodes, 1 otherwise). */
export function newInstanceGroup(o: NewInstanceGroupOptions): InstanceGroup {
  const role = o.role === 'Master' ? 'ControlPlane' : o.role;
  const min = o.minSize ?? (role === 'Node' ? 2 : 1);
  const ig: InstanceGroup = {
    apiVersion: DEFAULT_API_VERSION,
    kind: 'InstanceGroup',
    metadata: { name: o.name, labels: { [CLUSTER_LABEL]: o.cluster } },
    spec: { ...(o.machineType ? { machineType: o.machineType } : {}), maxSize: o.maxSize ?? min, minSize: min, role: role as InstanceGroup['spec']['role'], subnets: o.subnets },
  };
  applySetFlags(ig as unknown as Record<string, unknown>, 'InstanceGroup', o.sets);
  return ig;
}

/** Adds an instance group to a stored cluster; validates the whole cluster with it first. */
export async function createInstanceGroup(vfs: Vfs, o: NewInstanceGroupOptions, dryRun: boolean): Promise<InstanceGroup> {
  const stored = await new ClusterRepository(vfs).get(o.cluster);
  if (stored.instanceGroups.some((v) => v.object.metadata.name === o.name)) throw new AlreadyExistsError(`instance group "${o.name}" already exists in cluster "${o.cluster}"`);
  const ig = newInstanceGroup(o);
  if (dryRun) expandCluster(stored.cluster.object, [...stored.instanceGroups.map((v) => v.object), ig], vfs.url);
  else await saveCluster(vfs, { cluster: stored.cluster.object, instanceGroups: [...stored.instanceGroups.map((v) => v.object), ig], previous: stored });
  return ig;
}

/** Checks that an instance group can be deleted: it exists and no etcd member runs on it. Returns the stored cluster. */
export async function checkDeleteInstanceGroup(vfs: Vfs, cluster: string, name: string): Promise<StoredCluster> {
  const stored = await new ClusterRepository(vfs).get(cluster);
  if (!stored.instanceGroups.some((v) => v.object.metadata.name === name)) throw new NotFoundError(`instance group "${name}" not found in cluster "${cluster}"`);
  // Validation would report the members' now dangling references; say what stops the deletion instead.
  const members = (stored.cluster.object.spec.etcdClusters ?? []).flatMap((e, i) =>
    (e.etcdMembers ?? []).flatMap((m, j) => (m.instanceGroup === name ? [`${e.name}/${m.name} (spec.etcdClusters[${i}].etcdMembers[${j}])`] : [])),
  );
  if (members.length > 0) {
    throw new UsageError(
      `instance group "${name}" cannot be deleted: etcd members still run on it: ${members.join(', ')}. Remove them from spec.etcdClusters first (kforge edit cluster ${cluster}), keeping an odd number of members in each etcd cluster`,
    );
  }
  return stored;
}

/**
 * Removes an instance group: as kops's `delete instancegroup`, its cloud resources first, at once (on AWS,
 * once the cluster has been applied: the group's Auto Scaling group with its instances, its launch template,
 * and a node group's own IAM role and instance profile; on GCE its MIGs and instance templates), then the
 * group from the spec. Refuses if etcd
 * members still use it. Returns the cloud resources deleted (`type name`, sorted). Run it under the cluster lock.
 */
export async function deleteInstanceGroup(vfs: Vfs, cluster: string, name: string, env: NodeJS.ProcessEnv = process.env, fence?: () => Promise<void>): Promise<string[]> {
  const stored = await checkDeleteInstanceGroup(vfs, cluster, name);
  const deleted = await deleteInstanceGroupCloudResources(vfs, stored, name, env, fence);
  const rest = stored.instanceGroups.map((v) => v.object).filter((ig) => ig.metadata.name !== name);
  await saveCluster(vfs, { cluster: stored.cluster.object, instanceGroups: rest, previous: stored });
  return deleted;
}

/** The group's cloud resources (AWS, GCE), deleted; none before the cluster's first `update --yes` (nothing can exist yet). */
async function deleteInstanceGroupCloudResources(vfs: Vfs, stored: StoredCluster, name: string, env: NodeJS.ProcessEnv, fence?: () => Promise<void>): Promise<string[]> {
  const cluster = stored.cluster.object;
  const c = cluster.metadata.name;
  const cloudName = cluster.spec.cloudProvider ?? 'aws';
  if ((cloudName !== 'aws' && cloudName !== 'gce') || (await vfs.read(StatePaths.appliedMarker(c))) === undefined) return [];
  const ig = stored.instanceGroups.map((v) => v.object).find((g) => g.metadata.name === name);
  const { loadCloudProvider } = await import('../cloud/cloud-provider');
  const provider = await loadCloudProvider(cloudName, 'delete instancegroup');
  const cloud = await provider.connect(cluster, { env, consequence: `; instance group "${name}" was not deleted` });
  // Every deleting call checks the cluster lock first (lock-fence-middleware.ts).
  cloud.fence = fence;
  return provider.deleteInstanceGroup(cloud, cluster, ig, name);
}
