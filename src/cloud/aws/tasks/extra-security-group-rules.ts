import type { IpPermission, SecurityGroup } from '@aws-sdk/client-ec2';
import type { SecurityGroupRuleSpec } from './security-group-rule-task';

/** Which of a group's rules kforge removes when the model no longer has them (kops's SecurityGroup RemoveExtraRules). */
export interface RemoveExtraRules {
  /** TCP ports whose single-port ingress rules from an address range or prefix list the model owns (kops: `port=22`, `port=443`). */
  ports: readonly number[];
  /** The group's rules in the model, read when the group is found (after the model is complete). */
  rules: () => readonly SecurityGroupRuleSpec[];
}

/**
 * The ingress rules of `group` that kforge owns and the model does not have: TCP, exactly one of `extra.ports`,
 * from an IPv4/IPv6 range or a prefix list (rules from other groups, other protocols or port ranges are never
 * touched: a user's own rules stay). One permission per source, as RevokeSecurityGroupIngress takes them.
 */
export function extraIngressRules(group: SecurityGroup, extra: RemoveExtraRules): IpPermission[] {
  const wanted = new Set(
    extra
      .rules()
      .filter((r) => r.direction === 'ingress' && r.protocol === 'tcp' && r.cidr !== undefined)
      .map((r) => `${r.fromPort}-${r.toPort} ${r.cidr}`),
  );
  const out: IpPermission[] = [];
  for (const p of group.IpPermissions ?? []) {
    if (p.IpProtocol !== 'tcp' || p.FromPort === undefined || p.FromPort !== p.ToPort || !extra.ports.includes(p.FromPort)) continue;
    const ports = `${p.FromPort}-${p.ToPort}`;
    const base = { IpProtocol: 'tcp', FromPort: p.FromPort, ToPort: p.ToPort };
    for (const r of p.IpRanges ?? []) if (r.CidrIp && !wanted.has(`${ports} ${r.CidrIp}`)) out.push({ ...base, IpRanges: [{ CidrIp: r.CidrIp }] });
    for (const r of p.Ipv6Ranges ?? []) if (r.CidrIpv6 && !wanted.has(`${ports} ${r.CidrIpv6}`)) out.push({ ...base, Ipv6Ranges: [{ CidrIpv6: r.CidrIpv6 }] });
    for (const r of p.PrefixListIds ?? []) if (r.PrefixListId && !wanted.has(`${ports} ${r.PrefixListId}`)) out.push({ ...base, PrefixListIds: [{ PrefixListId: r.PrefixListId }] });
  }
  return out;
}

/** A rule in words for the plan: `ingress tcp 22 from 0.0.0.0/0`. */
export function describeIngress(p: IpPermission): string {
  const source = p.IpRanges?.[0]?.CidrIp ?? p.Ipv6Ranges?.[0]?.CidrIpv6 ?? p.PrefixListIds?.[0]?.PrefixListId ?? '?';
  return `ingress tcp ${p.FromPort} from ${source}`;
}
