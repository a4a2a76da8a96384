import { createHash } from 'node:crypto';
import type { SshPublicKey } from '../create/ssh-public-key';
import { NotFoundError } from '../errors/not-found-error';
import { ClusterRepository } from '../state/cluster-repository';
import { StatePaths } from '../state/state-paths';
import { StoreTransaction } from '../state/store-transaction';
import type { Vfs } from '../state/vfs/vfs';

/** The one SSH key name kops and kforge use: the admin user's key. */
export const ADMIN_SSH_KEY = 'admin';

/** A stored SSH public key, as `get sshpublickeys` shows it. */
export interface SshPublicKeyRow {
  name: string;
  /** kops's id: the MD5 of the key blob in hex, which names the file. */
  id: string;
  /** The same MD5, colon-separated, as `ssh-keygen -l -E md5` prints it. */
  fingerprint: string;
  publicKey: string;
}

/** The admin key files of a cluster (kops's `<cluster>/pki/ssh/public/admin/<fingerprint>`). */
async function adminKeyFiles(vfs: Vfs, cluster: string): Promise<string[]> {
  return vfs.list(StatePaths.sshPublicKey(cluster, ''));
}

async function mustExist(vfs: Vfs, cluster: string): Promise<void> {
  if (!(await new ClusterRepository(vfs).exists(cluster))) throw new NotFoundError(`cluster "${cluster}" not found in state store ${vfs.url}`);
}

/**
 * `create sshpublickey`: stores the admin key; a different key already stored is replaced in the same
 * transaction, because nodes get one admin key (the old one would linger unused). The caller holds the
 * cluster lock. Returns the keys removed, and `unchanged` when this key was already the stored one.
 */
export async function addSshPublicKey(vfs: Vfs, cluster: string, key: SshPublicKey): Promise<{ replaced: string[]; unchanged: boolean }> {
  await mustExist(vfs, cluster);
  const target = StatePaths.sshPublicKey(cluster, key.fingerprint);
  const existing = await adminKeyFiles(vfs, cluster);
  if (existing.length === 1 && existing[0] === target && (await vfs.read(target))?.data.toString('utf8') === key.text) return { replaced: [], unchanged: true };
  const tx = new StoreTransaction(vfs);
  const old = existing.filter((k) => k !== target);
  // The new key is written before the old ones go, so a failure never leaves the cluster without a key.
  tx.put(target, key.text);
  for (const k of old) tx.remove(k);
  await tx.commit();
  return { replaced: old.map((k) => k.slice(k.lastIndexOf('/') + 1)), unchanged: false };
}

/** `get sshpublickeys`: the stored admin keys (normally one), never anything secret. */
export async function listSshPublicKeys(vfs: Vfs, cluster: string): Promise<SshPublicKeyRow[]> {
  await mustExist(vfs, cluster);
  const rows: SshPublicKeyRow[] = [];
  for (const file of await adminKeyFiles(vfs, cluster)) {
    const obj = await vfs.read(file);
    if (!obj) continue;
    const publicKey = obj.data.toString('utf8').trim();
    const blob = publicKey.split(/\s+/)[1] ?? '';
    const md5 = createHash('md5').update(Buffer.from(blob, 'base64')).digest('hex');
    rows.push({ name: ADMIN_SSH_KEY, id: file.slice(file.lastIndexOf('/') + 1), fingerprint: md5.replace(/(..)(?!$)/g, '$1:'), publicKey });
  }
  return rows;
}

/** `delete sshpublickey`: removes the admin key(s); NotFoundError when the cluster has none. The caller holds the lock. */
export async function deleteSshPublicKey(vfs: Vfs, cluster: string): Promise<string[]> {
  await mustExist(vfs, cluster);
  const files = await adminKeyFiles(vfs, cluster);
  if (files.length === 0) throw new NotFoundError(`cluster "${cluster}" has no SSH public key`);
  const tx = new StoreTransaction(vfs);
  for (const k of files) tx.remove(k);
  await tx.commit();
  return files.map((k) => k.slice(k.lastIndexOf('/') + 1));
}
