import { StatePaths } from './state-paths';
import type { Vfs } from './vfs/vfs';

// Deletes are independent of each other; on an object store each is a round trip.
const PARALLEL_DELETES = 8;

/**
 * The objects stored under a cluster name that has no `config`: what a create or delete interrupted by a
 * crash left behind (docs/state-stores.md). Empty when the cluster exists or nothing is there. The lock
 * is not counted: it belongs to whichever command holds it.
 */
export async function leftoverKeys(vfs: Vfs, name: string): Promise<string[]> {
  const keys = (await vfs.list(StatePaths.clusterPrefix(name))).filter((k) => k !== StatePaths.lock(name));
  return keys.includes(StatePaths.config(name)) ? [] : keys;
}

/**
 * Removes a cluster name's leftovers and any temporary files of interrupted writes below it; the caller
 * holds the name's lock. Returns the keys removed.
 */
export async function removeLeftovers(vfs: Vfs, name: string): Promise<string[]> {
  const keys = await leftoverKeys(vfs, name);
  await deleteKeys(vfs, keys);
  await vfs.removeTemporaryFiles?.(StatePaths.clusterPrefix(name));
  return keys;
}

/** Deletes keys, a few at a time; stops at the first failure (what is left, a re-run removes). */
export async function deleteKeys(vfs: Vfs, keys: string[]): Promise<void> {
  for (let i = 0; i < keys.length; i += PARALLEL_DELETES) {
    await Promise.all(keys.slice(i, i + PARALLEL_DELETES).map((k) => vfs.delete(k)));
  }
}
