import type { Cluster } from '../api/types';
import { ClusterCertificates, clusterCertificates } from '../pki/cluster-certificates';
import { clusterKeysetDefinitions } from '../pki/cluster-pki';
import { generateClusterPki, generateKeysets } from '../pki/generate-cluster-pki';
import type { Keypair } from '../pki/keypair';
import type { Keyset } from '../pki/keyset';
import type { Keystore } from '../state/keystore';

/** What a save does with the keystore: keysets to create, and the certificates nodeup configs get. */
export interface PkiPlan {
  /** New keysets, with private keys, to write create-only. */
  created: Keyset[];
  certificates: ClusterCertificates;
}

/** Names of the etcd clusters a spec declares (each gets its own peer and etcd-manager CA). */
export function etcdClusterNames(cluster: Cluster): string[] {
  const list = Array.isArray(cluster.spec?.etcdClusters) ? cluster.spec.etcdClusters : [];
  return list.map((e) => e?.name).filter((n): n is string => typeof n === 'string' && n !== '');
}

/** A new cluster's PKI: every keyset generated. */
export async function planNewClusterPki(etcdClusters: string[]): Promise<PkiPlan> {
  const created = await generateClusterPki(etcdClusters);
  return { created, certificates: clusterCertificates(created) };
}

/**
 * An existing cluster's PKI: reads the certificates it has and generates only what is missing (an etcd
 * cluster added later, or a cluster stored before kforge had a PKI). Private keys are read only to sign
 * what is missing.
 */
export async function planExistingClusterPki(keystore: Keystore, etcdClusters: string[]): Promise<PkiPlan> {
  const have = new Set(await keystore.names());
  const existing = (await Promise.all([...have].map((n) => keystore.getPublic(n)))).flatMap((s) => (s ? [s.keyset] : []));
  const missing = clusterKeysetDefinitions(etcdClusters).filter((d) => !have.has(d.name));
  if (missing.length === 0) return { created: [], certificates: clusterCertificates(existing) };
  const signerNames = [...new Set(missing.flatMap((d) => (d.signer && have.has(d.signer) ? [d.signer] : [])))];
  const signers = new Map<string, Keypair>();
  for (const name of signerNames) signers.set(name, (await keystore.getPrivate(name)).keyset.primary());
  const created = await generateKeysets(missing, signers);
  return { created, certificates: clusterCertificates([...existing, ...created]) };
}
