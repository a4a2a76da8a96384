import type { Vfs } from './vfs';

/**
 * After a conditional write failed its precondition, tells whether the store already holds exactly the
 * bytes being written: then an earlier attempt of the same request was applied and only its response
 * was lost (the SDK retried, and the retry tripped over our own write). Returns the stored version in
 * that case, undefined when the object is someone else's.
 *
 * Content equality is a safe test because what kforge writes conditionally is unique to one command:
 * keysets hold fresh random keys, leases a random token, and an identical config is the same outcome.
 */
export async function confirmOwnWrite(vfs: Pick<Vfs, 'read'>, key: string, data: Buffer | string): Promise<string | undefined> {
  const current = await vfs.read(key).catch(() => undefined);
  return current !== undefined && current.data.equals(Buffer.from(data)) ? current.version : undefined;
}
