import { NotFoundError } from '../errors/not-found-error';
import { UsageError } from '../errors/usage-error';
import { Keypair } from '../pki/keypair';
import { Keyset } from '../pki/keyset';
import { ClusterRepository } from '../state/cluster-repository';
import { Keystore, StoredKeyset } from '../state/keystore';
import { requireKeysets } from './require-keysets';
import type { Vfs } from '../state/vfs/vfs';
import { compareKeyIds, rotatableKeysets, saveKeysets } from './save-keysets';

/** What `distrust keypair` did to one keyset. */
export interface DistrustResult {
  keyset: string;
  /** Ids newly distrusted. */
  distrusted: string[];
  /** Why nothing changed, when nothing did. */
  unchanged?: string;
}

/**
 * `distrust keypair KEYSET [ID...]` (kops's semantics): marks keys distrusted, which takes their
 * certificates out of the trust bundles nodes get. Without ids, every trusted key older than the primary
 * is distrusted. The primary cannot be distrusted (promote another key first); an unknown id is an
 * error; an already distrusted key is skipped. `all` does this for every rotatable keyset. All keysets
 * are checked before anything is written, then written in one transaction; the node configs follow at
 * the next update (planManagedFiles), as in kops. A keyset that does not exist yet (no update so far)
 * is NotUpdatedError. The caller holds the cluster lock.
 */
export async function distrustKeypair(vfs: Vfs, cluster: string, keysetName: string, ids: string[], now: Date = new Date()): Promise<DistrustResult[]> {
  const stored = await new ClusterRepository(vfs).get(cluster);
  const rotatable = rotatableKeysets(stored);
  if (keysetName === 'all' && ids.length > 0) throw new UsageError('cannot give keypair ids with "all"');
  if (keysetName !== 'all' && !rotatable.includes(keysetName)) throw new UsageError(`distrusting keypairs of "${keysetName}" is not supported; rotatable keysets: ${rotatable.join(', ')}, or all`);
  const keystore = new Keystore(vfs, cluster);
  const have = await keystore.names();
  const names = keysetName === 'all' ? rotatable.filter((n) => have.includes(n)) : [keysetName];
  requireKeysets(cluster, names.length === 0 || !have.includes(names[0]) ? (keysetName === 'all' ? 'its rotatable keysets' : keysetName) : undefined);
  // kops's timestamp format: RFC 3339 in UTC, whole seconds.
  const timestamp = now.toISOString().replace(/\.\d{3}Z$/, 'Z');
  const results: DistrustResult[] = [];
  const changes: Array<{ keyset: Keyset; previous: StoredKeyset; primaryChanged: boolean }> = [];
  for (const name of names) {
    const previous = await keystore.getPrivate(name);
    const ks = previous.keyset;
    let wanted = ids;
    if (wanted.length === 0) {
      wanted = ks.keys.filter((k) => !k.distrustTimestamp && compareKeyIds(k.id, ks.primaryId) < 0).map((k) => k.id);
      if (wanted.length === 0) {
        results.push({ keyset: name, distrusted: [], unchanged: `no ${name} keypairs older than the primary ${ks.primaryId}` });
        continue;
      }
    }
    for (const id of wanted) {
      if (id === ks.primaryId) throw new UsageError(`cannot distrust keypair ${id}: it is the primary of keyset "${name}"; promote another keypair first`);
      if (!ks.keys.some((k) => k.id === id)) throw new NotFoundError(`keypair ${id} not found in keyset "${name}"; ids: ${ks.keys.map((k) => k.id).join(', ')}`);
    }
    const fresh = wanted.filter((id) => !ks.keys.find((k) => k.id === id)?.distrustTimestamp);
    if (fresh.length === 0) {
      results.push({ keyset: name, distrusted: [], unchanged: `keypair ${wanted.join(', ')} of ${name} already distrusted` });
      continue;
    }
    const keys = ks.keys.map((k) => (fresh.includes(k.id) ? new Keypair(k.id, k.certificatePem, k.privateKeyPem, timestamp) : k));
    changes.push({ keyset: new Keyset(name, keys, ks.primaryId), previous, primaryChanged: false });
    results.push({ keyset: name, distrusted: fresh });
  }
  if (changes.length > 0) await saveKeysets(vfs, stored, changes);
  return results;
}
