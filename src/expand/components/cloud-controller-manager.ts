import type { ClusterSpec } from '../../api/types';
import awsImages from '../assets/addon-images/aws-cloud-controller.json';
import gcpImages from '../assets/addon-images/gcp-cloud-controller.json';
import type { ExpandContext } from '../expand-context';
import { Cidr } from '../../net/cidr';
import { GceNames } from '../../model/gce/gce-names';

const AWS_CCM = awsImages.images['cloud-controller-manager'];
const GCP_CCM = gcpImages.images['cloud-controller-manager'];

/**
 * kops's defaults of the cloud-controller-manager. AWS (pkg/model/components/awscloudcontrollermanager.go): leader
 * election always on, the cluster's name, node CIDRs allocated from the pod range (kforge has no kops-controller
 * IPAM), cloud routes only for kubenet (a CNI routes pods itself), and the image. GCE
 * (pkg/model/components/gcpcloudcontrollermanager.go): see expandGcpCloudControllerManager.
 */
export function expandCloudControllerManager(spec: ClusterSpec, ctx: ExpandContext): void {
  if (spec.cloudProvider === 'gce') return expandGcpCloudControllerManager(spec, ctx);
  if (spec.cloudProvider !== 'aws') return;
  const c = (spec.cloudControllerManager ??= {});
  c.leaderElection = { leaderElect: true };
  c.clusterName = ctx.clusterName;
  c.allocateNodeCIDRs = true;
  // kops's pod range; with amazonvpc kforge leaves spec.podCIDR unset, and kops's value is still the second half of nonMasqueradeCIDR.
  c.clusterCIDR ??= spec.podCIDR ?? (spec.nonMasqueradeCIDR ? secondHalf(spec.nonMasqueradeCIDR) : undefined);
  c.configureCloudRoutes = spec.networking?.kubenet !== undefined;
  c.image ??= `${AWS_CCM.image}:${AWS_CCM.tag}`;
}

/**
 * kops's GCE defaults: leader election, the cluster's name as GCE spells it (dots as dashes: the CCM names GCE
 * resources with it), node CIDRs allocated by the CloudAllocator from the pod range, no cloud routes with IP
 * aliases (`networking.gcp`, kindnet: pod IPs are the instances' alias ranges), every controller (kops turns off the
 * IPAM ones only with kops-controller IPAM, i.e. IPv6, which kforge refuses), and the image.
 */
function expandGcpCloudControllerManager(spec: ClusterSpec, ctx: ExpandContext): void {
  const c = (spec.cloudControllerManager ??= {});
  c.leaderElection = { leaderElect: true };
  c.clusterName = GceNames.safeClusterName(ctx.clusterName);
  c.allocateNodeCIDRs = true;
  c.cidrAllocatorType = 'CloudAllocator';
  c.clusterCIDR ||= spec.podCIDR;
  const networking = spec.networking as Record<string, unknown> | undefined;
  if (networking?.gcp !== undefined || networking?.kindnet !== undefined) c.configureCloudRoutes = false;
  c.controllers ??= ['*'];
  c.image ||= `${GCP_CCM.image}:${GCP_CCM.tag}`;
}

function secondHalf(cidr: string): string {
  const c = Cidr.parse(cidr);
  return c.subnet(c.prefix + 1, 1).toString();
}
