import { AlreadyExistsError } from '../errors/already-exists-error';
import { UsageError } from '../errors/usage-error';
import { clusterCaNames } from '../pki/cluster-pki';
import type { Keypair } from '../pki/keypair';
import { Keyset } from '../pki/keyset';
import { ClusterRepository } from '../state/cluster-repository';
import { Keystore } from '../state/keystore';
import { StatePaths } from '../state/state-paths';
import type { Vfs } from '../state/vfs/vfs';
import { etcdClusterNames } from './plan-cluster-pki';
import { saveKeysets } from './save-keysets';

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
 * `create keypair KEYSET --cert --key`: brings your own CA. Before the cluster's first update no key was
 * distributed, so the imported key is the keyset (replacing a generated one, if an update was cut
 * short); afterwards it is added, and becomes primary only with `primary`. When it becomes primary, the
 * certificates it signs are (re-)issued, all in one transaction with compare-and-swap; the node configs
 * follow at the next update, which also creates the keysets still missing.
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

  const reissued = await saveKeysets(vfs, stored, [{ keyset, previous, primaryChanged: primary }]);
  return { id: keypair.id, primary, replaced: applied || !previous ? [] : previous.keyset.keys.map((k) => k.id), reissued };
}
