import { UsageError } from '../errors/usage-error';
import type { Vfs } from '../state/vfs/vfs';

/** Creates the container of a state store with the store's safe settings; returns one line per setting. */
export async function createStateStore(vfs: Vfs): Promise<string[]> {
  if (!vfs.createStore) throw new UsageError(`--state ${vfs.url}: this kind of state store has nothing to create`);
  return vfs.createStore();
}
