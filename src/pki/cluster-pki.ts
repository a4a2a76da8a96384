import type { CertificateSubject } from './certificate-builder';
import type { KeyAlgorithm } from './generate-key';

const YEAR_MS = 365 * 24 * 3600 * 1000;

/** Validity of kforge-generated CAs: ten years, as kops. */
export const CA_VALIDITY_MS = 10 * YEAR_MS;
/** Validity of client certificates stored in the keystore (until rotation exists; see docs/pki.md). */
export const ISSUED_VALIDITY_MS = 5 * YEAR_MS;
/** The CA that signs Kubernetes API clients and the API server's serving certificate. */
export const KUBERNETES_CA = 'kubernetes-ca';
/** The keypair that signs service-account tokens. */
export const SERVICE_ACCOUNT = 'service-account';

/** A keyset kforge generates for every cluster. */
export interface KeysetDefinition {
  name: string;
  subject: CertificateSubject;
  /** The CA that signs it; undefined for a CA (self-signed). */
  signer?: string;
  algorithm: KeyAlgorithm;
}

/**
 * The CAs of a cluster: kops's names; one etcd peer and one etcd-manager CA per etcd cluster;
 * kops-controller-ca signs only the node-identity service's serving certificate (docs/node-identity.md).
 */
export function clusterCaNames(etcdClusters: string[]): string[] {
  return [
    KUBERNETES_CA,
    'apiserver-aggregator-ca',
    'etcd-clients-ca',
    'kops-controller-ca',
    ...etcdClusters.flatMap((e) => [`etcd-manager-ca-${e}`, `etcd-peers-ca-${e}`]),
  ].sort();
}

/**
 * Every keyset a new cluster gets: the CAs, the service-account signer (RSA, because many OIDC consumers
 * only accept RS256 tokens), and the client certificates of the node and control-plane components, with
 * the user names and groups Kubernetes's default RBAC bindings expect.
 */
export function clusterKeysetDefinitions(etcdClusters: string[]): KeysetDefinition[] {
  const cas: KeysetDefinition[] = clusterCaNames(etcdClusters).map((name) => ({ name, subject: { commonName: name }, algorithm: 'ecdsa-p256' }));
  return [
    ...cas,
    { name: SERVICE_ACCOUNT, subject: { commonName: SERVICE_ACCOUNT }, algorithm: 'rsa-2048' },
    // Nodes join with this shared identity and then request their own system:node:<name> certificate
    // through a CSR, so the Node authorizer and NodeRestriction see one identity per node.
    { name: 'kubelet-bootstrap', subject: { commonName: 'kubelet-bootstrap', organization: ['system:bootstrappers'] }, signer: KUBERNETES_CA, algorithm: 'ecdsa-p256' },
    { name: 'kube-proxy', subject: { commonName: 'system:kube-proxy' }, signer: KUBERNETES_CA, algorithm: 'ecdsa-p256' },
    { name: 'kube-controller-manager', subject: { commonName: 'system:kube-controller-manager' }, signer: KUBERNETES_CA, algorithm: 'ecdsa-p256' },
    { name: 'kube-scheduler', subject: { commonName: 'system:kube-scheduler' }, signer: KUBERNETES_CA, algorithm: 'ecdsa-p256' },
  ];
}

/** The admin user's subject for `export kubeconfig --admin`: kops's `kubecfg-<user>` in system:masters. */
export function adminSubject(user: string): CertificateSubject {
  return { commonName: `kubecfg-${user}`, organization: ['system:masters'] };
}
