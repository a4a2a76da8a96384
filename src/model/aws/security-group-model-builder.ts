import type { Cluster } from '../../api/types';
import { clusterTags } from '../../cloud/aws/aws-tags';
import { SecurityGroupRuleSpec, SecurityGroupRuleTask } from '../../cloud/aws/tasks/security-group-rule-task';
import { SecurityGroupTask } from '../../cloud/aws/tasks/security-group-task';
import type { VpcTask } from '../../cloud/aws/tasks/vpc-task';
import type { AnyTask } from '../../tasks/task';

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
 * SSH from sshAccess to both; 443 from kubernetesApiAccess to the control plane; control plane ↔ control
 * plane, control plane → nodes and nodes ↔ nodes all traffic; nodes → control plane all but the etcd
 * ports, plus IPIP (protocol 4) with Calico or kube-router; NodePorts (TCP and UDP 30000-32767) from nodePortAccess; egress to anywhere.
 * With a bastion (kops's BastionModelBuilder): a `bastion.<c>` group takes SSH from sshAccess, and the
 * control plane and nodes take SSH from the bastion only.
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
    const proto = r.protocol === '-1' ? 'all' : r.protocol;
    const ports = `${r.fromPort ?? 0}to${r.toPort ?? 0}`;
    const peer = r.sourceGroup?.name ?? r.cidr;
    // kops's rule names: from-<source>-<direction>-<protocol>-<ports>-<group>; egress names the destination last.
    const name = r.direction === 'ingress' ? `from-${peer}-ingress-${proto}-${ports}-${r.group.name}` : `from-${r.group.name}-egress-${proto}-${ports}-${peer}`;
    rules.push(new SecurityGroupRuleTask(name, r));
  };

  const bastion = options.bastion ? group('bastion') : undefined;
  if (bastion) {
    for (const cidr of spec.sshAccess ?? []) rule({ group: bastion, direction: 'ingress', protocol: 'tcp', fromPort: 22, toPort: 22, cidr });
    for (const g of [masters, nodes]) rule({ group: g, direction: 'ingress', protocol: 'tcp', fromPort: 22, toPort: 22, sourceGroup: bastion });
    for (const cidr of ['0.0.0.0/0', '::/0']) rule({ group: bastion, direction: 'egress', protocol: '-1', cidr });
  } else {
    for (const cidr of spec.sshAccess ?? []) for (const g of [masters, nodes]) rule({ group: g, direction: 'ingress', protocol: 'tcp', fromPort: 22, toPort: 22, cidr });
  }
  for (const cidr of spec.kubernetesApiAccess ?? []) rule({ group: masters, direction: 'ingress', protocol: 'tcp', fromPort: 443, toPort: 443, cidr });
  rule({ group: masters, direction: 'ingress', protocol: '-1', sourceGroup: masters });
  rule({ group: nodes, direction: 'ingress', protocol: '-1', sourceGroup: masters });
  rule({ group: nodes, direction: 'ingress', protocol: '-1', sourceGroup: nodes });
  for (const [protocol, fromPort, toPort] of NODE_TO_CONTROL_PLANE) rule({ group: masters, direction: 'ingress', protocol, fromPort, toPort, sourceGroup: nodes });
  // IPIP (protocol 4) only for the CNIs that tunnel with it, Calico and kube-router: kops's
  // applyNodeToMasterBlockSpecificPorts (pkg/model/awsmodel/firewall.go, commit d0162eeb).
  if (spec.networking?.calico || spec.networking?.kuberouter) rule({ group: masters, direction: 'ingress', protocol: '4', sourceGroup: nodes });
  for (const cidr of spec.nodePortAccess ?? []) {
    for (const protocol of ['tcp', 'udp']) rule({ group: nodes, direction: 'ingress', protocol, fromPort: 30000, toPort: 32767, cidr });
  }
  for (const g of [masters, nodes]) for (const cidr of ['0.0.0.0/0', '::/0']) rule({ group: g, direction: 'egress', protocol: '-1', cidr });
  return { controlPlane: masters, nodes, bastion, tasks: [masters, nodes, ...(bastion ? [bastion] : []), ...rules] };
}
