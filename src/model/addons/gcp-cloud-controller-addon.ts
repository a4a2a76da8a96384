import type { ClusterSpec } from '../../api/types';
import { renderFlags } from '../../flags/render-flags';
import { GCE_CLOUD_CONFIG_PATH } from '../gce/gce-cloud-config-path';
import type { Addon, AddonBuilder, KubeObject } from './addon';

const NS = 'kube-system';
const NAME = 'cloud-controller-manager';
const RBAC = 'rbac.authorization.k8s.io/v1';
const RBAC_GROUP = 'rbac.authorization.k8s.io';


/** kops's extra labels on the RBAC objects it copied from cloud-provider-gcp's deploy/ manifests. */
const RECONCILE = { 'addonmanager.kubernetes.io/mode': 'Reconcile' };

type Rule = { apiGroups: string[]; resources: string[]; verbs: string[]; resourceNames?: string[] };
const rule = (apiGroups: string[], resources: string[], verbs: string[], resourceNames?: string[]): Rule => ({ apiGroups, ...(resourceNames ? { resourceNames } : {}), resources, verbs });

/** The rules of kops's `system:cloud-controller-manager` ClusterRole (cloud-provider-gcp's cloud-controller-manager-role.yaml). */
const CCM_RULES: Rule[] = [
  rule(['', 'events.k8s.io'], ['events'], ['create', 'patch', 'update']),
  rule([''], ['services/status'], ['patch', 'update']),
  rule(['coordination.k8s.io'], ['leases'], ['create', 'get', 'list', 'watch', 'update']),
  rule(['coordination.k8s.io'], ['leases'], ['get', 'update'], ['cloud-controller-manager']),
  rule([''], ['endpoints', 'serviceaccounts'], ['create', 'get', 'update']),
  rule([''], ['nodes'], ['get', 'update', 'patch']),
  rule([''], ['namespaces'], ['get']),
  rule([''], ['nodes/status'], ['patch', 'update']),
  rule([''], ['secrets'], ['create', 'delete', 'get', 'update']),
  rule(['authentication.k8s.io'], ['tokenreviews'], ['create']),
  rule(['*'], ['*'], ['list', 'watch']),
  rule([''], ['serviceaccounts/token'], ['create']),
];

const CONFIGMAP_RW = ['create', 'get', 'patch', 'update', 'list', 'watch'];
const EVENTS_W = ['create', 'patch', 'update'];

function role(kind: 'Role' | 'ClusterRole', name: string, rules: Rule[], annotations?: Record<string, string>): KubeObject {
  return {
    apiVersion: RBAC,
    kind,
    metadata: { ...(annotations ? { annotations } : {}), labels: { ...RECONCILE }, name, ...(kind === 'Role' ? { namespace: NS } : {}) },
    rules,
  };
}

function binding(kind: 'RoleBinding' | 'ClusterRoleBinding', name: string, serviceAccount: string, roleName = name): KubeObject {
  return {
    apiVersion: RBAC,
    kind,
    metadata: { labels: { ...RECONCILE }, name, ...(kind === 'RoleBinding' ? { namespace: NS } : {}) },
    roleRef: { apiGroup: RBAC_GROUP, kind: kind === 'RoleBinding' ? 'Role' : 'ClusterRole', name: roleName },
    subjects: [{ kind: 'ServiceAccount', name: serviceAccount, namespace: NS }],
  };
}

const DEPRECATED = (what: string): Record<string, string> => ({
  'kubernetes.io/deprecation': `cloud-provider ${what} is DEPRECATED in the concern of potential collisions and will be removed in 1.16. Do not use this role.`,
});

/** The CCM's args as kops's CloudControllerConfigArgv renders them on GCE: the spec's flags, kops's additions when unset, the cloud config file. */
export function gcpCloudControllerArgs(ccm: NonNullable<ClusterSpec['cloudControllerManager']>): string[] {
  return [
    ...renderFlags(ccm, 'CloudControllerManagerConfig'),
    ...(ccm.logLevel ? [] : ['--v=2']),
    ...(ccm.cloudProvider ? [] : ['--cloud-provider=gce']),
    ...(ccm.useServiceAccountCredentials === undefined ? ['--use-service-account-credentials=true'] : []),
    `--cloud-config=${GCE_CLOUD_CONFIG_PATH}`,
  ];
}

/**
 * kops's `gcp-cloud-controller.addons.k8s.io` k8s-1.23 (upup/models/cloudup/resources/addons/gcp-cloud-controller.addons.k8s.io/k8s-1.23.yaml.template):
 * the GCP cloud-controller-manager as a DaemonSet on the control plane (host network, the local API server), which
 * initialises nodes (removes the `node.cloudprovider.kubernetes.io/uninitialized` taint that kubelet's
 * `--cloud-provider=external` sets), allocates their pod CIDRs (CloudAllocator: from the instances' alias ranges or
 * the cluster CIDR) and runs the service and route controllers; it reads /etc/kubernetes/cloud.config, which nodeup
 * writes on the control plane. Then the RBAC of cloud-provider-gcp's deploy/ manifests. Rendered on GCE.
 */
export const gcpCloudControllerAddon: AddonBuilder = ({ cluster }): Addon[] => {
  const ccm = cluster.spec.cloudControllerManager;
  if (cluster.spec.cloudProvider !== 'gce' || !ccm) return [];
  const match = (key: string) => ({ matchExpressions: [{ key, operator: 'Exists' }] });
  const daemonSet: KubeObject = {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: { labels: { component: NAME }, name: NAME, namespace: NS },
    spec: {
      selector: { matchLabels: { component: NAME } },
      template: {
        metadata: { labels: { component: NAME, tier: 'control-plane' } },
        spec: {
          affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [match('node-role.kubernetes.io/control-plane'), match('node-role.kubernetes.io/master')] } } },
          containers: [
            {
              args: gcpCloudControllerArgs(ccm),
              // The API server on the same machine: the CCM initialises nodes before any Service routing works.
              env: [{ name: 'KUBERNETES_SERVICE_HOST', value: '127.0.0.1' }],
              image: ccm.image,
              imagePullPolicy: 'IfNotPresent',
              livenessProbe: {
                failureThreshold: 3,
                httpGet: { host: '127.0.0.1', path: '/healthz', port: 10258, scheme: 'HTTPS' },
                initialDelaySeconds: 15,
                periodSeconds: 10,
                successThreshold: 1,
                timeoutSeconds: 15,
              },
              name: NAME,
              resources: { requests: { cpu: String(ccm.cpuRequest ?? '200m') } },
              volumeMounts: [{ mountPath: GCE_CLOUD_CONFIG_PATH, name: 'cloudconfig', readOnly: true }],
            },
          ],
          hostNetwork: true,
          nodeSelector: null,
          priorityClassName: 'system-cluster-critical',
          serviceAccountName: NAME,
          tolerations: [{ operator: 'Exists' }],
          volumes: [{ hostPath: { path: GCE_CLOUD_CONFIG_PATH, type: '' }, name: 'cloudconfig' }],
        },
      },
      updateStrategy: { type: 'RollingUpdate' },
    },
  };
  const objects: KubeObject[] = [
    daemonSet,
    { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: NAME, namespace: NS } },
    {
      apiVersion: RBAC,
      kind: 'RoleBinding',
      metadata: { name: 'cloud-controller-manager:apiserver-authentication-reader', namespace: NS },
      roleRef: { apiGroup: RBAC_GROUP, kind: 'Role', name: 'extension-apiserver-authentication-reader' },
      subjects: [{ apiGroup: '', kind: 'ServiceAccount', name: NAME, namespace: NS }],
    },
    role('ClusterRole', 'system:cloud-controller-manager', CCM_RULES),
    role('Role', 'system::leader-locking-cloud-controller-manager', [rule([''], ['configmaps'], ['watch']), rule([''], ['configmaps'], ['create', 'patch', 'get', 'update'], ['cloud-controller-manager'])]),
    role('ClusterRole', 'system:controller:cloud-node-controller', [
      rule([''], ['events'], EVENTS_W),
      rule([''], ['nodes'], ['get', 'list', 'update', 'delete', 'patch']),
      rule([''], ['nodes/status'], ['get', 'list', 'update', 'delete', 'patch']),
      rule([''], ['pods'], ['list', 'delete']),
      rule([''], ['pods/status'], ['list', 'delete']),
    ]),
    binding('RoleBinding', 'system::leader-locking-cloud-controller-manager', NAME),
    binding('ClusterRoleBinding', 'system:cloud-controller-manager', NAME),
    binding('ClusterRoleBinding', 'system:controller:cloud-node-controller', 'cloud-node-controller'),
    role('ClusterRole', 'system:controller:pvl-controller', [rule([''], ['events'], EVENTS_W), rule([''], ['persistentvolumeclaims', 'persistentvolumes'], ['list', 'watch'])]),
    role('Role', 'gce:cloud-provider', [rule([''], ['configmaps'], CONFIGMAP_RW)]),
    role('ClusterRole', 'gce:cloud-provider', [rule([''], ['events'], EVENTS_W), rule([''], ['services/status'], ['patch', 'update'])]),
    role('Role', 'cloud-provider', [rule([''], ['configmaps'], CONFIGMAP_RW)], DEPRECATED('role')),
    role('ClusterRole', 'cloud-provider', [rule([''], ['events'], EVENTS_W)], DEPRECATED('clusterrole')),
    binding('RoleBinding', 'gce:cloud-provider', 'cloud-provider'),
    binding('ClusterRoleBinding', 'gce:cloud-provider', 'cloud-provider'),
  ];
  return [{ name: 'gcp-cloud-controller.addons.k8s.io', id: 'k8s-1.23', objects, prune: true }];
};
