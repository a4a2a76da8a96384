import type { NodeupConfig } from '../model/nodeup-config-builder';
import type { NodeCertificate } from './node-certificates';
import type { NodeFile } from './node-file';
import type { NodeKeysets } from './node-keysets';
import { nodeKubeconfig } from './node-kubeconfig';
import { NodeupConfigError } from './nodeup-config-error';
import { NodeupPkiError } from './nodeup-pki-error';
import { flagFilePath } from './flag-file-path';
import { isControlPlaneConfig } from './parse-nodeup-config';

/** What renderNodeFiles needs to write the node's keys, certificates and kubeconfigs; fetched and issued beforehand. */
export interface NodePki {
  keysets: NodeKeysets;
  certificates: NodeCertificate[];
}

// Kubeconfig flags of each component, and the keyset whose client certificate the kubeconfig carries.
const KUBECONFIG_FLAGS: Array<{ component: string; flags: string[]; keyset: string }> = [
  { component: 'kube-controller-manager', flags: ['kubeconfig', 'authentication-kubeconfig', 'authorization-kubeconfig'], keyset: 'kube-controller-manager' },
  { component: 'kube-scheduler', flags: ['kubeconfig', 'authentication-kubeconfig', 'authorization-kubeconfig'], keyset: 'kube-scheduler' },
  { component: 'kube-proxy', flags: ['kubeconfig'], keyset: 'kube-proxy' },
];

/**
 * Pure: the node's PKI files at the paths the rendered flags name. Every node: kubelet's identity, and
 * kube-proxy's kubeconfig. kubelet: with `--bootstrap-kubeconfig` (workers by default), the shared
 * `kubelet-bootstrap` identity there and nothing at `--kubeconfig`, which kubelet writes itself once its CSR
 * is signed; without it, on the control plane, the `system:node:<name>` certificate issued on the node,
 * embedded in `--kubeconfig`. The control plane also: kube-apiserver's certificates and keys, the
 * service-account public keys and signing key, kube-controller-manager's signing CA key, and the controller
 * manager's and scheduler's kubeconfigs. Private keys and kubeconfigs are 0600, certificates 0644.
 */
export function pkiFiles(config: NodeupConfig, pki: NodePki): NodeFile[] {
  const files = new Map<string, NodeFile>();
  const add = (path: string, content: string, mode: number, what: string) => {
    const prior = files.get(path);
    if (prior && prior.content !== content) throw new NodeupConfigError(`${path}: named by two flags for different contents (${what}); fix the component flags`);
    files.set(path, { path, mode, content });
  };
  const keypair = (name: string) => {
    const k = pki.keysets[name];
    if (!k) throw new NodeupPkiError(`keyset "${name}" was not read from the state store`);
    return k;
  };
  const caBundle = config.CAs?.['kubernetes-ca'];
  if (!caBundle) throw new NodeupConfigError('CAs.kubernetes-ca: missing; the kubeconfigs trust it');
  const cp = isControlPlaneConfig(config);
  const securePort = Number((config.APIServerConfig?.KubeAPIServer as { securePort?: number } | undefined)?.securePort ?? 443);
  // On the control plane every component talks to its own API server; elsewhere to the API's internal name.
  const server = cp ? `https://127.0.0.1${securePort === 443 ? '' : `:${securePort}`}` : `https://${config.APIInternalName}`;

  // A worker served by the node-identity service holds no shared key: its kubelet and kube-proxy
  // certificates were issued for keys made on the machine (node-identity-certificates.ts, below).
  const fromService = !cp && config.ConfigServer !== undefined;
  const bootstrapPath = flagFilePath(config, 'kubelet', 'bootstrap-kubeconfig');
  if (fromService) {
    // kubelet uses --kubeconfig while its certificate is good; nothing is written at --bootstrap-kubeconfig.
  } else if (bootstrapPath) add(bootstrapPath, nodeKubeconfig('kubelet-bootstrap', server, caBundle, keypair('kubelet-bootstrap').use), 0o600, 'kubelet --bootstrap-kubeconfig');
  // A worker cannot issue itself a node certificate (it holds no CA key), and the bootstrap identity at
  // --kubeconfig could never register the node, so a worker without the bootstrap flag is refused.
  else if (!cp && flagFilePath(config, 'kubelet', 'kubeconfig')) {
    throw new NodeupConfigError(
      'ComponentFlags.kubelet: a worker\'s kubelet needs --bootstrap-kubeconfig to request its node certificate; run "kforge update cluster --yes" to rewrite the config, and do not set spec.kubelet.bootstrapKubeconfig to an empty value',
    );
  }
  for (const k of KUBECONFIG_FLAGS) {
    if (fromService && k.component === 'kube-proxy') continue;
    for (const f of k.flags) {
      const path = flagFilePath(config, k.component, f);
      if (path) add(path, nodeKubeconfig(k.keyset, server, caBundle, keypair(k.keyset).use), 0o600, `${k.component} --${f}`);
    }
  }
  for (const c of pki.certificates) {
    if ('kubeconfigPath' in c.request) {
      add(c.request.kubeconfigPath, nodeKubeconfig(c.request.kubeconfigUser ?? (c.request.name === 'kube-proxy' ? 'kube-proxy' : 'kubelet'), server, caBundle, c), 0o600, c.request.name);
      continue;
    }
    add(c.request.certPath, c.certificatePem, 0o644, c.request.name);
    add(c.request.keyPath, c.privateKeyPem, 0o600, c.request.name);
  }
  if (!cp) return [...files.values()];

  const sa = keypair('service-account');
  // Every trusted service-account key verifies tokens (rotation); only the key in use signs them.
  const publicKeys = sa.trusted.map((k) => k.certificate.publicKey.export({ type: 'spki', format: 'pem' }).toString()).join('');
  const saPub = flagFilePath(config, 'kube-apiserver', 'service-account-key-file');
  if (saPub) add(saPub, publicKeys, 0o644, 'kube-apiserver --service-account-key-file');
  for (const [component, flag] of [['kube-apiserver', 'service-account-signing-key-file'], ['kube-controller-manager', 'service-account-private-key-file']] as const) {
    const path = flagFilePath(config, component, flag);
    if (path) add(path, sa.use.privateKeyPem as string, 0o600, flag);
  }
  const signingKey = flagFilePath(config, 'kube-controller-manager', 'cluster-signing-key-file');
  if (signingKey) add(signingKey, keypair('kubernetes-ca').use.privateKeyPem as string, 0o600, 'kube-controller-manager --cluster-signing-key-file');
  return [...files.values()];
}
