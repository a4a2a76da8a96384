import { clusterCaNames, clusterKeysetDefinitions, SERVICE_ACCOUNT } from '../pki/cluster-pki';
import { generateKeysets } from '../pki/generate-cluster-pki';
import type { Keyset } from '../pki/keyset';
import type { StoredCluster } from '../state/cluster-repository';
import { Keystore, StoredKeyset } from '../state/keystore';
import { StoreTransaction } from '../state/store-transaction';
import type { Vfs } from '../state/vfs/vfs';
import { etcdClusterNames } from './plan-cluster-pki';

/** Keysets that can hold several keys and be rotated (kops's rotatable keysets): the CAs and the service-account signer. */
export function rotatableKeysets(stored: StoredCluster): string[] {
  return [...clusterCaNames(etcdClusterNames(stored.cluster.object)), SERVICE_ACCOUNT].sort();
}

/** Orders key ids as kops does: numerically (they are decimal certificate serials), others lexically. */
export function compareKeyIds(a: string, b: string): number {
  if (/^\d+$/.test(a) && /^\d+$/.test(b)) return BigInt(a) < BigInt(b) ? -1 : BigInt(a) > BigInt(b) ? 1 : 0;
  return a.localeCompare(b);
}

/** One keyset to write: `previous` is what was read (undefined: the keyset is new, written create-only). */
export interface KeysetChange {
  keyset: Keyset;
  previous: StoredKeyset | undefined;
  /** The primary changed, so the certificates the keyset signs are re-issued from the new one. */
  primaryChanged: boolean;
}

/**
 * Writes changed keysets in one transaction. Keysets whose primary changed get the certificates they sign
 * re-issued from the new primary (as `create keypair --primary` does). Every keyset is compare-and-swapped
 * against the version read (a new one is written create-only). The nodeup configs, which carry primary ids
 * and trust bundles, are not touched: as in kops, the next `update cluster` re-renders them and shows the
 * change in its plan. The caller holds the cluster lock. Returns the re-issued keyset names.
 */
export async function saveKeysets(vfs: Vfs, stored: StoredCluster, changes: KeysetChange[]): Promise<string[]> {
  const cluster = stored.cluster.object.metadata.name;
  const keystore = new Keystore(vfs, cluster);
  const tx = new StoreTransaction(vfs);
  const staged: Array<[Keyset, StoredKeyset | undefined]> = changes.map((c) => [c.keyset, c.previous]);
  const reissued: string[] = [];
  const defs = clusterKeysetDefinitions(etcdClusterNames(stored.cluster.object));
  for (const c of changes.filter((x) => x.primaryChanged)) {
    const dependents = defs.filter((d) => d.signer === c.keyset.name);
    for (const ks of await generateKeysets(dependents, new Map([[c.keyset.name, c.keyset.primary()]]))) {
      staged.push([ks, await keystore.getPrivate(ks.name).catch(() => undefined)]);
      reissued.push(ks.name);
    }
  }
  for (const [ks, prev] of staged) keystore.stage(tx, ks, prev);
  await tx.commit();
  return reissued.sort();
}
