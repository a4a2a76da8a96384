import { NotFoundError } from '../errors/not-found-error';
import { StatePaths } from '../state/state-paths';
import { StoreTransaction } from '../state/store-transaction';
import type { Vfs } from '../state/vfs/vfs';

/** Every state-store key of a cluster; NotFoundError when the cluster has no `config`. */
export async function clusterKeys(vfs: Vfs, name: string): Promise<string[]> {
  // The lock is the deleting command's own; releasing it removes it last.
  const keys = (await vfs.list(StatePaths.clusterPrefix(name))).filter((k) => k !== StatePaths.lock(name));
  if (!keys.includes(StatePaths.config(name))) throw new NotFoundError(`cluster "${name}" not found in state store ${vfs.url}`);
  return keys;
}

/** Deletes a cluster's state (config last, so a failure never leaves objects without their cluster). */
export async function deleteClusterState(vfs: Vfs, name: string): Promise<string[]> {
  const keys = await clusterKeys(vfs, name);
  const tx = new StoreTransaction(vfs);
  for (const k of keys) if (k !== StatePaths.config(name)) tx.remove(k);
  tx.remove(StatePaths.config(name));
  await tx.commit();
  return keys;
}
