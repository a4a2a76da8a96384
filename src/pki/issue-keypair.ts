import type { KeyObject } from 'node:crypto';
import { buildCertificate, CertificateSubject, CertificateUsage, encodeName, subjectKeyId } from './certificate-builder';
import { generateKey, KeyAlgorithm } from './generate-key';
import { Keypair } from './keypair';
import { newSerial } from './key-id';

/** A certificate to issue: who, for what, how long. */
export interface IssueRequest {
  subject: CertificateSubject;
  usage: CertificateUsage;
  /** Lifetime in milliseconds from now. */
  validityMs: number;
  dnsNames?: string[];
  ipAddresses?: string[];
  /** Default: ecdsa-p256. */
  algorithm?: KeyAlgorithm;
  /** Use this key instead of generating one. Default: a new key. */
  key?: KeyObject | Promise<KeyObject>;
  /** Default: the current time. */
  now?: Date;
}

// Certificates start a little in the past so that a node whose clock lags can use them at once.
const CLOCK_SKEW_MS = 5 * 60 * 1000;

/** Issues a new keypair signed by `issuer`; with no issuer the certificate is self-signed (a CA root). */
export async function issueKeypair(request: IssueRequest, issuer?: Keypair): Promise<Keypair> {
  const key = await (request.key ?? generateKey(request.algorithm ?? 'ecdsa-p256'));
  const now = request.now ?? new Date();
  const serial = newSerial(now);
  const publicKey = (await import('node:crypto')).createPublicKey(key);
  const signer = issuer
    ? issuer.signer()
    : { privateKey: key, subjectDer: encodeName(request.subject), subjectKeyId: subjectKeyId(publicKey) };
  // A certificate cannot usefully outlive its issuer (an imported CA may expire before our default).
  const wanted = now.getTime() + request.validityMs;
  const notAfter = new Date(issuer ? Math.min(wanted, Date.parse(issuer.certificate.validTo)) : wanted);
  const pem = buildCertificate(
    {
      subject: request.subject,
      serial,
      notBefore: new Date(now.getTime() - CLOCK_SKEW_MS),
      notAfter,
      publicKey,
      usage: request.usage,
      dnsNames: request.dnsNames,
      ipAddresses: request.ipAddresses,
    },
    signer,
  );
  return Keypair.fromKey(serial.toString(), pem, key);
}
