import type { AnyTask } from '../../tasks/task';
import type { AwsCloud } from './aws-cloud';
import { ownedByCluster } from './owned-by-cluster';
import type { ClusterResource } from './cluster-resources/cluster-resource';
import { deleteInRounds } from './cluster-resources/delete-in-rounds';
import { listClusterResources } from './cluster-resources/list-cluster-resources';

/** A resource of the cluster that the model no longer has: what `update` lists under "Will delete". */
export interface OrphanedResource {
  kind: 'AutoScalingGroup' | 'LaunchTemplate' | 'IAMRole' | 'IAMInstanceProfile';
  name: string;
}

// The kinds update prunes, with the type the delete listers give them. Only what an instance group
// brings and takes away with it: never a volume (etcd data), never the network.
const LISTED_AS: Readonly<Record<OrphanedResource['kind'], string>> = {
  AutoScalingGroup: 'autoscaling-group',
  LaunchTemplate: 'launch-template',
  IAMRole: 'iam-role',
  IAMInstanceProfile: 'iam-instance-profile',
};

/**
 * The Auto Scaling groups, launch templates, IAM roles and instance profiles tagged for the cluster (both
 * cluster tags) whose names no task of the model has, such as those of a deleted instance group. Read from
 * the inventory the plan's find already loaded: no extra API call.
 */
export async function findOrphanedResources(cloud: AwsCloud, tasks: readonly AnyTask<AwsCloud>[]): Promise<OrphanedResource[]> {
  const modelled = new Set(tasks.map((t) => `${t.kind}/${t.name}`));
  const owned = (tags: ReadonlyArray<{ Key?: string; Value?: string }> | undefined): boolean => ownedByCluster(tags, cloud.clusterName);
  const found: OrphanedResource[] = [];
  const add = (kind: OrphanedResource['kind'], name: string | undefined): void => {
    if (name && !modelled.has(`${kind}/${name}`)) found.push({ kind, name });
  };
  for (const g of await cloud.inventory.autoScalingGroups()) add('AutoScalingGroup', g.AutoScalingGroupName);
  for (const t of await cloud.inventory.launchTemplates()) if (owned(t.Tags)) add('LaunchTemplate', t.LaunchTemplateName);
  for (const r of await cloud.inventory.iamRoleList()) {
    if (!owned(r.Tags)) continue;
    add('IAMRole', r.RoleName);
    for (const p of r.InstanceProfileList ?? []) if (owned(p.Tags)) add('IAMInstanceProfile', p.InstanceProfileName);
  }
  return found.sort((a, b) => (a.kind === b.kind ? (a.name < b.name ? -1 : 1) : a.kind < b.kind ? -1 : 1));
}

/**
 * Deletes orphaned resources with `delete cluster`'s listers and round deleter (an ASG with its instances
 * before its launch template, a profile before its role). Returns how many were deleted.
 */
export async function deleteOrphanedResources(cloud: AwsCloud, orphans: readonly OrphanedResource[]): Promise<number> {
  return (await deleteNamedResources(cloud, orphans)).length;
}

/**
 * Deletes those of `wanted` that exist (found by the cluster's tags, as `delete cluster` finds them), in
 * rounds; returns the resources it deleted (`delete instancegroup` names them).
 */
export async function deleteNamedResources(cloud: AwsCloud, wanted: readonly OrphanedResource[]): Promise<ClusterResource[]> {
  if (wanted.length === 0) return [];
  const keys = new Set(wanted.map((o) => `${LISTED_AS[o.kind]}/${o.name}`));
  const iamNames = wanted.filter((o) => o.kind === 'IAMInstanceProfile').map((o) => o.name);
  const all = await listClusterResources(cloud, { iamNames });
  const targets: ClusterResource[] = all.filter((r) => keys.has(`${r.type}/${r.name}`));
  await deleteInRounds(targets, {});
  return targets;
}
