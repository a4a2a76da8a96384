import type { KeyObject } from 'node:crypto';
import { buildCertificate, CertificateSubject } from '../pki/certificate-builder';
import type { Keypair } from '../pki/keypair';
import { newSerial } from '../pki/key-id';

/** The certificates a node may ask the service for, and the subject each gets (kops-controller's names). */
export const NODE_CERT_SUBJECTS: Readonly<Record<string, (nodeName: string) => CertificateSubject>> = {
  kubelet: (nodeName) => ({ commonName: `system:node:${nodeName}`, organization: ['system:nodes'] }),
  'kube-proxy': () => ({ commonName: 'system:kube-proxy' }),
};

const HOUR_MS = 3600 * 1000;
const CLOCK_SKEW_MS = 5 * 60 * 1000;

/**
 * kops-controller's validity for node certificates: 455 days plus up to 30 days, skewed by an FNV-1 32-bit
 * hash of the node name, so the nodes made together do not all renew together while one node's
 * certificates expire together (cmd/kops-controller/pkg/server/server.go).
 */
export function nodeCertificateValidityMs(nodeName: string): number {
  let h = 0x811c9dc5;
  for (const b of Buffer.from(nodeName, 'utf8')) h = (Math.imul(h, 0x01000193) ^ b) >>> 0;
  return (455 * 24 + (h % (30 * 24))) * HOUR_MS;
}

/** Issues a client certificate for a public key the node generated (its private key never leaves the node). */
export function issueNodeClientCertificate(ca: Keypair, publicKey: KeyObject, subject: CertificateSubject, validityMs: number, now: Date = new Date()): string {
  const notAfter = Math.min(now.getTime() + validityMs, Date.parse(ca.certificate.validTo));
  return buildCertificate(
    { subject, serial: newSerial(now), notBefore: new Date(now.getTime() - CLOCK_SKEW_MS), notAfter: new Date(notAfter), publicKey, usage: 'client' },
    ca.signer(),
  );
}

/** The certificates of one node: each of its public keys (by certificate name) issued for its name, in name order. */
export function issueNodeCertificates(ca: Keypair, keys: ReadonlyMap<string, KeyObject>, nodeName: string, now: Date): Record<string, string> {
  const validity = nodeCertificateValidityMs(nodeName);
  const certs: Record<string, string> = {};
  for (const [name, key] of [...keys].sort(([a], [b]) => a.localeCompare(b))) certs[name] = issueNodeClientCertificate(ca, key, NODE_CERT_SUBJECTS[name](nodeName), validity, now);
  return certs;
}
