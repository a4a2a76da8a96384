import type { Keyset } from './keyset';

/** The public side of a cluster's keystore that nodeup configs reference: certificates and primary key ids. */
export interface ClusterCertificates {
  /** Trusted certificates of each keyset, as a PEM bundle, by keyset name. */
  bundles: Record<string, string>;
  /** The primary key id of each keyset, by keyset name. */
  primaryIds: Record<string, string>;
}

/** Collects the certificates and primary ids of keysets (never their private keys). */
export function clusterCertificates(keysets: Keyset[]): ClusterCertificates {
  const sorted = [...keysets].sort((a, b) => a.name.localeCompare(b.name));
  return {
    bundles: Object.fromEntries(sorted.map((k) => [k.name, k.certificateBundle()])),
    primaryIds: Object.fromEntries(sorted.map((k) => [k.name, k.primaryId])),
  };
}
