import { NotFoundError } from '../errors/not-found-error';
import { UsageError } from '../errors/usage-error';
import { Keyset } from '../pki/keyset';
import { ClusterRepository } from '../state/cluster-repository';
import { Keystore, StoredKeyset } from '../state/keystore';
import { requireKeysets } from './require-keysets';
import type { Vfs } from '../state/vfs/vfs';
import { compareKeyIds, rotatableKeysets, saveKeysets } from './save-keysets';

/** What `promote keypair` did to one keyset. */
export interface PromoteResult {
  keyset: string;
  /** The new primary id; undefined when nothing was promoted. */
  promoted?: string;
  /** Why nothing changed, when nothing did. */
  unchanged?: string;
}

/**
 * `promote keypair KEYSET [ID]` (kops's semantics): makes the given key, or else the newest trusted key
 * with a private key, the primary that signs. Without an id, a keyset whose primary is already the
 * newest is left alone. A distrusted key or one without a private key is refused. `all` promotes in
 * every rotatable keyset. The certificates the keyset signs are re-issued from the new primary, in one
 * transaction with compare-and-swap; the node configs follow at the next update, as in kops. A keyset
 * that does not exist yet (no update so far) is NotUpdatedError. The caller holds the cluster lock.
 */
export async function promoteKeypair(vfs: Vfs, cluster: string, keysetName: string, keypairId?: string): Promise<{ results: PromoteResult[]; reissued: string[] }> {
  const stored = await new ClusterRepository(vfs).get(cluster);
  const rotatable = rotatableKeysets(stored);
  if (keysetName === 'all' && keypairId) throw new UsageError('cannot give a keypair id with "all"');
  if (keysetName !== 'all' && !rotatable.includes(keysetName)) throw new UsageError(`promoting keypairs of "${keysetName}" is not supported; rotatable keysets: ${rotatable.join(', ')}, or all`);
  const keystore = new Keystore(vfs, cluster);
  const have = await keystore.names();
  const names = keysetName === 'all' ? rotatable.filter((n) => have.includes(n)) : [keysetName];
  requireKeysets(cluster, names.length === 0 || !have.includes(names[0]) ? (keysetName === 'all' ? 'its rotatable keysets' : keysetName) : undefined);
  const results: PromoteResult[] = [];
  const changes: Array<{ keyset: Keyset; previous: StoredKeyset; primaryChanged: boolean }> = [];
  for (const name of names) {
    const previous = await keystore.getPrivate(name);
    const ks = previous.keyset;
    let id = keypairId;
    if (id === undefined) {
      const candidates = ks.keys.filter((k) => k.privateKeyPem && !k.distrustTimestamp).map((k) => k.id).sort(compareKeyIds);
      id = candidates[candidates.length - 1];
      if (id === undefined || compareKeyIds(id, ks.primaryId) <= 0) {
        results.push({ keyset: name, unchanged: `no ${name} keypair newer than the current primary ${ks.primaryId}` });
        continue;
      }
    } else {
      const key = ks.keys.find((k) => k.id === id);
      if (!key) throw new NotFoundError(`keypair ${id} not found in keyset "${name}"; ids: ${ks.keys.map((k) => k.id).join(', ')}`);
      if (key.distrustTimestamp) throw new UsageError(`keypair ${id} of keyset "${name}" is distrusted (since ${key.distrustTimestamp}) and cannot be promoted`);
      if (!key.privateKeyPem) throw new UsageError(`keypair ${id} of keyset "${name}" has no private key and cannot sign`);
      if (id === ks.primaryId) {
        results.push({ keyset: name, unchanged: `keypair ${id} is already the primary of ${name}` });
        continue;
      }
    }
    changes.push({ keyset: new Keyset(name, ks.keys, id), previous, primaryChanged: true });
    results.push({ keyset: name, promoted: id });
  }
  const reissued = changes.length > 0 ? await saveKeysets(vfs, stored, changes) : [];
  return { results, reissued };
}
