import type { ClusterSpec } from '../../api/types';
import { GceNames } from '../../model/gce/gce-names';
import type { ExpandContext } from '../expand-context';

/**
 * kops's GCE cloud-config defaults (pkg/model/components/kubelet.go; the options nodeup writes into
 * /etc/kubernetes/cloud.config for the cloud-controller-manager): `multizone: true` (the CCM manages the region's
 * zones, not only its own), `nodeTags` the workers' network tag `<cluster>-k8s-io-role-node` (the tag the CCM puts
 * on the firewall rules of LoadBalancer Services), and `manageStorageClasses: true` (the storage-gce addon). kops
 * overwrites multizone and nodeTags; kforge keeps a value the user set. Only on GCE.
 */
export function expandGceCloudConfig(spec: ClusterSpec, ctx: ExpandContext): void {
  if (spec.cloudProvider !== 'gce') return;
  const c = (spec.cloudConfig ??= {});
  c.manageStorageClasses ??= true;
  c.multizone ??= true;
  c.nodeTags ??= GceNames.tagForRole(ctx.clusterName, 'node');
}
