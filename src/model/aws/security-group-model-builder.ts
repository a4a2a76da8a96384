import type { Cluster } from '../../api/types';
import { clusterTags } from '../../cloud/aws/aws-tags';
import { SecurityGroupRuleSpec, SecurityGroupRuleTask } from '../../cloud/aws/tasks/security-group-rule-task';
import { SecurityGroupTask } from '../../cloud/aws/tasks/security-group-task';
import type { VpcTask } from '../../cloud/aws/tasks/vpc-task';
import type { AnyTask } from '../../tasks/task';
import { securityGroupRuleName } from './security-group-rule-name';

/** The security groups of a cluster and their rules. */
export interface SecurityGroupTasks {
  controlPlane: SecurityGroupTask;
  nodes: SecurityGroupTask;
  /** `bastion.<c>`, when the cluster has a bastion instance group. */
  bastion?: SecurityGroupTask;
  tasks: AnyTask[];
}

// Nodes may reach the control plane on everything except etcd's client and peer ports (2380-2382 and
// 4001-4002), which only control-plane members use: kops's FirewallModelBuilder.
const NODE_TO_CONTROL_PLANE: ReadonlyArray<[string, number, number]> = [
  ['tcp', 1, 2379],
  ['tcp', 2383, 4000],
  ['tcp', 4003, 65535],
  ['udp', 1, 65535],
];

/**
 * kops's FirewallModelBuilder and ExternalAccessModelBuilder, pure: groups `masters.<c>` and `nodes.<c>`;
 * SSH from sshAccess to both; 443 from kubernetesApiAccess to the control plane when there is no API load
 * balancer (with one, only from its group); control plane ↔ control
 * plane, control plane → nodes and nodes ↔ nodes all traffic; nodes → control plane all but the etcd
 * ports, plus IPIP (protocol 4) with Calico or kube-router; NodePorts (TCP and UDP 30000-32767) from nodePortAccess; egress to anywhere.
 * With a bastion (kops's BastionModelBuilder): a `bastion.<c>` group, which takes SSH from its load
 * balancer's group (bastion-load-balancer-builder.ts), and the control plane and nodes take SSH from the bastion only.
 */
export function buildSecurityGroupTasks(cluster: Cluster, vpc: VpcTask, options: { bastion?: boolean } = {}): SecurityGroupTasks {
  const c = cluster.metadata.name;
  const spec = cluster.spec;
  const labels = { ...(spec.cloudLabels ?? {}) };
  const group = (role: 'masters' | 'nodes' | 'bastion'): SecurityGroupTask =>
    new SecurityGroupTask(`${role}.${c}`, { vpc, description: `Security group for ${role}`, tags: clusterTags(c, `${role}.${c}`, labels) });
  const masters = group('masters');
  const nodes = group('nodes');
  const rules: SecurityGroupRuleTask[] = [];
  const rule = (r: SecurityGroupRuleSpec): void => {
    rules.push(new SecurityGroupRuleTask(securityGroupRuleName(r), r));
  };

  const bastion = options.bastion ? group('bastion') : undefined;
  if (bastion) {
    // SSH reaches the bastion through its load balancer's group only (bastion-load-balancer-builder.ts).
    for (const g of [masters, nodes]) rule({ group: g, direction: 'ingress', protocol: 'tcp', fromPort: 22, toPort: 22, sourceGroup: bastion });
    for (const cidr of ['0.0.0.0/0', '::/0']) rule({ group: bastion, direction: 'egress', protocol: '-1', cidr });
  } else {
    for (const cidr of spec.sshAccess ?? []) for (const g of [masters, nodes]) rule({ group: g, direction: 'ingress', protocol: 'tcp', fromPort: 22, toPort: 22, cidr });
  }
  // With a load balancer, clients reach the API through it and its own group (api-endpoint-model-builder),
  // as kops's ExternalAccessModelBuilder opens 443 to the control plane only without one.
  if (!spec.api?.loadBalancer) for (const cidr of spec.kubernetesApiAccess ?? []) rule({ group: masters, direction: 'ingress', protocol: 'tcp', fromPort: 443, toPort: 443, cidr });
  rule({ group: masters, direction: 'ingress', protocol: '-1', sourceGroup: masters });
  rule({ group: nodes, direction: 'ingress', protocol: '-1', sourceGroup: masters });
  rule({ group: nodes, direction: 'ingress', protocol: '-1', sourceGroup: nodes });
  for (const [protocol, fromPort, toPort] of NODE_TO_CONTROL_PLANE) rule({ group: masters, direction: 'ingress', protocol, fromPort, toPort, sourceGroup: nodes });
  // IPIP (protocol 4) only for the CNIs that tunnel with it, Calico and kube-router: kops's
  // applyNodeToMasterBlockSpecificPorts (pkg/model/awsmodel/firewall.go, commit d0162eeb).
  if (spec.networking?.calico || spec.networking?.kuberouter) rule({ group: masters, direction: 'ingress', protocol: '4', sourceGroup: nodes });
  // amazonvpc: pods on nodes have VPC addresses and may reach pods on the control plane on any port, so kops
  // opens all traffic from nodes to the control plane (firewall.go, all-nodes-to-master).
  if (spec.networking?.amazonvpc) rule({ group: masters, direction: 'ingress', protocol: '-1', sourceGroup: nodes });
  for (const cidr of spec.nodePortAccess ?? []) {
    for (const protocol of ['tcp', 'udp']) rule({ group: nodes, direction: 'ingress', protocol, fromPort: 30000, toPort: 32767, cidr });
  }
  for (const g of [masters, nodes]) for (const cidr of ['0.0.0.0/0', '::/0']) rule({ group: g, direction: 'egress', protocol: '-1', cidr });
  return { controlPlane: masters, nodes, bastion, tasks: [masters, nodes, ...(bastion ? [bastion] : []), ...rules] };
}
