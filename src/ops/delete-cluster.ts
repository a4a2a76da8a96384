import { NotFoundError } from '../errors/not-found-error';
import { deleteKeys } from '../state/cluster-leftovers';
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
