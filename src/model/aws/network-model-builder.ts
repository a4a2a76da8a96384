import type { Cluster, ClusterSubnetSpec } from '../../api/types';
import { clusterTags, TagMap } from '../../cloud/aws/aws-tags';
import { ElasticIpTask } from '../../cloud/aws/tasks/elastic-ip-task';
import { InternetGatewayTask } from '../../cloud/aws/tasks/internet-gateway-task';
import { NatGatewayTask } from '../../cloud/aws/tasks/nat-gateway-task';
import { RouteTableAssociationTask } from '../../cloud/aws/tasks/route-table-association-task';
import { RouteTableTask } from '../../cloud/aws/tasks/route-table-task';
import { RouteTask, TransitGatewayTarget } from '../../cloud/aws/tasks/route-task';
import { sharedTags } from '../../cloud/aws/tasks/shared-resource';
import { SubnetTask } from '../../cloud/aws/tasks/subnet-task';
import { VpcTask } from '../../cloud/aws/tasks/vpc-task';
import type { AnyTask } from '../../tasks/task';
import { UnsupportedModelError } from './unsupported-model-error';

/** The network tasks of a cluster, with the VPC and subnets named for the builders that need them. */
export interface NetworkTasks {
  vpc: VpcTask;
  subnets: SubnetTask[];
  tasks: AnyTask[];
}

/** `egress: External`: the subnet's traffic leaves by routes the cluster does not manage (kops's value). */
const EGRESS_EXTERNAL = 'External';
/** kops's egress targets: an existing NAT gateway, an existing Elastic IP for the zone's NAT gateway, a transit gateway. */
const EGRESS_PREFIXES = ['nat-', 'eipalloc-', 'tgw-'];

/**
 * kops's NetworkModelBuilder, pure: the VPC (DNS support and hostnames), a subnet per `spec.subnets`
 * entry, an internet gateway, one public route table with 0.0.0.0/0 to the gateway, and an association
 * for each public and utility subnet. Private topology adds, per zone with private subnets, an Elastic IP
 * and a NAT gateway in that zone's utility subnet, and a route table `private-<zone>` with 0.0.0.0/0 to
 * the NAT gateway that the zone's private subnets are associated with. Names and tags are kops's.
 *
 * Shared resources (kops's `Shared: true`, see docs/shared-vpc.md): `spec.networkID` makes the VPC an
 * existing one and its internet gateway the one attached to it; `spec.subnets[i].id` makes a subnet an
 * existing one, which gets no route table association (its routing is its owner's); `egress: nat-…` routes
 * the zone's private route table to an existing NAT gateway instead of one kforge makes, `egress: tgw-…` to an
 * existing transit gateway, `egress: eipalloc-…` gives the zone's NAT gateway an existing Elastic IP, and `egress:
 * External` leaves the zone's private subnets to routes kforge does not manage. Shared VPCs and subnets
 * carry only `kubernetes.io/cluster/<c>=shared`. The public route table (and so the gateway) exists only
 * when a public or utility subnet kforge makes needs it (always without a shared VPC); a zone gets a
 * private route table only for private subnets kforge makes.
 */
export function buildNetworkTasks(cluster: Cluster): NetworkTasks {
  const name = cluster.metadata.name;
  const spec = cluster.spec;
  const object = `Cluster/${name}`;
  const labels: TagMap = { ...(spec.cloudLabels ?? {}) };
  if (!spec.networkCIDR) throw new UnsupportedModelError('spec.networkCIDR', 'a cluster without a network CIDR');
  // kops associates them with the VPC it creates (aws_vpc_ipv4_cidr_block_association); kforge does not yet, so
  // a subnet in one would fail at AWS. In an existing VPC (networkID) they are already there and only checked.
  if (!spec.networkID && (spec.additionalNetworkCIDRs ?? []).length > 0) {
    throw new UnsupportedModelError('spec.additionalNetworkCIDRs', 'additional CIDR ranges on a VPC kforge creates (in an existing VPC, spec.networkID, they are accepted)');
  }
  const subnets = spec.subnets ?? [];
  const sharedIds = subnets.map((s) => s.id).filter((id): id is string => !!id);
  const natIds = subnets.map((s) => s.egress).filter((e): e is string => !!e && e.startsWith('nat-'));
  subnets.forEach((s, i) => {
    if (s.egress && s.egress !== EGRESS_EXTERNAL && !EGRESS_PREFIXES.some((p) => s.egress?.startsWith(p))) {
      throw new UnsupportedModelError(`spec.subnets[${i}].egress`, `a subnet egress other than an existing NAT gateway (nat-…), Elastic IP (eipalloc-…), transit gateway (tgw-…) or External ("${s.egress}")`);
    }
    // On a public or utility subnet only External (kops's unmanaged subnet: no route table association) means anything.
    if (s.egress && s.egress !== EGRESS_EXTERNAL && s.type !== 'Private') throw new UnsupportedModelError(`spec.subnets[${i}].egress`, `egress ${s.egress} on a ${s.type ?? 'Public'} subnet (only private subnets leave through a NAT gateway or transit gateway; External is accepted)`);
    // A NAT gateway kforge makes (none given, or on a given Elastic IP) sits in the zone's utility subnet.
    if (s.type === 'Private' && !s.id && (!s.egress || s.egress.startsWith('eipalloc-')) && !subnets.some((u) => u.type === 'Utility' && u.zone === s.zone)) {
      throw new UnsupportedModelError(`spec.subnets[${i}]`, `a private subnet without a utility subnet in its zone (${s.zone}) for the NAT gateway`);
    }
    if (s.type === 'DualStack' || s.ipv6CIDR) throw new UnsupportedModelError(`spec.subnets[${i}]`, 'IPv6');
    if (s.id && !spec.networkID) throw new UnsupportedModelError(`spec.subnets[${i}].id`, 'an existing subnet without spec.networkID, the existing VPC it is in');
    // An existing subnet may come without its zone (kops reads it from AWS); one kforge makes needs both.
    if (!s.cidr || (!s.zone && !s.id)) throw new UnsupportedModelError(`spec.subnets[${i}]`, 'a subnet without cidr and zone');
  });

  const vpc = spec.networkID
    ? new VpcTask(name, { cidr: spec.networkCIDR, tags: sharedTags(name), shared: { id: spec.networkID, field: `${object} spec.networkID`, cidrField: `${object} spec.networkCIDR` } })
    : new VpcTask(name, { cidr: spec.networkCIDR, tags: clusterTags(name, name, labels) });
  const subnetTasks = subnets.map((s, i) => subnetTask(name, s, vpc, labels, s.id ? { id: s.id, allIds: sharedIds, field: `${object} spec.subnets[${i}]` } : undefined));
  const tasks: AnyTask[] = [vpc, ...subnetTasks];
  const made = subnetTasks.filter((t) => !t.desired.shared);
  // Subnets with `egress: External` are kops's unmanaged ones: their routing is their owner's, like a shared subnet's.
  const managedPublic = subnetTasks.filter((t, i) => !t.desired.shared && subnets[i].egress !== EGRESS_EXTERNAL && (t.desired.type === 'Public' || t.desired.type === 'Utility'));
  const allUnmanaged = subnets.every((s) => s.egress === EGRESS_EXTERNAL);
  if ((!spec.networkID && !allUnmanaged) || managedPublic.length > 0) {
    const igw = new InternetGatewayTask(name, spec.networkID ? { vpc, tags: {}, shared: { field: `${object} spec.networkID` } } : { vpc, tags: clusterTags(name, name, labels) });
    const publicTable = new RouteTableTask(name, { vpc, tags: clusterTags(name, name, labels, { 'kubernetes.io/kops/role': 'public' }) });
    tasks.push(igw, publicTable, new RouteTask('0.0.0.0/0', { routeTable: publicTable, cidr: '0.0.0.0/0', target: igw }));
    for (const subnet of managedPublic) tasks.push(new RouteTableAssociationTask(subnet.name, { routeTable: publicTable, subnet }));
  }
  // Private subnets kforge makes leave through their zone's NAT gateway: one per zone, as kops does.
  const privateZones = [...new Set(made.filter((t) => t.desired.type === 'Private').map((t) => t.desired.zone))];
  for (const zone of privateZones) {
    const zoneSubnets = subnets.map((s, i) => ({ s, i })).filter(({ s }) => s.type === 'Private' && !s.id && s.zone === zone);
    const egresses = [...new Set(zoneSubnets.map(({ s }) => s.egress ?? ''))];
    if (egresses.length > 1) {
      const { i } = zoneSubnets.find(({ s }) => (s.egress ?? '') !== egresses[0]) as { i: number };
      throw new UnsupportedModelError(`spec.subnets[${i}].egress`, `private subnets of one zone (${zone}) with different egress (${egresses.map((e) => e || 'unset').join(', ')})`);
    }
    const egress = egresses[0];
    // External: the subnets keep the VPC's main route table; the cluster adds no route.
    if (egress === EGRESS_EXTERNAL) continue;
    const zoneName = `${zone}.${name}`;
    let nat: NatGatewayTask | TransitGatewayTarget;
    if (egress.startsWith('tgw-')) {
      // kops routes the zone to the transit gateway and makes no NAT gateway; the gateway is the user's.
      nat = { kind: 'TransitGateway', transitGatewayId: egress };
    } else if (egress.startsWith('nat-')) {
      nat = new NatGatewayTask(zoneName, { shared: { id: egress, allIds: natIds, vpc, field: `${object} spec.subnets[${zoneSubnets[0].i}].egress` } });
      tasks.push(nat);
    } else {
      const utility = subnetTasks.find((t) => t.desired.type === 'Utility' && t.desired.zone === zone) as SubnetTask;
      // eipalloc-…: the cluster's NAT gateway on the user's address (a stable egress IP), as kops does.
      const eip = egress.startsWith('eipalloc-') ? egress : new ElasticIpTask(zoneName, { tags: clusterTags(name, zoneName, labels) });
      nat = new NatGatewayTask(zoneName, { subnet: utility, elasticIp: eip, tags: clusterTags(name, zoneName, labels) });
      if (typeof eip !== 'string') tasks.push(eip);
      tasks.push(nat);
    }
    const tableName = `private-${zone}.${name}`;
    const table = new RouteTableTask(tableName, { vpc, tags: clusterTags(name, tableName, labels, { 'kubernetes.io/kops/role': `private-${zone}` }) });
    tasks.push(table, new RouteTask(`private-${zone}-0.0.0.0/0`, { routeTable: table, cidr: '0.0.0.0/0', target: nat }));
    for (const subnet of made.filter((t) => t.desired.type === 'Private' && t.desired.zone === zone)) {
      tasks.push(new RouteTableAssociationTask(`private-${subnet.name}`, { routeTable: table, subnet }));
    }
  }
  return { vpc, subnets: subnetTasks, tasks };
}

function subnetTask(cluster: string, s: ClusterSubnetSpec, vpc: VpcTask, labels: TagMap, shared: SubnetTask['desired']['shared']): SubnetTask {
  const type = s.type ?? 'Public';
  const name = `${s.name}.${cluster}`;
  // An existing subnet is only tagged as the cluster's shared one: its other tags and settings are its owner's.
  if (shared) return new SubnetTask(name, { vpc, cidr: s.cidr as string, zone: s.zone, type, tags: sharedTags(cluster), shared });
  // Load balancers find their subnets by these role tags (kops sets them unless disableSubnetTags).
  const role: TagMap = type === 'Private' ? { 'kubernetes.io/role/internal-elb': '1' } : { 'kubernetes.io/role/elb': '1' };
  // Instances in public and utility subnets reach the internet through the gateway only: they need a public address.
  const mapPublicIpOnLaunch = type === 'Public' || type === 'Utility';
  return new SubnetTask(name, { vpc, cidr: s.cidr as string, zone: s.zone as string, type, mapPublicIpOnLaunch, tags: clusterTags(cluster, name, labels, { SubnetType: type, ...role }) });
}
