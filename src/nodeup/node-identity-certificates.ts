import { generateKeyPairSync } from 'node:crypto';
import * as yaml from 'js-yaml';
import type { NodeupConfig } from '../model/nodeup-config-builder';
import { Keypair } from '../pki/keypair';
import { NODE_CERT_SUBJECTS } from '../node-identity/node-client-certificate';
import { NodeIdentityError } from '../node-identity/node-identity-error';
import { flagFilePath } from './flag-file-path';
import type { NodeCertificate, NodeCertificateRequest } from './node-certificates';
import { stillGood } from './node-certificates';
import { NodeupPkiError } from './nodeup-pki-error';
import { isControlPlaneConfig } from './parse-nodeup-config';
import { RootWriter } from './root-writer';

/** Asks the node-identity service for certificates: name to PEM public key in, name to PEM certificate out. */
export type CertificateRequester = (nodeName: string, publicKeys: Record<string, string>) => Promise<Record<string, string>>;

/** Whether this node gets its client certificates from the node-identity service (a worker whose config names one). */
export function usesNodeIdentityService(config: NodeupConfig): boolean {
  return !isControlPlaneConfig(config) && config.ConfigServer !== undefined;
}

/**
 * On a worker with a ConfigServer: kubelet's certificate (`system:node:<nodeName>`) at its `--kubeconfig` and
 * kube-proxy's at its `--kubeconfig`, each for a key generated here that never leaves the machine. A
 * certificate already in its kubeconfig is kept while it is still good (signed by kubernetes-ca, the right
 * subject, a third of its life left), so a second run asks the service nothing.
 */
export async function obtainNodeIdentityCertificates(config: NodeupConfig, root: string, nodeName: string, request: CertificateRequester, now: Date = new Date()): Promise<NodeCertificate[]> {
  const bundle = config.CAs?.['kubernetes-ca'];
  if (!bundle) throw new NodeupPkiError('CAs.kubernetes-ca: missing; the issued certificates are checked against it');
  const cas = [...bundle.matchAll(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----\n?/g)].map((m, i) => new Keypair(String(i), m[0]));
  const wanted: NodeCertificateRequest[] = [];
  const kubelet = flagFilePath(config, 'kubelet', 'kubeconfig');
  if (!kubelet) throw new NodeupPkiError("ComponentFlags.kubelet: no --kubeconfig to write the node's certificate into");
  wanted.push({ name: 'kubelet', ca: 'kubernetes-ca', subject: NODE_CERT_SUBJECTS.kubelet(nodeName), usage: 'client', kubeconfigPath: kubelet });
  const proxy = config.ComponentFlags['kube-proxy'] !== undefined ? flagFilePath(config, 'kube-proxy', 'kubeconfig') : undefined;
  if (proxy) wanted.push({ name: 'kube-proxy', ca: 'kubernetes-ca', subject: NODE_CERT_SUBJECTS['kube-proxy'](nodeName), usage: 'client', kubeconfigPath: proxy });
  const writer = new RootWriter(root);
  const out: NodeCertificate[] = [];
  const missing = new Map<string, { request: NodeCertificateRequest; privateKeyPem: string; publicKeyPem: string }>();
  for (const r of wanted) {
    const existing = 'kubeconfigPath' in r ? kubeconfigPair(writer.readFile(r.kubeconfigPath)?.data.toString('utf8')) : undefined;
    if (existing && cas.some((ca) => stillGood(existing.cert, existing.key, r, ca, now))) {
      out.push({ request: r, certificatePem: existing.cert, privateKeyPem: existing.key, reused: true });
      continue;
    }
    const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
    missing.set(r.name, { request: r, privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(), publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString() });
  }
  if (missing.size > 0) {
    const certs = await request(nodeName, Object.fromEntries([...missing].map(([name, m]) => [name, m.publicKeyPem])));
    for (const [name, m] of missing) {
      // What the service sent must be for this key, this subject, from kubernetes-ca: else nothing is written.
      if (!cas.some((ca) => stillGood(certs[name], m.privateKeyPem, m.request, ca, now))) {
        throw new NodeIdentityError(`the node-identity service sent a ${name} certificate that is not for this node's key and subject (${m.request.subject.commonName}) from kubernetes-ca, or is not yet valid`);
      }
      out.push({ request: m.request, certificatePem: certs[name], privateKeyPem: m.privateKeyPem, reused: false });
    }
  }
  return out.sort((a, b) => a.request.name.localeCompare(b.request.name));
}

function kubeconfigPair(text: string | undefined): { cert: string; key: string } | undefined {
  if (text === undefined) return undefined;
  try {
    const user = (yaml.load(text) as { users?: Array<{ user?: Record<string, unknown> }> } | undefined)?.users?.[0]?.user;
    const cert = user?.['client-certificate-data'];
    const key = user?.['client-key-data'];
    if (typeof cert !== 'string' || typeof key !== 'string') return undefined;
    return { cert: Buffer.from(cert, 'base64').toString('utf8'), key: Buffer.from(key, 'base64').toString('utf8') };
  } catch {
    return undefined;
  }
}
