import type { Cluster } from '../../api/types';
import { GceNetworkTask } from '../../cloud/gce/tasks/gce-network-task';
import { GceRouterTask } from '../../cloud/gce/tasks/gce-router-task';
import { NotSupportedError } from '../../errors/not-supported-error';
import { GceSubnetworkTask } from '../../cloud/gce/tasks/gce-subnetwork-task';
import { GceNames } from './gce-names';

/** Whether pods get IP aliases from a secondary range of the subnetwork (kops's gce.UsesIPAliases: `networking.gce`). */
export function usesIpAliases(cluster: Cluster): boolean {
  return (cluster.spec.networking as Record<string, unknown> | undefined)?.gce !== undefined;
}

/**
 * The network of a GCE cluster, as kops's NetworkModelBuilder: a custom-mode VPC network named after the
 * cluster (truncated to 63 characters with a hash) (or the existing `spec.networkID`), and one regional subnetwork per spec subnet, named
 * `<subnet>-<cluster>` (or its existing `id`), with secondary ranges for IP aliases, and a Cloud Router with
 * Cloud NAT for the private subnetworks. Pure.
 */
export function buildGceNetworkTasks(cluster: Cluster): { network: GceNetworkTask; subnetworks: GceSubnetworkTask[]; router?: GceRouterTask } {
  const name = cluster.metadata.name;
  const spec = cluster.spec;
  const network = new GceNetworkTask(spec.networkID || GceNames.truncate(GceNames.safeClusterName(name), 63), { mode: spec.networkID ? undefined : 'custom', shared: !!spec.networkID });
  const aliases = usesIpAliases(cluster);
  const subnetworks = (spec.subnets ?? []).map((s) => {
    const secondaryRanges: Record<string, string> = {};
    if (aliases) {
      if (spec.podCIDR) secondaryRanges[GceNames.clusterSuffixed('pods', name)] = spec.podCIDR;
      if (spec.serviceClusterIPRange) secondaryRanges[GceNames.clusterSuffixed('services', name)] = spec.serviceClusterIPRange;
    }
    return new GceSubnetworkTask(
      s.id || GceNames.clusterSuffixed(s.name, name),
      { region: s.region ?? '', cidr: s.cidr, stackType: 'IPV4_ONLY', secondaryRanges, shared: !!s.id },
      network,
    );
  });
  // Cloud NAT for the private (and dual-stack) subnetworks the cluster makes, unless their egress is External.
  const natted = (spec.subnets ?? []).flatMap((s, i) => {
    if ((s.type !== 'Private' && s.type !== 'DualStack') || s.id || s.egress === 'External') return [];
    if (s.egress && s.egress !== 'NatGateway') throw new NotSupportedError(`Cluster/${name}: spec.subnets[${i}].egress: "${s.egress}" is not supported on GCE (NatGateway or External)`);
    return [subnetworks[i]];
  });
  if (natted.length === 0) return { network, subnetworks };
  const router = new GceRouterTask(GceNames.clusterSuffixed('nat', name), { region: natted[0].desired.region, subnetworks: natted.map((s) => s.name) }, network, natted);
  return { network, subnetworks, router };
}
