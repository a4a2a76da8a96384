import type { AwsCloud } from '../cloud/aws/aws-cloud';
import type { ClusterResource } from '../cloud/aws/cluster-resources/cluster-resource';
import { deleteInRounds, DeleteInRoundsOptions } from '../cloud/aws/cluster-resources/delete-in-rounds';
import { listClusterResources } from '../cloud/aws/cluster-resources/list-cluster-resources';
import { listSharedResources, SharedClusterResource, SharedResourceIds } from '../cloud/aws/cluster-resources/list-shared-resources';
import { connectAwsCloud } from '../cloud/aws/connect-aws-cloud';
import { withAwsRetries } from '../cloud/aws/with-aws-retries';
import { controlPlaneIamName, nodeGroupIamName } from '../model/aws/iam-names';
import { NotFoundError } from '../errors/not-found-error';
import { deleteKeys } from '../state/cluster-leftovers';
import { ClusterRepository } from '../state/cluster-repository';
import { StatePaths } from '../state/state-paths';
import type { Vfs } from '../state/vfs/vfs';

/** What `delete cluster` finds under a name. */
export interface ClusterObjects {
  /** Every state-store key of the cluster, sorted (the lock excluded). */
  keys: string[];
  /** False when there is no `config`: the keys are leftovers of an interrupted create or delete. */
  complete: boolean;
}

/** Every state-store key of a cluster, complete or left over; NotFoundError when nothing is stored under the name. */
export async function clusterKeys(vfs: Vfs, name: string): Promise<ClusterObjects> {
  const all = await vfs.list(StatePaths.clusterPrefix(name));
  if (all.length === 0) throw new NotFoundError(`cluster "${name}" not found in state store ${vfs.url}`);
  // The lock is the deleting command's own; releasing it removes it last. A lock alone, left by a crashed
  // command, is a leftover too: the delete takes it over and releases it.
  const keys = all.filter((k) => k !== StatePaths.lock(name));
  return { keys, complete: keys.includes(StatePaths.config(name)) };
}

/**
 * Deletes a cluster's state; the caller holds its lock. `config` goes first: the cluster is gone for
 * every reader at once, and whatever a failure or crash leaves after that is a leftover that a re-run
 * of `delete` (or a `create` of the name) removes. Temporary files of interrupted writes, which may hold
 * keys, go too.
 */
export async function deleteClusterState(vfs: Vfs, name: string): Promise<ClusterObjects> {
  const found = await clusterKeys(vfs, name);
  if (found.complete) await vfs.delete(StatePaths.config(name));
  await deleteKeys(vfs, found.keys.filter((k) => k !== StatePaths.config(name)));
  await vfs.removeTemporaryFiles?.(StatePaths.clusterPrefix(name));
  return found;
}

/**
 * For a name with no object and no lock: removes temporary files that a crashed write left below it
 * (they may hold keys). Nothing else can be writing there, since every writer holds the lock first.
 * Returns how many; 0 when there were none or the store has no temporary files.
 */
export async function removeStrayTemporaryFiles(vfs: Vfs, name: string): Promise<number> {
  return (await vfs.removeTemporaryFiles?.(StatePaths.clusterPrefix(name))) ?? 0;
}

/** Where a cluster's cloud resources are, for `delete cluster`: an AWS cloud whose credentials work. */
export interface ClusterCloud {
  cloud: AwsCloud;
  /** `spec.dnsZone`, where the cluster's `api` records are. */
  dnsZone?: string;
  /** The IAM role and profile names the model gives the cluster and its node groups. */
  iamNames: string[];
  /** The existing resources the spec names (shared VPC, subnets, NAT gateways, overrides): never deleted. */
  sharedIds: SharedResourceIds;
}

/**
 * The cloud of a stored cluster, checked before anything is deleted: the region from its subnets' zones,
 * and STS GetCallerIdentity, so missing or refused credentials fail at once with a clear message.
 * `note` instead of a cloud when the cluster's cloud resources are not deleted by this version (GCE).
 */
export async function connectClusterCloud(vfs: Vfs, name: string, env: NodeJS.ProcessEnv = process.env): Promise<{ cloud?: ClusterCloud; note?: string }> {
  const { cluster, instanceGroups } = await new ClusterRepository(vfs).get(name);
  const spec = cluster.object.spec ?? {};
  const provider = spec.cloudProvider ?? 'aws';
  if (provider !== 'aws') return { note: `kforge does not delete cloud resources on ${provider} yet, only the state: delete the cluster's ${provider} resources yourself` };
  const aws = await connectAwsCloud(cluster.object, { env, consequence: '; nothing was deleted (--unregister deletes the state only)' });
  const groups = instanceGroups.map((ig) => ig.object);
  // A group with its own profile (spec.iam.profile) has no kforge role or profile to look for.
  const iamNames = [controlPlaneIamName(name), ...groups.filter((ig) => ig.spec.role === 'Node' && !ig.spec.iam?.profile).map((ig) => nodeGroupIamName(ig.metadata.name, name))];
  const present = (xs: Array<string | undefined>): string[] => [...new Set(xs.filter((x): x is string => !!x))].sort();
  const sharedIds: SharedResourceIds = {
    vpc: spec.networkID,
    subnets: present((spec.subnets ?? []).map((s) => s.id)),
    natGateways: present((spec.subnets ?? []).map((s) => (s.egress?.startsWith('nat-') ? s.egress : undefined))),
    securityGroups: present(groups.map((ig) => ig.spec.securityGroupOverride)),
    instanceProfiles: present(groups.map((ig) => ig.spec.iam?.profile)),
  };
  return { cloud: { cloud: aws, dnsZone: spec.dnsZone, iamNames, sharedIds } };
}

/** Every cloud resource of the cluster (see listClusterResources), sorted by type, name and id. */
export function listClusterCloudResources(target: ClusterCloud): Promise<ClusterResource[]> {
  return listClusterResources(target.cloud, { dnsZone: target.dnsZone, iamNames: target.iamNames });
}

/** The shared resources the cluster used (see listSharedResources): what delete leaves alone. Only reads: retried on throttling. */
export function listClusterSharedResources(target: ClusterCloud): Promise<SharedClusterResource[]> {
  return withAwsRetries(() => listSharedResources(target.cloud, target.sharedIds));
}

/**
 * Deletes the cluster's cloud resources in rounds (see deleteInRounds), listing them afresh first (the
 * caller holds the cluster lock); throws DeleteBlockedError when some cannot go, and the caller must then
 * keep the state. Then removes the cluster's `shared` tag from the shared VPC and subnets, and nothing else
 * of theirs. Resolves with what was deleted and the shared resources left alone, `tagged` true where this
 * delete removed the tag.
 */
export async function deleteClusterCloudResources(target: ClusterCloud, options: DeleteInRoundsOptions = {}): Promise<{ deleted: ClusterResource[]; shared: SharedClusterResource[] }> {
  const [resources, shared] = await Promise.all([listClusterCloudResources(target), listClusterSharedResources(target)]);
  if (resources.length > 0) await deleteInRounds(resources, options);
  // Only once everything owned is gone: a blocked delete keeps the tags, as it keeps the state, for a re-run.
  // `tagged` then says whether this delete removed the tag.
  const left: SharedClusterResource[] = [];
  // DeleteTags is idempotent: throttling or a dropped connection is simply retried.
  for (const r of shared) left.push({ ...r, tagged: await withAwsRetries(() => r.untag()) });
  return { deleted: resources, shared: left };
}
