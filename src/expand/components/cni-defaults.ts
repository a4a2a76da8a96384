import type { ClusterSpec } from '../../api/types';
import ciliumImages from '../assets/addon-images/networking-cilium.json';
import type { ExpandContext } from '../expand-context';

/**
 * kops's options builders for the CNI settings kforge renders (pkg/model/components/cilium.go, calico.go at 268927e):
 * Cilium's version (the image table's), IPAM (kubernetes), tunnel (vxlan, or disabled with ENI IPAM) and cluster
 * name (default); Calico's encapsulation (ipip, which kops forces on AWS). Written into the completed spec as kops
 * does; the other settings kops defaults are not rendered by kforge and stay unset (check-cni-settings.ts).
 */
export function expandCniDefaults(spec: ClusterSpec, _ctx: ExpandContext): void {
  const cilium = spec.networking?.cilium;
  if (cilium) {
    cilium.version ??= ciliumImages.cilium.tag;
    cilium.ipam ??= 'kubernetes';
    cilium.tunnel ??= cilium.ipam === 'eni' ? 'disabled' : 'vxlan';
    cilium.clusterName ??= 'default';
  }
  const calico = spec.networking?.calico;
  if (calico && spec.cloudProvider === 'aws') calico.encapsulationMode ??= 'ipip';
}
