import { createPrivateKey, X509Certificate } from 'node:crypto';
import * as yaml from 'js-yaml';
import type { NodeupConfig } from '../model/nodeup-config-builder';
import type { CertificateSubject, CertificateUsage } from '../pki/certificate-builder';
import { ISSUED_VALIDITY_MS } from '../pki/cluster-pki';
import { issueKeypair } from '../pki/issue-keypair';
import type { Keypair } from '../pki/keypair';
import { flagFilePath } from './flag-file-path';
import type { NodeKeysets } from './node-keysets';
import { NodeupPkiError } from './nodeup-pki-error';
import { isControlPlaneConfig } from './parse-nodeup-config';
import { RootWriter } from './root-writer';

/** Where an issued certificate goes: a certificate file and a key file, or both embedded in a kubeconfig (kubelet's, or another `kubeconfigUser`'s). */
export type NodeCertificateTarget = { certPath: string; keyPath: string } | { kubeconfigPath: string; kubeconfigUser?: string };

/** The kubeconfig protokube applies the bootstrap channel with (kops: /var/lib/kops/kubeconfig, nodeup's `kops` user). */
export const ADDONS_APPLIER_KUBECONFIG = '/var/lib/kforge/kubeconfig';

/** A certificate a node issues itself from a CA of the keystore, and where the flags want it. */
export type NodeCertificateRequest = NodeCertificateTarget & {
  /** Short name for messages, e.g. `kube-apiserver serving`. */
  name: string;
  /** The keyset whose key signs it. */
  ca: string;
  subject: CertificateSubject;
  usage: CertificateUsage;
  dnsNames?: string[];
  ipAddresses?: string[];
};

/** A certificate ready to be written: reused from disk or newly issued with a key generated here. */
export interface NodeCertificate {
  request: NodeCertificateRequest;
  certificatePem: string;
  privateKeyPem: string;
  /** True when the files on disk were still good and are kept. */
  reused: boolean;
}

// The kube-apiserver flags naming a certificate and its key, and what each certificate is (kops's nodeup).
const APISERVER_CERTIFICATES: Array<{ cert: string; key: string; name: string; ca: string; subject: CertificateSubject; usage: CertificateUsage; serving?: true }> = [
  { cert: 'tls-cert-file', key: 'tls-private-key-file', name: 'kube-apiserver serving', ca: 'kubernetes-ca', subject: { commonName: 'kubernetes-master' }, usage: 'server', serving: true },
  // kube-apiserver's client identity towards kubelets; kops's name, which RBAC binds to system:kubelet-api-admin.
  { cert: 'kubelet-client-certificate', key: 'kubelet-client-key', name: 'kube-apiserver kubelet client', ca: 'kubernetes-ca', subject: { commonName: 'kubelet-api' }, usage: 'client' },
  { cert: 'etcd-certfile', key: 'etcd-keyfile', name: 'kube-apiserver etcd client', ca: 'etcd-clients-ca', subject: { commonName: 'kube-apiserver' }, usage: 'client' },
  // The front proxy's client; --requestheader-allowed-names=aggregator admits exactly this CN.
  { cert: 'proxy-client-cert-file', key: 'proxy-client-key-file', name: 'aggregator proxy client', ca: 'apiserver-aggregator-ca', subject: { commonName: 'aggregator' }, usage: 'client' },
];

/** What a certificate must have left of its life to be kept: a third, as kops renews well before expiry. */
const MIN_REMAINING_FRACTION = 1 / 3;

/**
 * The certificates a control-plane node issues: kube-apiserver's, at the paths its rendered flags name, and
 * kubelet's client certificate for `system:node:<nodeName>` (group `system:nodes`, what the Node authorizer
 * admits) embedded in its `--kubeconfig`, unless kubelet bootstraps through `--bootstrap-kubeconfig`. None
 * on other nodes: a worker's kubelet gets its certificate through a CSR.
 */
export function nodeCertificateRequests(config: NodeupConfig, nodeName: string): NodeCertificateRequest[] {
  if (!isControlPlaneConfig(config)) return [];
  const out: NodeCertificateRequest[] = [];
  for (const c of APISERVER_CERTIFICATES) {
    const certPath = flagFilePath(config, 'kube-apiserver', c.cert);
    const keyPath = flagFilePath(config, 'kube-apiserver', c.key);
    if (!certPath || !keyPath) continue;
    const sans = c.serving ? config.APIServerConfig?.ServingSANs : undefined;
    if (c.serving && !sans) throw new NodeupPkiError('APIServerConfig.ServingSANs: missing from the control-plane nodeup config; run "kforge update cluster --yes" to rewrite it');
    out.push({ name: c.name, ca: c.ca, subject: c.subject, usage: c.usage, dnsNames: sans?.dnsNames, ipAddresses: sans?.ipAddresses, certPath, keyPath });
  }
  const kubeconfigPath = flagFilePath(config, 'kubelet', 'kubeconfig');
  // The control-plane kubelet starts the static pods before any API server could sign a CSR, so its identity is issued here.
  if (kubeconfigPath && !flagFilePath(config, 'kubelet', 'bootstrap-kubeconfig')) {
    out.push({ name: 'kubelet client', ca: 'kubernetes-ca', subject: { commonName: `system:node:${nodeName}`, organization: ['system:nodes'] }, usage: 'client', kubeconfigPath });
  }
  // protokube's identity for applying the bootstrap channel, where it runs: kops's ChannelsBuilder issues
  // the same on each control-plane machine (CN kops, group system:masters), for the local API server.
  if (config.InstanceGroupRole === 'ControlPlane') {
    out.push({ name: 'addons applier client', ca: 'kubernetes-ca', subject: { commonName: 'kforge', organization: ['system:masters'] }, usage: 'client', kubeconfigPath: ADDONS_APPLIER_KUBECONFIG, kubeconfigUser: 'kforge' });
  }
  return out;
}

/**
 * Issues, under `root`, the node's own certificates from the keystore's CAs, each with a key generated
 * here. A certificate already on disk is kept when its key matches it, it is signed by the CA key in use,
 * has the wanted subject, SANs and usage, and more than a third of its life left; otherwise it is
 * re-issued with a new key. Keeping it is what makes a second run change nothing. `nodeName` is kubelet's
 * (`kubeletNodeName`), read by the caller so this stays free of the machine's identity.
 */
export async function issueNodeCertificates(config: NodeupConfig, keysets: NodeKeysets, root: string, nodeName: string, now: Date = new Date()): Promise<NodeCertificate[]> {
  return Promise.all(
    nodeCertificateRequests(config, nodeName).map(async (request) => {
      const ca = keysets[request.ca]?.use;
      if (!ca) throw new NodeupPkiError(`keyset "${request.ca}" was not read; it signs the ${request.name} certificate`);
      const existing = readPair(root, request);
      if (existing && stillGood(existing.cert, existing.key, request, ca, now)) return { request, certificatePem: existing.cert, privateKeyPem: existing.key, reused: true };
      const issued = await issueKeypair({ subject: request.subject, usage: request.usage, validityMs: ISSUED_VALIDITY_MS, dnsNames: request.dnsNames, ipAddresses: request.ipAddresses, now }, ca);
      return { request, certificatePem: issued.certificatePem, privateKeyPem: issued.privateKeyPem as string, reused: false };
    }),
  );
}

function readPair(root: string, request: NodeCertificateRequest): { cert: string; key: string } | undefined {
  // Read through the RootWriter: a symlink out of the root fails here, before any key is issued.
  const writer = new RootWriter(root);
  const read = (p: string) => writer.readFile(p)?.data.toString('utf8');
  if ('kubeconfigPath' in request) {
    const text = read(request.kubeconfigPath);
    try {
      return text === undefined ? undefined : kubeconfigPair(text);
    } catch {
      return undefined;
    }
  }
  const cert = read(request.certPath);
  const key = read(request.keyPath);
  return cert === undefined || key === undefined ? undefined : { cert, key };
}

/** The client certificate and key embedded in a kubeconfig nodeup wrote; undefined for anything else. */
function kubeconfigPair(text: string): { cert: string; key: string } | undefined {
  const doc = yaml.load(text) as { users?: Array<{ user?: Record<string, unknown> }> } | undefined;
  const user = doc?.users?.[0]?.user;
  const cert = user?.['client-certificate-data'];
  const key = user?.['client-key-data'];
  if (typeof cert !== 'string' || typeof key !== 'string') return undefined;
  return { cert: Buffer.from(cert, 'base64').toString('utf8'), key: Buffer.from(key, 'base64').toString('utf8') };
}

/** Whether a certificate and key on disk may be kept (see issueNodeCertificates). Exported for tests. */
export function stillGood(certPem: string, keyPem: string, request: NodeCertificateRequest, ca: Keypair, now: Date): boolean {
  let cert: X509Certificate;
  try {
    cert = new X509Certificate(certPem);
    if (!cert.checkPrivateKey(createPrivateKey(keyPem))) return false;
  } catch {
    return false;
  }
  if (!cert.checkIssued(ca.certificate) || !cert.verify(ca.certificate.publicKey)) return false;
  const subject = [...(request.subject.organization ?? []).map((o) => `O=${o}`), `CN=${request.subject.commonName}`].join('\n');
  if (cert.subject !== subject) return false;
  const want = sanSet([...(request.dnsNames ?? []).map((d) => `DNS:${d}`), ...(request.ipAddresses ?? []).map((ip) => `IP Address:${ip}`)]);
  const have = sanSet(cert.subjectAltName ? cert.subjectAltName.split(', ') : []);
  if (want.length !== have.length || want.some((s, i) => s !== have[i])) return false;
  const usage = request.usage === 'server' ? '1.3.6.1.5.5.7.3.1' : '1.3.6.1.5.5.7.3.2';
  if (!(cert.keyUsage ?? []).includes(usage)) return false;
  const from = Date.parse(cert.validFrom);
  const to = Date.parse(cert.validTo);
  return from <= now.getTime() && to - now.getTime() > (to - from) * MIN_REMAINING_FRACTION;
}

/** SAN entries in one canonical, sorted form (IPv6 addresses written the way URL parsing writes them). */
function sanSet(entries: string[]): string[] {
  return entries
    .map((e) => {
      const ip = /^IP Address:(.*)$/.exec(e)?.[1];
      if (ip === undefined) return e;
      return `IP:${ip.includes(':') ? new URL(`http://[${ip}]/`).hostname : ip}`;
    })
    .sort();
}
