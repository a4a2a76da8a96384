import { createHash, KeyObject, sign } from 'node:crypto';
import { isIP } from 'node:net';
import { Der } from './der';
import { derChildren, readDer } from './der-reader';

/** What a certificate is for; decides KeyUsage, ExtendedKeyUsage and BasicConstraints. */
export type CertificateUsage = 'ca' | 'client' | 'server' | 'client-server';

/** A certificate subject: Kubernetes reads the user from CN and the groups from O. */
export interface CertificateSubject {
  commonName: string;
  /** Organization entries, in order; Kubernetes treats each as a group. Default: none. */
  organization?: string[];
}

/** Everything needed to build one certificate. */
export interface CertificateSpec {
  subject: CertificateSubject;
  serial: bigint;
  notBefore: Date;
  notAfter: Date;
  /** The certified public key. */
  publicKey: KeyObject;
  usage: CertificateUsage;
  /** subjectAltName DNS names. Default: none. */
  dnsNames?: string[];
  /** subjectAltName IP addresses (v4 or v6). Default: none. */
  ipAddresses?: string[];
}

/** The issuing side: the CA's private key, its exact subject bytes and its key identifier. */
export interface CertificateSigner {
  privateKey: KeyObject;
  /** DER of the issuer's subject Name, copied byte for byte so chain building matches it. */
  subjectDer: Buffer;
  /** The issuer's subjectKeyIdentifier, if it has one; becomes our authorityKeyIdentifier. */
  subjectKeyId?: Buffer;
}

const OID = {
  commonName: '2.5.4.3',
  organization: '2.5.4.10',
  basicConstraints: '2.5.29.19',
  keyUsage: '2.5.29.15',
  extKeyUsage: '2.5.29.37',
  subjectAltName: '2.5.29.17',
  subjectKeyId: '2.5.29.14',
  authorityKeyId: '2.5.29.35',
  serverAuth: '1.3.6.1.5.5.7.3.1',
  clientAuth: '1.3.6.1.5.5.7.3.2',
  ecdsaSha256: '1.2.840.10045.4.3.2',
  ecdsaSha384: '1.2.840.10045.4.3.3',
  rsaSha256: '1.2.840.113549.1.1.11',
};

// KeyUsage bit numbers from RFC 5280 §4.2.1.3.
const KU = { digitalSignature: 0, keyEncipherment: 2, keyCertSign: 5, cRLSign: 6 };

/** Encodes a subject as an X.509 Name: one RDN per Organization entry, then CN. */
export function encodeName(subject: CertificateSubject): Buffer {
  const rdn = (oid: string, value: string) => Der.set(Der.sequence(Der.oid(oid), Der.utf8(value)));
  return Der.sequence(...(subject.organization ?? []).map((o) => rdn(OID.organization, o)), rdn(OID.commonName, subject.commonName));
}

/** The subjectKeyIdentifier of a public key: SHA-1 of the subjectPublicKey bits (RFC 5280 method 1). */
export function subjectKeyId(publicKey: KeyObject): Buffer {
  const spki = readDer(publicKey.export({ type: 'spki', format: 'der' }));
  const bits = derChildren(spki)[1];
  return createHash('sha1').update(bits.content.subarray(1)).digest();
}

/** Builds and signs a certificate; returns it as PEM. Self-signed when `signer` is the subject's own key and name. */
export function buildCertificate(spec: CertificateSpec, signer: CertificateSigner): string {
  const { digest, algorithm } = signatureAlgorithm(signer.privateKey);
  const ski = subjectKeyId(spec.publicKey);
  const extensions = [
    extension(OID.basicConstraints, true, spec.usage === 'ca' ? Der.sequence(Der.boolean(true)) : Der.sequence()),
    extension(OID.keyUsage, true, Der.namedBits(keyUsageBits(spec))),
    ...(spec.usage === 'ca' ? [] : [extension(OID.extKeyUsage, false, Der.sequence(...extKeyUsages(spec.usage).map(Der.oid)))]),
    ...subjectAltName(spec),
    extension(OID.subjectKeyId, false, Der.octetString(ski)),
    ...(signer.subjectKeyId ? [extension(OID.authorityKeyId, false, Der.sequence(Der.implicitPrimitive(0, signer.subjectKeyId)))] : []),
  ];
  const tbs = Der.sequence(
    Der.explicit(0, Der.integer(2n)),
    Der.integer(spec.serial),
    algorithm,
    signer.subjectDer,
    Der.sequence(Der.time(spec.notBefore), Der.time(spec.notAfter)),
    encodeName(spec.subject),
    spec.publicKey.export({ type: 'spki', format: 'der' }),
    Der.explicit(3, Der.sequence(...extensions)),
  );
  const signature = sign(digest, tbs, signer.privateKey);
  const der = Der.sequence(tbs, algorithm, Der.bitString(signature));
  return toPem(der);
}

/** PEM-armours a DER certificate. */
export function toPem(der: Buffer): string {
  const b64 = der.toString('base64').replace(/.{64}/g, '$&\n').replace(/\n$/, '');
  return `-----BEGIN CERTIFICATE-----\n${b64}\n-----END CERTIFICATE-----\n`;
}

function extension(oid: string, critical: boolean, value: Buffer): Buffer {
  return Der.sequence(Der.oid(oid), ...(critical ? [Der.boolean(true)] : []), Der.octetString(value));
}

function keyUsageBits(spec: CertificateSpec): number[] {
  if (spec.usage === 'ca') return [KU.digitalSignature, KU.keyCertSign, KU.cRLSign];
  // RSA key transport needs keyEncipherment; ECDSA keys only sign.
  return spec.publicKey.asymmetricKeyType === 'rsa' ? [KU.digitalSignature, KU.keyEncipherment] : [KU.digitalSignature];
}

function extKeyUsages(usage: CertificateUsage): string[] {
  if (usage === 'client') return [OID.clientAuth];
  if (usage === 'server') return [OID.serverAuth];
  return [OID.serverAuth, OID.clientAuth];
}

function subjectAltName(spec: CertificateSpec): Buffer[] {
  for (const n of spec.dnsNames ?? []) {
    // dNSName is an IA5String: internationalised names must come as punycode (xn--…).
    if (!/^[\x21-\x7e]+$/.test(n)) throw new RangeError(`not a valid DNS name for a certificate: ${JSON.stringify(n)}`);
  }
  const names = [...(spec.dnsNames ?? []).map((n) => Der.implicitPrimitive(2, Buffer.from(n, 'ascii'))), ...(spec.ipAddresses ?? []).map((ip) => Der.implicitPrimitive(7, ipBytes(ip)))];
  return names.length ? [extension(OID.subjectAltName, false, Der.sequence(...names))] : [];
}

function ipBytes(ip: string): Buffer {
  const v = isIP(ip);
  if (v === 4) return Buffer.from(ip.split('.').map(Number));
  if (v !== 6) throw new RangeError(`not an IP address: ${ip}`);
  // An embedded IPv4 tail (::ffff:192.0.2.1) is two 16-bit groups.
  const v4 = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(ip);
  if (v4) {
    const [a, b, c, d] = v4.slice(1).map(Number);
    ip = `${ip.slice(0, v4.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail = ''] = ip.includes('::') ? ip.split('::') : [ip, undefined];
  const h = head ? head.split(':') : [];
  const t = tail ? tail.split(':') : [];
  const groups = ip.includes('::') ? [...h, ...Array(8 - h.length - t.length).fill('0'), ...t] : h;
  return Buffer.from(groups.flatMap((g: string) => [parseInt(g, 16) >> 8, parseInt(g, 16) & 0xff]));
}

/** The digest and AlgorithmIdentifier for a signing key; kforge signs with RSA or ECDSA P-256/P-384. */
function signatureAlgorithm(key: KeyObject): { digest: string; algorithm: Buffer } {
  if (key.asymmetricKeyType === 'rsa') return { digest: 'sha256', algorithm: Der.sequence(Der.oid(OID.rsaSha256), Der.null()) };
  if (key.asymmetricKeyType === 'ec') {
    const curve = key.asymmetricKeyDetails?.namedCurve;
    if (curve === 'prime256v1') return { digest: 'sha256', algorithm: Der.sequence(Der.oid(OID.ecdsaSha256)) };
    if (curve === 'secp384r1') return { digest: 'sha384', algorithm: Der.sequence(Der.oid(OID.ecdsaSha384)) };
  }
  throw new RangeError(`unsupported signing key ${key.asymmetricKeyType ?? 'unknown'} ${key.asymmetricKeyDetails?.namedCurve ?? ''}`.trim());
}
