import type { Cluster, ClusterSubnetSpec } from '../../api/types';
import { clusterTags, TagMap } from '../../cloud/aws/aws-tags';
import { ElasticIpTask } from '../../cloud/aws/tasks/elastic-ip-task';
import { InternetGatewayTask } from '../../cloud/aws/tasks/internet-gateway-task';
import { NatGatewayTask } from '../../cloud/aws/tasks/nat-gateway-task';
import { RouteTableAssociationTask } from '../../cloud/aws/tasks/route-table-association-task';
import { RouteTableTask } from '../../cloud/aws/tasks/route-table-task';
import { RouteTask } from '../../cloud/aws/tasks/route-task';
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

/**
 * kops's NetworkModelBuilder, pure: the VPC (DNS support and hostnames), a subnet per `spec.subnets`
 * entry, an internet gateway, one public route table with 0.0.0.0/0 to the gateway, and an association
 * for each public and utility subnet. Private topology adds, per zone with private subnets, an Elastic IP
 * and a NAT gateway in that zone's utility subnet, and a route table `private-<zone>` with 0.0.0.0/0 to
 * the NAT gateway that the zone's private subnets are associated with. Names and tags are kops's.
 */
export function buildNetworkTasks(cluster: Cluster): NetworkTasks {
  const name = cluster.metadata.name;
  const spec = cluster.spec;
  const labels: TagMap = { ...(spec.cloudLabels ?? {}) };
  if (spec.networkID) throw new UnsupportedModelError('spec.networkID', 'a shared (existing) VPC');
  if (!spec.networkCIDR) throw new UnsupportedModelError('spec.networkCIDR', 'a cluster without a network CIDR');
  const subnets = spec.subnets ?? [];
  subnets.forEach((s, i) => {
    if (s.egress) throw new UnsupportedModelError(`spec.subnets[${i}].egress`, 'a subnet egress other than a NAT gateway kforge creates');
    if (s.type === 'Private' && !subnets.some((u) => u.type === 'Utility' && u.zone === s.zone)) {
      throw new UnsupportedModelError(`spec.subnets[${i}]`, `a private subnet without a utility subnet in its zone (${s.zone}) for the NAT gateway`);
    }
    if (s.type === 'DualStack' || s.ipv6CIDR) throw new UnsupportedModelError(`spec.subnets[${i}]`, 'IPv6');
    if (s.id) throw new UnsupportedModelError(`spec.subnets[${i}].id`, 'a shared (existing) subnet');
    if (!s.cidr || !s.zone) throw new UnsupportedModelError(`spec.subnets[${i}]`, 'a subnet without cidr and zone');
  });

  const vpc = new VpcTask(name, { cidr: spec.networkCIDR, tags: clusterTags(name, name, labels) });
  const subnetTasks = subnets.map((s) => subnetTask(name, s, vpc, labels));
  const igw = new InternetGatewayTask(name, { vpc, tags: clusterTags(name, name, labels) });
  const publicTable = new RouteTableTask(name, { vpc, tags: clusterTags(name, name, labels, { 'kubernetes.io/kops/role': 'public' }) });
  const route = new RouteTask('0.0.0.0/0', { routeTable: publicTable, cidr: '0.0.0.0/0', target: igw });
  const tasks: AnyTask[] = [vpc, ...subnetTasks, igw, publicTable, route];
  for (const subnet of subnetTasks) {
    if (subnet.desired.type === 'Public' || subnet.desired.type === 'Utility') tasks.push(new RouteTableAssociationTask(subnet.name, { routeTable: publicTable, subnet }));
  }
  // Private subnets leave through their zone's NAT gateway: one per zone, as kops does.
  const privateZones = [...new Set(subnetTasks.filter((t) => t.desired.type === 'Private').map((t) => t.desired.zone))];
  for (const zone of privateZones) {
    const utility = subnetTasks.find((t) => t.desired.type === 'Utility' && t.desired.zone === zone) as SubnetTask;
    const zoneName = `${zone}.${name}`;
    const eip = new ElasticIpTask(zoneName, { tags: clusterTags(name, zoneName, labels) });
    const nat = new NatGatewayTask(zoneName, { subnet: utility, elasticIp: eip, tags: clusterTags(name, zoneName, labels) });
    const tableName = `private-${zone}.${name}`;
    const table = new RouteTableTask(tableName, { vpc, tags: clusterTags(name, tableName, labels, { 'kubernetes.io/kops/role': `private-${zone}` }) });
    tasks.push(eip, nat, table, new RouteTask(`private-${zone}-0.0.0.0/0`, { routeTable: table, cidr: '0.0.0.0/0', target: nat }));
    for (const subnet of subnetTasks.filter((t) => t.desired.type === 'Private' && t.desired.zone === zone)) {
      tasks.push(new RouteTableAssociationTask(`private-${subnet.name}`, { routeTable: table, subnet }));
    }
  }
  return { vpc, subnets: subnetTasks, tasks };
}

function subnetTask(cluster: string, s: ClusterSubnetSpec, vpc: VpcTask, labels: TagMap): SubnetTask {
  const type = s.type ?? 'Public';
  // Load balancers find their subnets by these role tags (kops sets them unless disableSubnetTags).
  const role: TagMap = type === 'Private' ? { 'kubernetes.io/role/internal-elb': '1' } : { 'kubernetes.io/role/elb': '1' };
  const name = `${s.name}.${cluster}`;
  // Instances in public and utility subnets reach the internet through the gateway only: they need a public address.
  const mapPublicIpOnLaunch = type === 'Public' || type === 'Utility';
  return new SubnetTask(name, { vpc, cidr: s.cidr as string, zone: s.zone as string, type, mapPublicIpOnLaunch, tags: clusterTags(cluster, name, labels, { SubnetType: type, ...role }) });
}
