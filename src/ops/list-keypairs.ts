import { NotFoundError } from '../errors/not-found-error';
import { ClusterRepository } from '../state/cluster-repository';
import { Keystore } from '../state/keystore';
import type { Vfs } from '../state/vfs/vfs';

/** One key of one keyset, as `get keypairs` shows it (never the private key). */
export interface KeypairRow {
  keyset: string;
  id: string;
  primary: boolean;
  /** e.g. `ECDSA P-256`, `RSA 2048`. */
  algorithm: string;
  subject: string;
  issuer: string;
  /** ISO time the certificate expires. */
  notAfter: string;
  distrusted: boolean;
  /** When the key was distrusted (RFC 3339); absent while trusted. */
  distrustTimestamp?: string;
}

/** Lists the keys of a cluster's keysets (all, or those named), from the certificate-only files. */
export async function listKeypairs(vfs: Vfs, cluster: string, names: string[] = []): Promise<KeypairRow[]> {
  if (!(await new ClusterRepository(vfs).exists(cluster))) throw new NotFoundError(`cluster "${cluster}" not found in state store ${vfs.url}`);
  const keystore = new Keystore(vfs, cluster);
  const all = await keystore.names();
  const unknown = names.filter((n) => !all.includes(n));
  if (unknown.length > 0) throw new NotFoundError(`keyset ${unknown.map((n) => `"${n}"`).join(', ')} not found in cluster "${cluster}"; keysets: ${all.join(', ')}`);
  const rows: KeypairRow[] = [];
  for (const name of names.length > 0 ? [...names].sort() : all) {
    const stored = await keystore.getPublic(name);
    if (!stored) continue;
    for (const k of stored.keyset.keys) {
      const cert = k.certificate;
      rows.push({
        keyset: name,
        id: k.id,
        primary: k.id === stored.keyset.primaryId,
        algorithm: describeKey(cert.publicKey),
        subject: cert.subject.replace(/\n/g, ', '),
        issuer: cert.issuer.replace(/\n/g, ', '),
        notAfter: new Date(cert.validTo).toISOString(),
        distrusted: k.distrustTimestamp !== undefined,
        ...(k.distrustTimestamp !== undefined ? { distrustTimestamp: k.distrustTimestamp } : {}),
      });
    }
  }
  return rows;
}

function describeKey(key: import('node:crypto').KeyObject): string {
  const d = key.asymmetricKeyDetails ?? {};
  if (key.asymmetricKeyType === 'rsa') return `RSA ${d.modulusLength}`;
  if (key.asymmetricKeyType === 'ec') return `ECDSA ${d.namedCurve === 'prime256v1' ? 'P-256' : d.namedCurve === 'secp384r1' ? 'P-384' : d.namedCurve}`;
  return key.asymmetricKeyType ?? 'unknown';
}
