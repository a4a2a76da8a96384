import type { Cluster, ClusterSpec, InstanceGroup } from '../api/types';
import type { FieldError } from '../errors/field-error';
import { kubernetesVersionProblem, normalizeKubernetesVersion } from '../expand/kubernetes-version';
import { type ArgvComponent, COMPONENT_DEFINITIONS } from '../flags/component-argv';
import { flagVerdict } from '../flags/flag-support';
import { renderFlagFields } from '../flags/render-flags';

// Every spec block kforge renders as a component's flags; masterKubelet/controlPlaneKubelet overlay kubelet.
const CLUSTER_BLOCKS: ReadonlyArray<[keyof ClusterSpec, ArgvComponent]> = [
  ['kubeAPIServer', 'kube-apiserver'],
  ['kubeControllerManager', 'kube-controller-manager'],
  ['kubeScheduler', 'kube-scheduler'],
  ['kubeProxy', 'kube-proxy'],
  ['kubelet', 'kubelet'],
  ['masterKubelet', 'kubelet'],
  ['controlPlaneKubelet', 'kubelet'],
  ['cloudControllerManager', 'cloud-controller-manager'],
];

/**
 * Settings that map to a flag the cluster's Kubernetes version does not accept (the component would
 * exit with "unknown flag"), each reported at the field the user set: cluster component blocks and
 * every instance group's `spec.kubelet`. Says nothing when the version itself is invalid; that has its
 * own error.
 */
export function validateFlagSupport(cluster: Cluster, igs: InstanceGroup[]): FieldError[] {
  const raw = cluster.spec.kubernetesVersion;
  if (raw === undefined || kubernetesVersionProblem(String(raw))) return [];
  const version = normalizeKubernetesVersion(String(raw));
  const errors: FieldError[] = [];
  const check = (object: string, prefix: string, component: ArgvComponent, config: object | undefined): void => {
    for (const f of renderFlagFields(config, COMPONENT_DEFINITIONS[component])) {
      const verdict = flagVerdict(component, f.flag, version);
      if (!verdict.accepted) errors.push({ object, path: `${prefix}.${f.path}`, message: verdict.problem as string });
    }
  };
  const clusterObject = `Cluster/${cluster.metadata?.name}`;
  for (const [field, component] of CLUSTER_BLOCKS) {
    // A disabled kube-proxy is never started, so its settings are never flags.
    if (field === 'kubeProxy' && cluster.spec.kubeProxy?.enabled === false) continue;
    check(clusterObject, `spec.${field}`, component, cluster.spec[field] as object | undefined);
  }
  for (const ig of igs) check(`InstanceGroup/${ig.metadata?.name}`, 'spec.kubelet', 'kubelet', ig.spec?.kubelet);
  return errors;
}
