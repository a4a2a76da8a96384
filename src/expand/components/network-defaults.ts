import type { ClusterSpec } from '../../api/types';
import { Cidr } from '../../net/cidr';
import type { ExpandContext } from '../expand-context';

/** kops's default VPC range. */
export const DEFAULT_NETWORK_CIDR = '172.20.0.0/16';
/** Where kops carves GCE subnet ranges from when the network has none. */
export const GCE_SUBNET_POOL = '10.0.0.0/16';
/** kops's service range when pods take VPC addresses (amazonvpc): the default one, outside the VPC. */
export const AMAZON_VPC_SERVICE_RANGE = '100.64.0.0/13';
/** kops's default range for pods and services, outside the VPC. */
export const DEFAULT_NON_MASQUERADE_CIDR = '100.64.0.0/10';

/**
 * Network ranges: VPC, subnets, services, pods, cluster DNS. kops's rules: subnets get the 2nd, 3rd, …
 * eighth of the VPC range (a /19 per zone from a /16); utility subnets get eighths of the first eighth;
 * services take the first eighth of nonMasqueradeCIDR and pods its upper half.
 */
export function expandNetwork(spec: ClusterSpec, _ctx: ExpandContext): void {
  // GCE networks have no range of their own: each regional subnet has one (kops leaves networkCIDR unset).
  if (spec.cloudProvider !== 'gce') spec.networkCIDR ??= DEFAULT_NETWORK_CIDR;
  if (spec.networking?.amazonvpc) {
    // kops: pods take VPC addresses, so nothing is masqueraded inside the VPC, there is no pod range to
    // carve, and services keep kops's default range outside the VPC.
    spec.nonMasqueradeCIDR ??= spec.networkCIDR;
    assignSubnetCidrs(spec);
    spec.serviceClusterIPRange ??= AMAZON_VPC_SERVICE_RANGE;
    return;
  }
  spec.nonMasqueradeCIDR ??= DEFAULT_NON_MASQUERADE_CIDR;
  assignSubnetCidrs(spec);
  const nonMasq = Cidr.parse(spec.nonMasqueradeCIDR);
  spec.serviceClusterIPRange ??= nonMasq.subnet(nonMasq.prefix + 3, 0).toString();
  spec.podCIDR ??= nonMasq.subnet(nonMasq.prefix + 1, 1).toString();
}

/** The 10th address of the service range: where cluster DNS listens. */
export function clusterDnsIp(spec: ClusterSpec): string {
  return Cidr.parse(spec.serviceClusterIPRange as string).address(10);
}

/** The 1st address of the service range: the `kubernetes` service. */
export function apiServiceIp(spec: ClusterSpec): string {
  return Cidr.parse(spec.serviceClusterIPRange as string).address(1);
}

/** Gives every subnet without a CIDR the next free range by kops's carving rules. */
export function assignSubnetCidrs(spec: ClusterSpec): void {
  const subnets = spec.subnets ?? [];
  if (subnets.every((s) => s.cidr)) return;
  if (spec.cloudProvider === 'gce' && !spec.networkCIDR) return assignGceSubnetCidrs(subnets);
  const network = Cidr.tryParse(spec.networkCIDR as string);
  // An invalid range is reported by validation; there is nothing to carve here.
  if (!network) return;
  const bigPrefix = Math.min(network.prefix + 3, network.bits);
  const littlePrefix = Math.min(bigPrefix + 3, network.bits);
  const taken = subnets.filter((s) => s.cidr).map((s) => Cidr.tryParse(s.cidr as string)).filter((c): c is Cidr => !!c);
  const big = candidates(network, bigPrefix, 1);
  const little = candidates(network.subnet(bigPrefix, 0), littlePrefix, 0);
  for (const subnet of subnets) {
    if (subnet.cidr) continue;
    const pool = subnet.type === 'Utility' ? little : big;
    const free = pool.find((c) => !taken.some((t) => t.overlaps(c)));
    // No room left: leave it empty; validation then names the subnet.
    if (!free) continue;
    subnet.cidr = free.toString();
    taken.push(free);
  }
}

/**
 * GCE regional subnets without a network range: /20s of 10.0.0.0/16 after the first, as kops gives them
 * (its minimal_gce case: the first subnet is 10.0.16.0/20).
 */
function assignGceSubnetCidrs(subnets: NonNullable<ClusterSpec['subnets']>): void {
  const taken = subnets.filter((s) => s.cidr).map((s) => Cidr.tryParse(s.cidr as string)).filter((c): c is Cidr => !!c);
  const pool = candidates(Cidr.parse(GCE_SUBNET_POOL), 20, 1);
  for (const subnet of subnets) {
    if (subnet.cidr) continue;
    const free = pool.find((c) => !taken.some((t) => t.overlaps(c)));
    if (!free) continue;
    subnet.cidr = free.toString();
    taken.push(free);
  }
}

function candidates(parent: Cidr, prefix: number, first: number): Cidr[] {
  const count = Number(1n << BigInt(prefix - parent.prefix));
  const out: Cidr[] = [];
  for (let i = first; i < count; i++) out.push(parent.subnet(prefix, i));
  return out;
}
