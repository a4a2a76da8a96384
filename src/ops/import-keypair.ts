import { AlreadyExistsError } from '../errors/already-exists-error';
import { UsageError } from '../errors/usage-error';
import { clusterCertificates } from '../pki/cluster-certificates';
import { clusterCaNames, clusterKeysetDefinitions } from '../pki/cluster-pki';
import { generateKeysets } from '../pki/generate-cluster-pki';
import type { Keypair } from '../pki/keypair';
import { Keyset } from '../pki/keyset';
import { ClusterRepository } from '../state/cluster-repository';
import { Keystore, StoredKeyset } from '../state/keystore';
import { StatePaths } from '../state/state-paths';
import { StoreTransaction } from '../state/store-transaction';
import type { Vfs } from '../state/vfs/vfs';
import { etcdClusterNames } from './plan-cluster-pki';
import { commitClusterSaves, stageClusterSave } from './save-cluster';

/** What `create keypair` did. */
export interface ImportKeypairResult {
  id: string;
  primary: boolean;
  /** The generated keys this one replaced (before the first update nothing has used them). */
  replaced: string[];
  /** Keysets re-issued from the new primary CA. */
  reissued: string[];
}

/**
 * `create keypair KEYSET --cert --key`: brings your own CA. Before the cluster's first update the
 * generated key was never distributed, so the imported key replaces it; afterwards it is added, and
 * becomes primary only with `primary`. When it becomes primary, the certificates it signs are
 * re-issued and the node configs re-derived, all in one transaction with compare-and-swap.
 */
export async function importKeypair(vfs: Vfs, cluster: string, keysetName: string, keypair: Keypair, primaryFlag: boolean): Promise<ImportKeypairResult> {
  const stored = await new ClusterRepository(vfs).get(cluster);
  const etcd = etcdClusterNames(stored.cluster.object);
  const cas = clusterCaNames(etcd);
  if (!cas.includes(keysetName)) throw new UsageError(`keyset "${keysetName}" cannot be imported; CA keysets of cluster "${cluster}": ${cas.join(', ')}`);
  const keystore = new Keystore(vfs, cluster);
  const previous = await keystore.getPrivate(keysetName).catch(() => undefined);
  if (previous?.keyset.keys.some((k) => k.id === keypair.id)) throw new AlreadyExistsError(`keyset "${keysetName}" already has a key with id ${keypair.id}`);
  const applied = (await vfs.read(StatePaths.appliedMarker(cluster))) !== undefined;
  const primary = !applied || primaryFlag || !previous;
  const keyset = applied && previous ? new Keyset(keysetName, [...previous.keyset.keys, keypair], primary ? keypair.id : previous.keyset.primaryId) : Keyset.single(keysetName, keypair);

  const tx = new StoreTransaction(vfs);
  const changed: Array<[Keyset, StoredKeyset | undefined]> = [[keyset, previous]];
  const reissued: string[] = [];
  if (primary) {
    const dependents = clusterKeysetDefinitions(etcd).filter((d) => d.signer === keysetName);
    const fresh = await generateKeysets(dependents, new Map([[keysetName, keypair]]));
    for (const ks of fresh) {
      changed.push([ks, await keystore.getPrivate(ks.name).catch(() => undefined)]);
      reissued.push(ks.name);
    }
  }
  for (const [ks, prev] of changed) keystore.stage(tx, ks, prev);
  const names = await keystore.names();
  const current = new Map((await Promise.all(names.map((n) => keystore.getPublic(n)))).flatMap((s) => (s ? [[s.keyset.name, s.keyset] as const] : [])));
  for (const [ks] of changed) current.set(ks.name, ks);
  const change = {
    cluster: stored.cluster.object,
    instanceGroups: stored.instanceGroups.map((v) => v.object),
    previous: stored,
    pki: { created: [], certificates: clusterCertificates([...current.values()]) },
  };
  await stageClusterSave(vfs, tx, change);
  await commitClusterSaves(vfs, tx, [change]);
  return { id: keypair.id, primary, replaced: applied || !previous ? [] : previous.keyset.keys.map((k) => k.id), reissued };
}
