import type { NodeupConfig } from '../model/nodeup-config-builder';
import type { NodeFile } from './node-file';
import { NodeupConfigError } from './nodeup-config-error';

/** The cluster CA bundle every node trusts (kubelet's `--client-ca-file`, the kubeconfigs' CA). */
const CLUSTER_CA_PATH = '/srv/kubernetes/ca.crt';

/** kube-controller-manager's --cluster-signing-cert-file: the certificate of the key it signs with. */
const SIGNING_CA_PATH = '/srv/kubernetes/kube-controller-manager/ca.crt';

// CA certificate files the rendered flags name, and the keyset whose certificates they hold.
const CA_FILES: Record<string, string> = {
  [CLUSTER_CA_PATH]: 'kubernetes-ca',
  '/srv/kubernetes/kube-apiserver/etcd-ca.crt': 'etcd-clients-ca',
  '/srv/kubernetes/kube-apiserver/apiserver-aggregator-ca.crt': 'apiserver-aggregator-ca',
  [SIGNING_CA_PATH]: 'kubernetes-ca',
};

/**
 * The CA certificate bundles of the node: `/srv/kubernetes/ca.crt` always, and each other CA file a
 * component's flags name (on the control plane: etcd client CA, aggregator CA, the signing CA's
 * certificate). Certificates only: a bundle holding anything but certificates is refused.
 */
export function caFiles(config: NodeupConfig): NodeFile[] {
  const referenced = new Set(Object.values(config.ComponentFlags).flat().map((a) => a.slice(a.indexOf('=') + 1)));
  const out: NodeFile[] = [];
  for (const [path, keyset] of Object.entries(CA_FILES)) {
    if (path !== CLUSTER_CA_PATH && !referenced.has(path)) continue;
    const pem = config.CAs?.[keyset];
    if (pem === undefined) throw new NodeupConfigError(`CAs.${keyset}: missing; ${path} is written from it (is this a config written by "update cluster"?)`);
    const bundle = certificatesOnly(pem, keyset);
    // The controller manager signs with one key: its certificate file holds that key's certificate only (the primary, first in the bundle).
    out.push({ path, mode: 0o644, content: path === SIGNING_CA_PATH ? `${bundle.slice(0, bundle.indexOf('-----END CERTIFICATE-----') + 25)}\n` : bundle });
  }
  return out;
}

function certificatesOnly(pem: string, keyset: string): string {
  const certs = pem.match(/-----BEGIN CERTIFICATE-----\r?\n[A-Za-z0-9+/=\r\n]+-----END CERTIFICATE-----/g) ?? [];
  const rest = certs.reduce((text, c) => text.replace(c, ''), pem).trim();
  if (certs.length === 0 || rest !== '') throw new NodeupConfigError(`CAs.${keyset}: must hold PEM certificates and nothing else`);
  return `${certs.join('\n')}\n`;
}
