import { renderFlags } from '../../flags/render-flags';
import type { Addon, AddonBuilder, KubeObject } from './addon';

const NS = 'kube-system';
const SA = 'aws-cloud-controller-manager';
const RBAC = 'rbac.authorization.k8s.io/v1';

/** The rules of kops's `system:cloud-controller-manager` ClusterRole (the addon's k8s-1.18 template). */
const RULES = [
  { apiGroups: [''], resources: ['events'], verbs: ['create', 'patch', 'update'] },
  { apiGroups: [''], resources: ['nodes'], verbs: ['*'] },
  { apiGroups: [''], resources: ['nodes/status'], verbs: ['patch'] },
  { apiGroups: [''], resources: ['services'], verbs: ['list', 'patch', 'update', 'watch'] },
  { apiGroups: [''], resources: ['services/status'], verbs: ['list', 'patch', 'update', 'watch'] },
  { apiGroups: [''], resources: ['serviceaccounts'], verbs: ['create', 'get'] },
  { apiGroups: [''], resources: ['persistentvolumes'], verbs: ['get', 'list', 'update', 'watch'] },
  { apiGroups: [''], resources: ['endpoints'], verbs: ['create', 'get', 'list', 'watch', 'update'] },
  { apiGroups: ['coordination.k8s.io'], resources: ['leases'], verbs: ['create', 'get', 'list', 'watch', 'update'] },
  { apiGroups: [''], resources: ['secrets'], verbs: ['list', 'watch'] },
  { apiGroups: [''], resourceNames: ['node-controller', 'service-controller', 'route-controller'], resources: ['serviceaccounts/token'], verbs: ['create'] },
];

/**
 * kops's `aws-cloud-controller.addons.k8s.io` k8s-1.18 (upup/models/cloudup/resources/addons/aws-cloud-controller.addons.k8s.io/k8s-1.18.yaml.template):
 * the AWS cloud-controller-manager as a DaemonSet on the control plane, which initialises nodes (removes the
 * `uninitialized` taint kubelet's `--cloud-provider=external` sets), runs the service and, for kubenet, route
 * controllers. Its flags are `spec.cloudControllerManager` through the flag table (checked per version at
 * validation), then kops's additions when unset: `--v=2`, `--cloud-provider=aws`,
 * `--use-service-account-credentials=true`. Rendered on AWS.
 */
export const awsCloudControllerAddon: AddonBuilder = ({ cluster }): Addon[] => {
  const ccm = cluster.spec.cloudControllerManager;
  if (cluster.spec.cloudProvider !== 'aws' || !ccm) return [];
  const args = [
    ...renderFlags(ccm, 'CloudControllerManagerConfig'),
    ...(ccm.logLevel ? [] : ['--v=2']),
    ...(ccm.cloudProvider ? [] : ['--cloud-provider=aws']),
    ...(ccm.useServiceAccountCredentials === undefined ? ['--use-service-account-credentials=true'] : []),
  ];
  const daemonSet: KubeObject = {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: { name: SA, namespace: NS, labels: { 'k8s-app': SA } },
    spec: {
      updateStrategy: { type: 'RollingUpdate' },
      selector: { matchLabels: { 'k8s-app': SA } },
      template: {
        metadata: { labels: { 'k8s-app': SA } },
        spec: {
          affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'node-role.kubernetes.io/control-plane', operator: 'Exists' }] }] } } },
          tolerations: [{ operator: 'Exists' }],
          serviceAccountName: SA,
          containers: [
            {
              name: SA,
              image: ccm.image,
              imagePullPolicy: 'IfNotPresent',
              args,
              // The API server on the same machine: the CCM initialises nodes before any Service routing works.
              env: [{ name: 'KUBERNETES_SERVICE_HOST', value: '127.0.0.1' }],
              resources: { requests: { cpu: String(ccm.cpuRequest ?? '200m') } },
            },
          ],
          hostNetwork: true,
          priorityClassName: 'system-cluster-critical',
        },
      },
    },
  };
  const objects: KubeObject[] = [
    daemonSet,
    { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: SA, namespace: NS } },
    {
      apiVersion: RBAC,
      kind: 'RoleBinding',
      metadata: { name: 'cloud-controller-manager:apiserver-authentication-reader', namespace: NS },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'extension-apiserver-authentication-reader' },
      subjects: [{ apiGroup: '', kind: 'ServiceAccount', name: SA, namespace: NS }],
    },
    { apiVersion: RBAC, kind: 'ClusterRole', metadata: { name: 'system:cloud-controller-manager' }, rules: RULES },
    {
      apiVersion: RBAC,
      kind: 'ClusterRoleBinding',
      metadata: { name: 'system:cloud-controller-manager' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'system:cloud-controller-manager' },
      subjects: [{ apiGroup: '', kind: 'ServiceAccount', name: SA, namespace: NS }],
    },
  ];
  return [{ name: 'aws-cloud-controller.addons.k8s.io', id: 'k8s-1.18', objects }];
};
