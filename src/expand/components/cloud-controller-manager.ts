import type { ClusterSpec } from '../../api/types';
import images from '../assets/addon-images/aws-cloud-controller.json';
import type { ExpandContext } from '../expand-context';
import { Cidr } from '../../net/cidr';

const CCM = images.images['cloud-controller-manager'];

/**
 * kops's defaults of the AWS cloud-controller-manager (pkg/model/components/awscloudcontrollermanager.go): leader
 * election always on, the cluster's name, node CIDRs allocated from the pod range (kforge has no kops-controller
 * IPAM), cloud routes only for kubenet (a CNI routes pods itself), and the image. Only on AWS.
 */
export function expandCloudControllerManager(spec: ClusterSpec, ctx: ExpandContext): void {
  if (spec.cloudProvider !== 'aws') return;
  const c = (spec.cloudControllerManager ??= {});
  c.leaderElection = { leaderElect: true };
  c.clusterName = ctx.clusterName;
  c.allocateNodeCIDRs = true;
  // kops's pod range; with amazonvpc kforge leaves spec.podCIDR unset, and kops's value is still the second half of nonMasqueradeCIDR.
  c.clusterCIDR ??= spec.podCIDR ?? (spec.nonMasqueradeCIDR ? secondHalf(spec.nonMasqueradeCIDR) : undefined);
  c.configureCloudRoutes = spec.networking?.kubenet !== undefined;
  c.image ??= `${CCM.image}:${CCM.tag}`;
}

function secondHalf(cidr: string): string {
  const c = Cidr.parse(cidr);
  return c.subnet(c.prefix + 1, 1).toString();
}
