import { CA_VALIDITY_MS, clusterKeysetDefinitions, ISSUED_VALIDITY_MS, KeysetDefinition } from './cluster-pki';
import { takeKey } from './key-pool';
import { issueKeypair } from './issue-keypair';
import { Keypair } from './keypair';
import { Keyset } from './keyset';

/** Generates every keyset of a new cluster (see clusterKeysetDefinitions), sorted by name. */
export function generateClusterPki(etcdClusters: string[], now: Date = new Date()): Promise<Keyset[]> {
  return generateKeysets(clusterKeysetDefinitions(etcdClusters), new Map(), now);
}

/**
 * Generates the keysets `defs` describes. Keys are generated in parallel on the thread pool; an issued
 * certificate is made as soon as its signer, either among `defs` or in `signers` (primary keypairs with
 * private keys, by keyset name), is: not after every CA, so the slow RSA key (service-account) delays
 * nothing but itself.
 */
export async function generateKeysets(defs: KeysetDefinition[], signers: Map<string, Keypair>, now: Date = new Date()): Promise<Keyset[]> {
  const keys = new Map(defs.map((d) => [d.name, takeKey(d.algorithm)]));
  const make = (d: KeysetDefinition, issuer?: Keypair) =>
    issueKeypair({ subject: d.subject, usage: d.signer ? 'client' : 'ca', validityMs: d.signer ? ISSUED_VALIDITY_MS : CA_VALIDITY_MS, key: keys.get(d.name), now }, issuer);
  const cas = new Map(defs.filter((d) => !d.signer).map((d) => [d.name, make(d)]));
  // Each is awaited below; a failure must not also surface as an unhandled rejection meanwhile.
  for (const p of cas.values()) p.catch(() => undefined);
  const issued = await Promise.all(
    defs
      .filter((d) => d.signer)
      .map(async (d) => {
        const pending = cas.get(d.signer as string);
        const issuer = pending ? await pending : signers.get(d.signer as string);
        if (!issuer) throw new Error(`keyset ${d.name} needs its signer ${d.signer}, which is missing`);
        return [d.name, await make(d, issuer)] as const;
      }),
  );
  const made = new Map<string, Keypair>(await Promise.all([...cas].map(async ([name, p]) => [name, await p] as const)));
  for (const [name, kp] of issued) made.set(name, kp);
  return defs.map((d) => Keyset.single(d.name, made.get(d.name) as Keypair)).sort((a, b) => a.name.localeCompare(b.name));
}
