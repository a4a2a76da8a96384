import type { ClusterSpec } from '../../api/types';
import type { ExpandContext } from '../expand-context';
import { etcdClientUrl } from './etcd';
import { componentImage } from './images';
import { serviceAccountIssuer } from './service-account-issuer';
import { isKubernetesGTE } from '../version-gate';

/**
 * Admission plugins kube-apiserver enables: kops's list for the Kubernetes versions kforge supports, in
 * kops's (sorted) order, as its completed specs at 1.34 and 1.35 show (test/fixtures/conformance).
 */
export const DEFAULT_ADMISSION_PLUGINS = [
  'DefaultStorageClass',
  'DefaultTolerationSeconds',
  'LimitRanger',
  'MutatingAdmissionWebhook',
  'NamespaceLifecycle',
  'NodeRestriction',
  'ResourceQuota',
  'RuntimeClass',
  'ServiceAccount',
  'ValidatingAdmissionPolicy',
  'ValidatingAdmissionWebhook',
];

const PKI = '/srv/kubernetes/kube-apiserver';

/** kube-apiserver settings: etcd endpoints, service range, auth, service-account issuer, TLS files. */
export function expandKubeAPIServer(spec: ClusterSpec, ctx: ExpandContext): void {
  const c = (spec.kubeAPIServer ??= {});
  const etcd = spec.etcdClusters ?? [];
  const main = etcd.find((e) => e.name === 'main');
  c.image ??= componentImage('kube-apiserver', ctx.kubernetesVersion);
  c.logLevel ??= 2;
  // kube-apiserver lost --cloud-provider in 1.33 (kubernetes/kubernetes#130162); kops stops setting it there (kops#17270).
  if (!isKubernetesGTE(ctx.kubernetesVersion, '1.33')) c.cloudProvider ??= 'external';
  c.securePort ??= 443;
  c.bindAddress ??= '0.0.0.0';
  c.allowPrivileged ??= true;
  c.anonymousAuth ??= false;
  // With metrics-server, the aggregator reaches its endpoints directly so that requests are load-balanced (kops: pkg/model/components/apiserver.go).
  if (spec.metricsServer?.enabled === true) c.enableAggregatorRouting ??= true;
  c.apiServerCount ??= main?.etcdMembers?.length ?? 1;
  c.etcdServers ??= main ? [etcdClientUrl('main', 0)] : [];
  const overrides = etcd.filter((e) => e.name !== 'main').map((e, i) => `/${e.name}#${etcdClientUrl(e.name, i + 1)}`);
  if (overrides.length > 0) c.etcdServersOverrides ??= overrides;
  c.etcdCaFile ??= `${PKI}/etcd-ca.crt`;
  c.etcdCertFile ??= `${PKI}/etcd-client.crt`;
  c.etcdKeyFile ??= `${PKI}/etcd-client.key`;
  c.storageBackend ??= 'etcd3';
  c.serviceClusterIPRange ??= spec.serviceClusterIPRange;
  c.authorizationMode ??= spec.authorization?.alwaysAllow ? 'AlwaysAllow' : 'Node,RBAC';
  c.enableAdmissionPlugins ??= [...DEFAULT_ADMISSION_PLUGINS];
  c.serviceAccountIssuer ??= serviceAccountIssuer(spec, ctx);
  if (c.serviceAccountIssuer) c.serviceAccountJWKSURI ??= `${c.serviceAccountIssuer}/openid/v1/jwks`;
  c.apiAudiences ??= ['kubernetes.svc.default'];
  c.serviceAccountKeyFile ??= [`${PKI}/service-account.pub`];
  c.serviceAccountSigningKeyFile ??= `${PKI}/service-account.key`;
  c.clientCAFile ??= '/srv/kubernetes/ca.crt';
  c.tlsCertFile ??= `${PKI}/server.crt`;
  c.tlsPrivateKeyFile ??= `${PKI}/server.key`;
  c.kubeletClientCertificate ??= `${PKI}/kubelet-api.crt`;
  c.kubeletClientKey ??= `${PKI}/kubelet-api.key`;
  c.kubeletPreferredAddressTypes ??= ['InternalIP', 'Hostname', 'ExternalIP'];
  c.requestheaderClientCAFile ??= `${PKI}/apiserver-aggregator-ca.crt`;
  c.requestheaderAllowedNames ??= ['aggregator'];
  c.requestheaderUsernameHeaders ??= ['X-Remote-User'];
  c.requestheaderGroupHeaders ??= ['X-Remote-Group'];
  c.requestheaderExtraHeaderPrefixes ??= ['X-Remote-Extra-'];
  c.proxyClientCertFile ??= `${PKI}/apiserver-aggregator.crt`;
  c.proxyClientKeyFile ??= `${PKI}/apiserver-aggregator.key`;
}
