import type { ClusterSpec } from '../../api/types';
import type { ExpandContext } from '../expand-context';
import { componentImage } from './images';

/** kube-proxy: disabled when the CNI replaces it (cilium, kube-router), else pod CIDR and image. */
export function expandKubeProxy(spec: ClusterSpec, ctx: ExpandContext): void {
  const c = (spec.kubeProxy ??= {});
  const replacedByCni = spec.networking?.cilium !== undefined || spec.networking?.kuberouter !== undefined;
  c.enabled ??= !replacedByCni;
  c.image ??= componentImage('kube-proxy', ctx.kubernetesVersion);
  c.logLevel ??= 2;
  c.clusterCIDR ??= spec.podCIDR;
  c.cpuRequest ??= '100m';
  c.memoryRequest ??= '100Mi';
}
