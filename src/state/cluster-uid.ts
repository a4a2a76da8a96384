import { randomUUID } from 'node:crypto';
import { ConflictError } from '../errors/conflict-error';
import { StateStoreError } from '../errors/state-store-error';
import { StatePaths } from './state-paths';
import type { Vfs } from './vfs/vfs';

// What the file holds: a random (v4) UUID, lower-case, one line.
const UID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * The cluster's UID from the state store (`<cluster>/cluster-uid`), or undefined before its first
 * `update --yes`. StateStoreError when the file holds something else: a token salted with it would not
 * be this cluster's.
 */
export async function readClusterUid(vfs: Vfs, cluster: string): Promise<string | undefined> {
  const key = StatePaths.clusterUid(cluster);
  const found = await vfs.read(key);
  if (found === undefined) return undefined;
  const uid = found.data.toString('utf8').trim();
  if (!UID.test(uid)) throw new StateStoreError(`${vfs.url}/${key}: not a cluster UID (expected one lower-case UUID); it is written by the first "update cluster --yes" and must not be edited`);
  return uid;
}

/**
 * The cluster's UID, made on first use: an existing one is kept; otherwise a new one is written
 * create-only, so two first updates that race both end up with the one that was written first.
 */
export async function ensureClusterUid(vfs: Vfs, cluster: string): Promise<string> {
  const existing = await readClusterUid(vfs, cluster);
  if (existing !== undefined) return existing;
  const made = randomUUID();
  try {
    await vfs.write(StatePaths.clusterUid(cluster), `${made}\n`, { ifNotExists: true });
    return made;
  } catch (e) {
    if (!(e instanceof ConflictError)) throw e;
  }
  const uid = await readClusterUid(vfs, cluster);
  if (uid === undefined) throw new StateStoreError(`${vfs.url}/${StatePaths.clusterUid(cluster)}: written, but not there when read back`);
  return uid;
}
