/** One REST resource as discovery lists it: `/api/v1/<resource>` (core) or `/apis/<group>/<version>/<resource>`. */
export interface ResourceInfo {
  /** The plural the URL uses (`deployments`). */
  resource: string;
  /** The API group; '' for the core group. */
  group: string;
  version: string;
  kind: string;
  namespaced: boolean;
  /** kubernetes-models' module for the kind (`apps/v1/Deployment`), used to answer 422 for an object of the wrong shape; none for custom resources. */
  model?: string;
}

const core = (resource: string, kind: string, namespaced: boolean): ResourceInfo => ({ resource, group: '', version: 'v1', kind, namespaced, model: `v1/${kind}` });
const grouped = (group: string, version: string, resource: string, kind: string, namespaced: boolean): ResourceInfo => ({ resource, group, version, kind, namespaced, model: `${group}/${version}/${kind}` });

/**
 * The built-in resources the fake serves (at their preferred version in Kubernetes 1.31): what kops's addon
 * manifests and kforge's validation and rolling update use. Keyed by plural, which is unique among them.
 */
export const BUILTIN_RESOURCES: readonly ResourceInfo[] = [
  core('namespaces', 'Namespace', false),
  core('nodes', 'Node', false),
  core('pods', 'Pod', true),
  core('configmaps', 'ConfigMap', true),
  core('secrets', 'Secret', true),
  core('services', 'Service', true),
  core('serviceaccounts', 'ServiceAccount', true),
  core('limitranges', 'LimitRange', true),
  core('resourcequotas', 'ResourceQuota', true),
  grouped('apps', 'v1', 'deployments', 'Deployment', true),
  grouped('apps', 'v1', 'daemonsets', 'DaemonSet', true),
  grouped('apps', 'v1', 'statefulsets', 'StatefulSet', true),
  grouped('policy', 'v1', 'poddisruptionbudgets', 'PodDisruptionBudget', true),
  grouped('rbac.authorization.k8s.io', 'v1', 'clusterroles', 'ClusterRole', false),
  grouped('rbac.authorization.k8s.io', 'v1', 'clusterrolebindings', 'ClusterRoleBinding', false),
  grouped('rbac.authorization.k8s.io', 'v1', 'roles', 'Role', true),
  grouped('rbac.authorization.k8s.io', 'v1', 'rolebindings', 'RoleBinding', true),
  grouped('storage.k8s.io', 'v1', 'storageclasses', 'StorageClass', false),
  grouped('storage.k8s.io', 'v1', 'csidrivers', 'CSIDriver', false),
  grouped('scheduling.k8s.io', 'v1', 'priorityclasses', 'PriorityClass', false),
  grouped('admissionregistration.k8s.io', 'v1', 'mutatingwebhookconfigurations', 'MutatingWebhookConfiguration', false),
  grouped('admissionregistration.k8s.io', 'v1', 'validatingwebhookconfigurations', 'ValidatingWebhookConfiguration', false),
  grouped('apiextensions.k8s.io', 'v1', 'customresourcedefinitions', 'CustomResourceDefinition', false),
  grouped('coordination.k8s.io', 'v1', 'leases', 'Lease', true),
  grouped('networking.k8s.io', 'v1', 'networkpolicies', 'NetworkPolicy', true),
  grouped('networking.k8s.io', 'v1', 'ingressclasses', 'IngressClass', false),
  grouped('apiregistration.k8s.io', 'v1', 'apiservices', 'APIService', false),
  grouped('autoscaling', 'v2', 'horizontalpodautoscalers', 'HorizontalPodAutoscaler', true),
];

/** The `apiVersion` of a resource (`v1`, `apps/v1`). */
export function apiVersionOf(r: ResourceInfo): string {
  return r.group ? `${r.group}/${r.version}` : r.version;
}

/** The store key of a resource: the plural for built-ins, `<plural>.<group>` (the CRD's name) for custom resources. */
export function resourceKey(r: ResourceInfo): string {
  return BUILTIN_RESOURCES.includes(r) ? r.resource : `${r.resource}.${r.group}`;
}
