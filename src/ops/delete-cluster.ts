import { CloudProvider, DeleteOptions, DeleteTarget, ListedResource, loadCloudProvider, SharedResource } from '../cloud/cloud-provider';
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

/** Where a cluster's cloud resources are, for `delete cluster`: its provider, and a connection whose credentials work. */
export interface ClusterCloud {
  provider: CloudProvider;
  /** What the provider needs to find the cluster's resources; `target.cloud` has the API call counter. */
  target: DeleteTarget;
  /** The connection (its `calls` for the summary, its `fence` for the lock). */
  cloud: DeleteTarget['cloud'];
}

/**
 * The cloud of a stored cluster, checked before anything is deleted: the provider connects and proves its
 * credentials, so missing or refused credentials fail at once with a clear message.
 * `note` instead of a cloud when the cluster's cloud resources are not deleted by this version (GCE).
 */
export async function connectClusterCloud(vfs: Vfs, name: string, env: NodeJS.ProcessEnv = process.env): Promise<{ cloud?: ClusterCloud; note?: string }> {
  const { cluster, instanceGroups } = await new ClusterRepository(vfs).get(name);
  const providerName = cluster.object.spec?.cloudProvider ?? 'aws';
  if (providerName !== 'aws' && providerName !== 'gce') return { note: `kforge does not delete cloud resources on ${providerName} yet, only the state: delete the cluster's ${providerName} resources yourself` };
  const provider = await loadCloudProvider(providerName, 'delete cluster');
  const target = await provider.deleteTarget(cluster.object, instanceGroups.map((ig) => ig.object), env);
  return { cloud: { provider, target, cloud: target.cloud } };
}

/** Every cloud resource of the cluster, sorted by type, name and id. */
export function listClusterCloudResources(c: ClusterCloud): Promise<ListedResource[]> {
  return c.provider.listClusterResources(c.target);
}

/** The shared resources the cluster used: what delete leaves alone. Only reads: retried on throttling. */
export function listClusterSharedResources(c: ClusterCloud): Promise<SharedResource[]> {
  return c.provider.listSharedResources(c.target);
}

/**
 * Deletes the cluster's cloud resources in rounds, listing them afresh first (the
 * caller holds the cluster lock); throws DeleteBlockedError when some cannot go, and the caller must then
 * keep the state. Then removes the cluster's `shared` tag from the shared VPC and subnets, and nothing else
 * of theirs. Resolves with what was deleted and the shared resources left alone, `tagged` true where this
 * delete removed the tag.
 */
export async function deleteClusterCloudResources(c: ClusterCloud, options: DeleteOptions = {}): Promise<{ deleted: ListedResource[]; shared: SharedResource[] }> {
  const [resources, shared] = await Promise.all([listClusterCloudResources(c), listClusterSharedResources(c)]);
  if (resources.length > 0) await c.provider.deleteResources(resources, options);
  // Only once everything owned is gone: a blocked delete keeps the tags, as it keeps the state, for a re-run.
  // `tagged` then says whether this delete removed the tag.
  const left: SharedResource[] = [];
  for (const r of shared) left.push({ ...r, tagged: await c.provider.untagShared(r) });
  return { deleted: resources, shared: left };
}
