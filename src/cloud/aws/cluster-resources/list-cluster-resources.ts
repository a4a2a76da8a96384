import type { AwsCloud } from '../aws-cloud';
import { withAwsRetries } from '../with-aws-retries';
import type { ClusterResource } from './cluster-resource';
import { listAutoScalingGroups } from './list-auto-scaling-groups';
import { listComputeResources } from './list-compute-resources';
import { listDnsRecords } from './list-dns-records';
import { listIamResources } from './list-iam-resources';
import { listLoadBalancerResources } from './list-load-balancer-resources';
import { listNetworkResources } from './list-network-resources';
import { listNthResources } from './list-nth-resources';

// Which kinds must be gone before a kind can be deleted (kops's dependency map, by kind). Instances hold
// network interfaces in subnets and security groups, volumes, and public addresses (which stop the internet
// gateway's detach); a load balancer holds interfaces too; a NAT gateway holds its Elastic IP and subnet.
const BLOCKED_BY: Record<string, readonly string[]> = {
  'autoscaling-group': [],
  instance: [],
  'launch-template': ['autoscaling-group', 'instance'],
  'load-balancer-listener': [],
  'load-balancer': ['load-balancer-listener'],
  // An Auto Scaling group registers its instances with the target group; the group goes first.
  'target-group': ['load-balancer-listener', 'load-balancer', 'autoscaling-group'],
  'nat-gateway': [],
  'elastic-ip': ['nat-gateway', 'instance', 'autoscaling-group', 'load-balancer'],
  volume: ['instance', 'autoscaling-group'],
  'security-group': ['instance', 'autoscaling-group', 'load-balancer', 'nat-gateway'],
  subnet: ['instance', 'autoscaling-group', 'load-balancer', 'nat-gateway'],
  'route-table': ['nat-gateway'],
  'internet-gateway': ['instance', 'autoscaling-group', 'load-balancer', 'nat-gateway', 'elastic-ip'],
  vpc: ['subnet', 'security-group', 'route-table', 'internet-gateway', 'nat-gateway', 'load-balancer', 'target-group', 'instance', 'autoscaling-group'],
  keypair: ['instance', 'autoscaling-group', 'launch-template'],
  'iam-instance-profile': ['instance', 'autoscaling-group', 'launch-template'],
  'iam-role': [],
  'dns-record': [],
  // The node-termination-handler's: the groups (and their lifecycle hooks, which send to the queue) first.
  'eventbridge-rule': ['autoscaling-group'],
  'sqs-queue': ['eventbridge-rule', 'autoscaling-group'],
};

// A family's listing is a dozen calls retried as a whole: under heavy throttling (12% faults) five attempts
// were not enough for the network's (measured with test/cloud/aws/aws-update-faults.test.ts); eight, from
// 100 ms doubling, wait at most ~13 s more in all.
const LIST_ATTEMPTS = 8;
const LIST_FIRST_DELAY_MS = 100;

/** What listClusterResources needs besides the cloud. */
export interface ListClusterResourcesOptions {
  /** `spec.dnsZone`: the zone the `api` records are in; none, no records are looked for. */
  dnsZone?: string;
  /** The role and profile names the model gives the cluster, so a profile that holds no role is found too. */
  iamNames?: readonly string[];
}

/**
 * Every cloud resource of a cluster, found by its tags (both cluster tags, `owned`), by kops's names
 * (IAM) or by the cluster's record names in its zone (Route 53), with `dependsOn` filled in from the kind
 * dependencies above; sorted by type, name and id. A few batched calls per kind, all kinds at once.
 */
export async function listClusterResources(cloud: AwsCloud, options: ListClusterResourcesOptions = {}): Promise<ClusterResource[]> {
  // Listing only reads: a family whose listing meets throttling or a dropped connection is listed again.
  const [network, compute, groups, balancers, iam, dns, nth] = await Promise.all([
    withAwsRetries(() => listNetworkResources(cloud), LIST_ATTEMPTS, LIST_FIRST_DELAY_MS),
    withAwsRetries(() => listComputeResources(cloud), LIST_ATTEMPTS, LIST_FIRST_DELAY_MS),
    withAwsRetries(() => listAutoScalingGroups(cloud), LIST_ATTEMPTS, LIST_FIRST_DELAY_MS),
    withAwsRetries(() => listLoadBalancerResources(cloud), LIST_ATTEMPTS, LIST_FIRST_DELAY_MS),
    withAwsRetries(() => listIamResources(cloud, options.iamNames), LIST_ATTEMPTS, LIST_FIRST_DELAY_MS),
    withAwsRetries(() => listDnsRecords(cloud, options.dnsZone), LIST_ATTEMPTS, LIST_FIRST_DELAY_MS),
    withAwsRetries(() => listNthResources(cloud), LIST_ATTEMPTS, LIST_FIRST_DELAY_MS),
  ]);
  const all: ClusterResource[] = [...network, ...compute, ...groups, ...balancers, ...iam, ...dns, ...nth];
  const idsByType = new Map<string, string[]>();
  for (const r of all) idsByType.set(r.type, [...(idsByType.get(r.type) ?? []), r.id]);
  const groupIds = new Set(groups.map((g) => g.id));
  for (const r of all) {
    const deps = new Set(r.dependsOn);
    for (const kind of BLOCKED_BY[r.type] ?? []) for (const id of idsByType.get(kind) ?? []) deps.add(id);
    r.dependsOn = [...deps].sort();
  }
  // An instance of a listed Auto Scaling group waits for the group: terminated first, the group would replace it.
  for (const i of compute) if (i.type === 'instance' && i.autoScalingGroup && groupIds.has(i.autoScalingGroup)) i.dependsOn = [...i.dependsOn, i.autoScalingGroup].sort();
  return all.map(({ type, name, id, dependsOn, delete: del }) => ({ type, name, id, dependsOn, delete: del })).sort(compareResources);
}

/** Order of listings: type, then name, then id. */
function compareResources(a: ClusterResource, b: ClusterResource): number {
  // Code-unit order, not the locale's: the same listing on every machine.
  const cmp = (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0);
  return cmp(a.type, b.type) || cmp(a.name, b.name) || cmp(a.id, b.id);
}
