import images from '../../expand/assets/addon-images/metrics-server.json';
import { remapImage } from '../../expand/components/images';
import type { AddonBuilder, KubeObject } from './addon';

const NAME = 'metrics-server';
const NS = 'kube-system';
const LABELS = { 'k8s-app': NAME };
const RBAC = 'rbac.authorization.k8s.io/v1';
const SUBJECTS = [{ kind: 'ServiceAccount', name: NAME, namespace: NS }];

/** A (Cluster)RoleBinding of metrics-server's service account. */
function binding(kind: 'RoleBinding' | 'ClusterRoleBinding', name: string, roleKind: 'Role' | 'ClusterRole', role: string): KubeObject {
  return { apiVersion: RBAC, kind, metadata: { labels: { ...LABELS }, name, ...(kind === 'RoleBinding' ? { namespace: NS } : {}) }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: roleKind, name: role }, subjects: SUBJECTS.map((s) => ({ ...s })) };
}

/** A topology spread constraint over metrics-server's pods. */
function spread(topologyKey: string, whenUnsatisfiable: string): Record<string, unknown> {
  return { maxSkew: 1, topologyKey, whenUnsatisfiable, labelSelector: { matchLabels: { ...LABELS } } };
}

/** An HTTPS probe on metrics-server's port. */
function probe(path: string, initialDelaySeconds?: number): Record<string, unknown> {
  return { failureThreshold: 3, httpGet: { path, port: 'https', scheme: 'HTTPS' }, ...(initialDelaySeconds ? { initialDelaySeconds } : {}), periodSeconds: 10 };
}

/**
 * kops's metrics-server addon (`metrics-server.addons.k8s.io`, id `k8s-1.11`) when `spec.metricsServer.enabled`,
 * in kops's default insecure mode (kubelet TLS not verified, a self-signed serving certificate that the
 * APIService skips verifying); the secure mode needs cert-manager and is refused at validation. Source: kops's
 * upup/models/cloudup/resources/addons/metrics-server.addons.k8s.io/k8s-1.11.yaml.template @ 268927e.
 */
export const metricsServerAddon: AddonBuilder = ({ cluster }) => {
  const m = cluster.spec.metricsServer;
  if (m?.enabled !== true) return [];
  const table = images[NAME];
  const image = m.image ?? remapImage(`${table.image}:${table.tag}`, cluster.spec.assets?.containerRegistry);
  // Outside AWS a node's hostname may not resolve in the cluster, so kops reaches kubelets by their internal IP.
  const addressType = cluster.spec.cloudProvider === 'aws' ? 'Hostname' : 'InternalIP';
  const objects: KubeObject[] = [
    { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { labels: { ...LABELS }, name: NAME, namespace: NS } },
    {
      apiVersion: RBAC,
      kind: 'ClusterRole',
      metadata: { labels: { ...LABELS, 'rbac.authorization.k8s.io/aggregate-to-admin': 'true', 'rbac.authorization.k8s.io/aggregate-to-edit': 'true', 'rbac.authorization.k8s.io/aggregate-to-view': 'true' }, name: 'system:aggregated-metrics-reader' },
      rules: [{ apiGroups: ['metrics.k8s.io'], resources: ['pods', 'nodes'], verbs: ['get', 'list', 'watch'] }],
    },
    {
      apiVersion: RBAC,
      kind: 'ClusterRole',
      metadata: { labels: { ...LABELS }, name: 'system:metrics-server' },
      rules: [
        { apiGroups: [''], resources: ['nodes/metrics'], verbs: ['get'] },
        { apiGroups: [''], resources: ['pods', 'nodes'], verbs: ['get', 'list', 'watch'] },
      ],
    },
    binding('RoleBinding', 'metrics-server-auth-reader', 'Role', 'extension-apiserver-authentication-reader'),
    binding('ClusterRoleBinding', 'metrics-server:system:auth-delegator', 'ClusterRole', 'system:auth-delegator'),
    binding('ClusterRoleBinding', 'system:metrics-server', 'ClusterRole', 'system:metrics-server'),
    {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { labels: { ...LABELS }, name: NAME, namespace: NS },
      spec: { ports: [{ appProtocol: 'https', name: 'https', port: 443, protocol: 'TCP', targetPort: 'https' }], selector: { ...LABELS } },
    },
    {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { labels: { ...LABELS }, name: NAME, namespace: NS },
      spec: {
        replicas: 2,
        selector: { matchLabels: { ...LABELS } },
        template: {
          metadata: { labels: { ...LABELS } },
          spec: {
            containers: [{
              args: ['--secure-port=10250', '--kubelet-use-node-status-port', '--metric-resolution=15s', `--kubelet-preferred-address-types=${addressType}`, '--cert-dir=/tmp', '--kubelet-insecure-tls'],
              image,
              imagePullPolicy: 'IfNotPresent',
              livenessProbe: probe('/livez'),
              name: NAME,
              ports: [{ containerPort: 10250, name: 'https', protocol: 'TCP' }],
              readinessProbe: probe('/readyz', 20),
              resources: { requests: { cpu: '100m', memory: '200Mi' } },
              securityContext: { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] }, readOnlyRootFilesystem: true, runAsNonRoot: true, runAsUser: 1000, seccompProfile: { type: 'RuntimeDefault' } },
              volumeMounts: [{ mountPath: '/tmp', name: 'tmp-dir' }],
            }],
            nodeSelector: { 'kubernetes.io/os': 'linux' },
            priorityClassName: 'system-cluster-critical',
            serviceAccountName: NAME,
            topologySpreadConstraints: [spread('topology.kubernetes.io/zone', 'ScheduleAnyway'), spread('kubernetes.io/hostname', 'DoNotSchedule')],
            volumes: [{ emptyDir: {}, name: 'tmp-dir' }],
          },
        },
      },
    },
    {
      apiVersion: 'apiregistration.k8s.io/v1',
      kind: 'APIService',
      metadata: { labels: { ...LABELS }, name: 'v1beta1.metrics.k8s.io' },
      spec: { group: 'metrics.k8s.io', groupPriorityMinimum: 100, insecureSkipTLSVerify: true, service: { name: NAME, namespace: NS }, version: 'v1beta1', versionPriority: 100 },
    },
    { apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name: NAME, namespace: NS, labels: { ...LABELS } }, spec: { minAvailable: 1, selector: { matchLabels: { ...LABELS } } } },
  ];
  // kops sets needsPKI from `!insecure` on the field as written, so an unset `insecure` still asks for the CA keypair.
  // kops selects this addon's objects by their app label, not k8s-addon (its channel entry).
  return [{ name: `${NAME}.addons.k8s.io`, id: 'k8s-1.11', selector: { 'k8s-app': NAME }, objects, needsPKI: m.insecure !== true }];
};
