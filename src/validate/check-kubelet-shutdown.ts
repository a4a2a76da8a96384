import type { Cluster, InstanceGroup, KubeletConfigSpec } from '../api/types';
import type { FieldError } from '../errors/field-error';
import { goDurationNs } from '../util/go-duration';

/**
 * kubelet refuses to start when shutdownGracePeriodCriticalPods exceeds shutdownGracePeriod (upstream's
 * KubeletConfiguration validation). Checked for each kubelet block where both are known, with the cluster's
 * values under a group's own (the control plane's overlay under a control-plane group's), as nodes merge them.
 */
export function checkKubeletShutdown(cluster: Cluster, igs: InstanceGroup[]): FieldError[] {
  const errors: FieldError[] = [];
  const spec = cluster.spec;
  const clusterObject = `Cluster/${cluster.metadata.name}`;
  const check = (object: string, path: string, own: KubeletConfigSpec | undefined, merged: KubeletConfigSpec) => {
    // Reported where the user (or expansion) set one of the two, so one bad value is named once.
    if (!own || (own.shutdownGracePeriod === undefined && own.shutdownGracePeriodCriticalPods === undefined)) return;
    const total = merged.shutdownGracePeriod === undefined ? undefined : goDurationNs(merged.shutdownGracePeriod);
    const critical = merged.shutdownGracePeriodCriticalPods === undefined ? undefined : goDurationNs(merged.shutdownGracePeriodCriticalPods);
    if (total === undefined || critical === undefined || critical <= total) return;
    const field = own.shutdownGracePeriodCriticalPods !== undefined ? 'shutdownGracePeriodCriticalPods' : 'shutdownGracePeriod';
    errors.push({ object, path: `${path}.${field}`, message: `shutdownGracePeriodCriticalPods (${merged.shutdownGracePeriodCriticalPods}) must not exceed shutdownGracePeriod (${merged.shutdownGracePeriod}); kubelet refuses to start` });
  };
  const controlPlane = { ...(spec.kubelet ?? {}), ...(spec.masterKubelet ?? {}), ...(spec.controlPlaneKubelet ?? {}) };
  check(clusterObject, 'spec.kubelet', spec.kubelet, spec.kubelet ?? {});
  check(clusterObject, spec.controlPlaneKubelet ? 'spec.controlPlaneKubelet' : 'spec.masterKubelet', spec.controlPlaneKubelet ?? spec.masterKubelet, controlPlane);
  for (const ig of igs) {
    const cp = ig.spec?.role === 'ControlPlane' || ig.spec?.role === 'Master';
    check(`InstanceGroup/${ig.metadata?.name}`, 'spec.kubelet', ig.spec?.kubelet, { ...(cp ? controlPlane : (spec.kubelet ?? {})), ...(ig.spec?.kubelet ?? {}) });
  }
  return errors;
}
