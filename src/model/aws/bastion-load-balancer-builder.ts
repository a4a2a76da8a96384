import type { Cluster } from '../../api/types';
import { awsResourceName32 } from '../../cloud/aws/aws-resource-name32';
import { clusterTags } from '../../cloud/aws/aws-tags';
import { ListenerTask } from '../../cloud/aws/tasks/listener-task';
import { NetworkLoadBalancerTask } from '../../cloud/aws/tasks/network-load-balancer-task';
import { SecurityGroupRuleSpec, SecurityGroupRuleTask } from '../../cloud/aws/tasks/security-group-rule-task';
import { SecurityGroupTask } from '../../cloud/aws/tasks/security-group-task';
import type { SubnetTask } from '../../cloud/aws/tasks/subnet-task';
import { TargetGroupTask } from '../../cloud/aws/tasks/target-group-task';
import { SharedResourceError } from '../../errors/shared-resource-error';
import type { AnyTask } from '../../tasks/task';
import type { NetworkTasks } from './network-model-builder';
import { securityGroupRuleName } from './security-group-rule-name';
import { UnsupportedModelError } from './unsupported-model-error';
import { tcpTargetGroup } from './tcp-target-group';

/** The bastion's load balancer: its tasks, and the target group the bastion Auto Scaling groups register in. */
export interface BastionLoadBalancerTasks {
  tasks: AnyTask[];
  targetGroup: TargetGroupTask;
}

/**
 * kops's BastionModelBuilder (pkg/model/awsmodel/bastion.go), pure: SSH reaches the bastion only through a
 * network load balancer (internet-facing unless `spec.topology.bastion.loadBalancer.type` is Internal) in one
 * subnet per zone, with its own group `bastion-elb.<c>`. That group takes 22 from sshAccess and from the
 * load balancer's subnets (kops adds their CIDRs so that the NLB's own traffic passes), each with ICMP
 * "fragmentation needed" (type 3, code 4; ICMPv6 for an IPv6 source) for path-MTU discovery, and egresses
 * anywhere; the bastion takes 22 and that ICMP from the group, and the group that ICMP from the bastion.
 * `additionalSecurityGroups` of the load balancer are existing groups added to it.
 */
export function buildBastionLoadBalancerTasks(cluster: Cluster, network: NetworkTasks, bastion: SecurityGroupTask): BastionLoadBalancerTasks {
  const c = cluster.metadata.name;
  const labels = { ...(cluster.spec.cloudLabels ?? {}) };
  const lbSpec = cluster.spec.topology?.bastion?.loadBalancer;
  const f = 'spec.topology.bastion.loadBalancer';
  const type = lbSpec?.type ?? 'Public';
  if (type !== 'Public' && type !== 'Internal') throw new UnsupportedModelError(`${f}.type`, `bastion load balancer type "${String(type)}" (Public or Internal)`);

  const fits = (s: SubnetTask): boolean => (type === 'Public' ? s.desired.type === 'Public' || s.desired.type === 'Utility' : s.desired.type === 'Private');
  const candidates = network.subnets.filter(fits);
  if (candidates.length === 0) throw new UnsupportedModelError(`${f}.type`, `a ${type} bastion load balancer without a ${type === 'Public' ? 'public or utility' : 'private'} subnet`);
  const best = new Map<string, SubnetTask>();
  const score = (s: SubnetTask): number => (s.desired.type === 'Utility' ? 1 : 0);
  for (const s of candidates) {
    // An existing subnet given without its zone stands on its own (AWS refuses two subnets of one zone).
    const key = s.desired.zone ?? s.name;
    const cur = best.get(key);
    if (!cur || score(s) > score(cur) || (score(s) === score(cur) && s.name < cur.name)) best.set(key, s);
  }
  const subnets = [...best.keys()].sort().map((z) => best.get(z) as SubnetTask);

  const lbGroup = new SecurityGroupTask(`bastion-elb.${c}`, { vpc: network.vpc, description: 'Security group for bastion ELB', tags: clusterTags(c, `bastion-elb.${c}`, labels) });
  const rules: SecurityGroupRuleTask[] = [];
  const rule = (r: SecurityGroupRuleSpec): void => void rules.push(new SecurityGroupRuleTask(securityGroupRuleName(r), r));
  for (const cidr of ['0.0.0.0/0', '::/0']) rule({ group: lbGroup, direction: 'egress', protocol: '-1', cidr });
  const sources = [...new Set([...candidates.map((s) => s.desired.cidr).filter((x): x is string => !!x).sort(), ...(cluster.spec.sshAccess ?? [])])];
  for (const cidr of sources) {
    rule({ group: lbGroup, direction: 'ingress', protocol: 'tcp', fromPort: 22, toPort: 22, cidr });
    const ipv6 = cidr.includes(':');
    const ipv4 = !ipv6 && !cidr.startsWith('pl-');
    if (!ipv4) rules.push(new SecurityGroupRuleTask(`icmpv6-pmtu-ssh-nlb-${cidr}`, { group: lbGroup, direction: 'ingress', protocol: 'icmpv6', cidr }));
    if (!ipv6) rules.push(new SecurityGroupRuleTask(`icmp-pmtu-ssh-nlb-${cidr}`, { group: lbGroup, direction: 'ingress', protocol: 'icmp', fromPort: 3, toPort: 4, cidr }));
  }
  rules.push(
    new SecurityGroupRuleTask('ssh-to-bastion', { group: bastion, direction: 'ingress', protocol: 'tcp', fromPort: 22, toPort: 22, sourceGroup: lbGroup }),
    new SecurityGroupRuleTask('icmp-to-bastion', { group: bastion, direction: 'ingress', protocol: 'icmp', fromPort: 3, toPort: 4, sourceGroup: lbGroup }),
    new SecurityGroupRuleTask('icmp-from-bastion', { group: lbGroup, direction: 'ingress', protocol: 'icmp', fromPort: 3, toPort: 4, sourceGroup: bastion }),
  );

  const dashed = c.replace(/\./g, '-');
  const nlb = new NetworkLoadBalancerTask(`bastion-${dashed}`, {
    loadBalancerName: awsResourceName32(c, 'bastion'),
    scheme: type === 'Internal' ? 'internal' : 'internet-facing',
    subnets,
    securityGroups: [lbGroup, ...additionalGroups(cluster, network)],
    crossZoneLoadBalancing: false,
    tags: clusterTags(c, `bastion.${c}`, labels),
  });
  const targetGroup = tcpTargetGroup(c, 'bastion', 22, network, labels);
  const listener = new ListenerTask(`bastion-${dashed}-22`, { loadBalancer: nlb, port: 22, targetGroup });
  return { tasks: [lbGroup, ...rules, nlb, targetGroup, listener], targetGroup };
}

/** `spec.topology.bastion.loadBalancer.additionalSecurityGroups`: existing groups (kops's `Shared: true`), found by id in the cluster's VPC at update. */
function additionalGroups(cluster: Cluster, network: NetworkTasks): SecurityGroupTask[] {
  const ids = [...new Set(cluster.spec.topology?.bastion?.loadBalancer?.additionalSecurityGroups ?? [])].sort();
  return ids.map((id) => {
    const field = 'spec.topology.bastion.loadBalancer.additionalSecurityGroups';
    if (!/^sg-[0-9a-f]+$/.test(id)) throw new SharedResourceError(field, `"${id}" is not a security group id (sg-…)`);
    return new SecurityGroupTask(id, { vpc: network.vpc, description: '', tags: {}, shared: { id, allIds: ids, field } });
  });
}
