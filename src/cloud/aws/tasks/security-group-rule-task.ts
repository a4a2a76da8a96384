import type { TerraformTarget } from '../../../tasks/terraform-target';
import type { IpPermission } from '@aws-sdk/client-ec2';
import type { AnyTask, Change } from '../../../tasks/task';
import { classifyAwsError } from '../aws-errors';
import type { AwsCloud } from '../aws-cloud';
import { AwsTask } from './aws-task';
import type { SecurityGroupTask } from './security-group-task';

/** One rule: protocol (`tcp`, `udp`, `-1` for all, or a number like `4` for IPIP), ports, and one source. */
export interface SecurityGroupRuleSpec {
  group: SecurityGroupTask;
  direction: 'ingress' | 'egress';
  protocol: string;
  fromPort?: number;
  toPort?: number;
  /** An IPv4 or IPv6 CIDR, or a managed prefix list id (`pl-…`). */
  cidr?: string;
  /** Another group of the cluster (for egress: the destination). */
  sourceGroup?: SecurityGroupTask;
}

/** The actual rule: it exists, in this group. */
export interface SecurityGroupRuleActual {
  groupId: string;
}

/**
 * One rule of a security group. Rules have no fields to update: one exists or not, so a changed rule is a
 * new task (and, once deletions come, the old one goes). Found in the group's description, at no API cost.
 */
export class SecurityGroupRuleTask extends AwsTask<SecurityGroupRuleActual> {
  readonly kind = 'SecurityGroupRule';

  constructor(
    name: string,
    readonly desired: SecurityGroupRuleSpec,
  ) {
    super(name);
  }

  override dependencies(): readonly AnyTask<AwsCloud>[] {
    const d = this.desired;
    return d.sourceGroup && d.sourceGroup !== d.group ? [d.group, d.sourceGroup] : [d.group];
  }

  renderTerraform(t: TerraformTarget): void {
    const d = this.desired;
    // Terraform always wants ports: 0-0 for all protocols and for those without ports (IPIP), as kops writes.
    // ICMPv6 without a type is every type: -1, as kops writes (0-0 would be type 0 only).
    const icmpv6 = ['icmpv6', '58'].includes(d.protocol);
    const ports = this.hasPorts() ? { from_port: d.fromPort, to_port: d.toPort } : icmpv6 ? { from_port: -1, to_port: -1 } : { from_port: 0, to_port: 0 };
    const peer = d.sourceGroup
      ? { source_security_group_id: t.reference(d.sourceGroup, 'id') }
      : d.cidr?.startsWith('pl-')
        ? { prefix_list_ids: [d.cidr] }
        : d.cidr?.includes(':')
          ? { ipv6_cidr_blocks: [d.cidr] }
          : { cidr_blocks: [d.cidr ?? ''] };
    t.addResource(this, 'aws_security_group_rule', { ...ports, ...peer, protocol: d.protocol, security_group_id: t.reference(d.group, 'id'), type: d.direction });
  }

  async find(cloud: AwsCloud): Promise<SecurityGroupRuleActual | undefined> {
    const groupId = this.desired.group.id.peek();
    if (!groupId) return undefined;
    const group = (await cloud.inventory.securityGroups()).find((g) => g.GroupId === groupId);
    const perms = (this.desired.direction === 'ingress' ? group?.IpPermissions : group?.IpPermissionsEgress) ?? [];
    return perms.some((p) => this.matches(p)) ? { groupId } : undefined;
  }

  diff(actual: SecurityGroupRuleActual | undefined): Change[] {
    return actual ? [] : [{ field: 'rule', from: undefined, to: this.describe() }];
  }

  async apply(cloud: AwsCloud): Promise<void> {
    const { sdk, client } = await cloud.ec2();
    const GroupId = this.desired.group.id.get();
    const IpPermissions = [this.permission()];
    try {
      if (this.desired.direction === 'ingress') await client.send(new sdk.AuthorizeSecurityGroupIngressCommand({ GroupId, IpPermissions }));
      else await client.send(new sdk.AuthorizeSecurityGroupEgressCommand({ GroupId, IpPermissions }));
    } catch (e) {
      // The rule is there already (a retried call, or one added by hand): that is the state we want.
      if (classifyAwsError(e) !== 'already-exists') throw e;
    }
  }

  /** The rule in words, for the plan: `ingress tcp 22 from 0.0.0.0/0`. */
  describe(): string {
    const d = this.desired;
    const proto = d.protocol === '-1' ? 'all' : d.protocol;
    const ports = this.hasPorts() ? (d.fromPort === d.toPort ? ` ${d.fromPort}` : ` ${d.fromPort}-${d.toPort}`) : '';
    const peer = d.sourceGroup ? d.sourceGroup.name : (d.cidr ?? '?');
    return `${d.direction} ${proto}${ports} ${d.direction === 'ingress' ? 'from' : 'to'} ${peer}`;
  }

  private hasPorts(): boolean {
    // ICMP's "ports" are its type and code (kops's path-MTU rules: type 3, code 4).
    return ['tcp', 'udp', 'icmp', '6', '17', '1'].includes(this.desired.protocol) && this.desired.fromPort !== undefined;
  }

  private permission(): IpPermission {
    const d = this.desired;
    const p: IpPermission = { IpProtocol: d.protocol };
    if (this.hasPorts()) {
      p.FromPort = d.fromPort;
      p.ToPort = d.toPort;
    } else if (d.protocol !== '-1') {
      // AWS ignores ports for protocols without them (IPIP is 4); moto fails with HTTP 500 unless they are given.
      p.FromPort = -1;
      p.ToPort = -1;
    }
    if (d.sourceGroup) p.UserIdGroupPairs = [{ GroupId: d.sourceGroup.id.get() }];
    else if (d.cidr?.startsWith('pl-')) p.PrefixListIds = [{ PrefixListId: d.cidr }];
    else if (d.cidr?.includes(':')) p.Ipv6Ranges = [{ CidrIpv6: d.cidr }];
    else p.IpRanges = [{ CidrIp: d.cidr }];
    return p;
  }

  /** Whether an actual permission (which may group several sources) includes this rule. */
  private matches(p: IpPermission): boolean {
    const d = this.desired;
    if (String(p.IpProtocol) !== d.protocol) return false;
    // EC2 reports ports only for port-based protocols (-1 or absent otherwise); compare only those.
    if (this.hasPorts() && (p.FromPort !== d.fromPort || p.ToPort !== d.toPort)) return false;
    if (d.sourceGroup) {
      const id = d.sourceGroup.id.peek();
      return id !== undefined && (p.UserIdGroupPairs ?? []).some((g) => g.GroupId === id);
    }
    if (d.cidr?.startsWith('pl-')) return (p.PrefixListIds ?? []).some((x) => x.PrefixListId === d.cidr);
    if (d.cidr?.includes(':')) return (p.Ipv6Ranges ?? []).some((x) => x.CidrIpv6 === d.cidr);
    return (p.IpRanges ?? []).some((x) => x.CidrIp === d.cidr);
  }
}
