import type { SecurityGroupRuleSpec } from '../../cloud/aws/tasks/security-group-rule-task';

/**
 * kops's generated rule name (AddDirectionalGroupRule's generateName, pkg/model/awsmodel/firewall.go):
 * `from-<source>-ingress-<protocol>-<from>to<to>-<group>`; an egress rule names its destination last.
 */
export function securityGroupRuleName(r: SecurityGroupRuleSpec): string {
  const proto = r.protocol === '-1' ? 'all' : r.protocol;
  const ports = `${r.fromPort ?? 0}to${r.toPort ?? 0}`;
  const peer = r.sourceGroup?.name ?? r.cidr;
  return r.direction === 'ingress' ? `from-${peer}-ingress-${proto}-${ports}-${r.group.name}` : `from-${r.group.name}-egress-${proto}-${ports}-${peer}`;
}
