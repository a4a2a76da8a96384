import type { Cluster } from '../../api/types';
import { SecurityGroupRuleTask } from '../../cloud/aws/tasks/security-group-rule-task';
import { SecurityGroupTask } from '../../cloud/aws/tasks/security-group-task';
import type { AnyTask } from '../../tasks/task';

// kops's RemoveExtraRules per group (pkg/model/firewall.go, api_loadbalancer.go, bastion.go): the access
// ports whose address rules come from the spec (sshAccess, kubernetesApiAccess), so a range taken out of the
// spec is closed again at the next update.
const PORTS_BY_ROLE: Readonly<Record<string, readonly number[]>> = { masters: [22, 443], nodes: [22], bastion: [22], 'api-elb': [443], 'bastion-elb': [22] };

/** Marks each of the cluster's own security groups to revoke address rules on its access ports that the model no longer has. */
export function markExtraRulesForRemoval(cluster: Cluster, tasks: readonly AnyTask[]): void {
  const suffix = `.${cluster.metadata.name}`;
  const rules = tasks.filter((t): t is SecurityGroupRuleTask => t instanceof SecurityGroupRuleTask);
  for (const g of tasks) {
    if (!(g instanceof SecurityGroupTask) || g.desired.shared || !g.name.endsWith(suffix)) continue;
    const ports = PORTS_BY_ROLE[g.name.slice(0, -suffix.length)];
    if (ports) g.desired.removeExtraRules = { ports, rules: () => rules.filter((r) => r.desired.group === g).map((r) => r.desired) };
  }
}
