import { HclBlock, type TerraformTarget } from '../../../tasks/terraform-target';
import { diffFields } from '../../../tasks/diff-fields';
import { AnyTask, Change, taskKey } from '../../../tasks/task';
import { TaskOutput } from '../../../tasks/task-output';
import type { AwsCloud } from '../aws-cloud';
import { tagList, TagMap } from '../aws-tags';
import { ResourceNotOwnedError } from '../resource-not-owned-error';
import { AwsTask } from './aws-task';
import { addElbv2Tags } from './elbv2-tags';
import type { SecurityGroupTask } from './security-group-task';
import type { SubnetTask } from './subnet-task';

// The load balancer attribute that spreads each zone's traffic over the targets of every zone.
const CROSS_ZONE = 'load_balancing.cross_zone.enabled';

/** The actual state of a network load balancer. */
export interface NetworkLoadBalancerActual {
  arn: string;
  scheme?: string;
  type?: string;
  /** Subnet ids, sorted. */
  subnets: string[];
  /** Security group ids, sorted. */
  securityGroups: string[];
  crossZoneLoadBalancing: boolean;
  tags: TagMap;
}

/** What the model wants of the API's network load balancer. */
export interface NetworkLoadBalancerSpec {
  /** The ELB name (32 characters at most, kops's hashed `api-<cluster>-<hash>`); the task's name is kops's `api-<cluster>`. */
  loadBalancerName: string;
  scheme: 'internet-facing' | 'internal';
  /** One subnet per zone. */
  subnets: SubnetTask[];
  /** Its security groups (kops's `api-elb.<cluster>`): clients reach it by these, and the control plane admits them. */
  securityGroups: SecurityGroupTask[];
  /** `spec.api.loadBalancer.crossZoneLoadBalancing`; kops's default (and AWS's for NLBs) is off. */
  crossZoneLoadBalancing: boolean;
  tags: TagMap;
}

/**
 * The network load balancer in front of the Kubernetes API (kops's NetworkLoadBalancer task): TCP only,
 * with its own security group, as kops's (`api-elb.<cluster>`): kubernetesApiAccess reaches the load
 * balancer, and the control plane takes 443 only from it. AWS lets a network load balancer created without
 * security groups never have one, so such a load balancer (made by an older kforge) must be deleted once.
 * Found by its ELB name and confirmed as the cluster's by its tags. Its DNS name and hosted zone feed the
 * Route 53 alias records.
 */
export class NetworkLoadBalancerTask extends AwsTask<NetworkLoadBalancerActual> {
  readonly kind = 'NetworkLoadBalancer';
  /** The load balancer's ARN, once it exists. */
  readonly arn = new TaskOutput<string>(`NetworkLoadBalancer/${this.name} ARN`);
  /** Its DNS name (`<name>-<id>.elb.<region>.amazonaws.com`), the target of alias records. */
  readonly dnsName = new TaskOutput<string>(`NetworkLoadBalancer/${this.name} DNS name`);
  /** The Route 53 hosted zone of its DNS name, which alias records must name. */
  readonly canonicalHostedZoneId = new TaskOutput<string>(`NetworkLoadBalancer/${this.name} hosted zone`);
  protected override readonly immutable = {
    scheme: 'a load balancer cannot switch between internet-facing and internal; delete it to change spec.api.loadBalancer.type',
    type: 'a load balancer keeps its type',
  };

  constructor(
    name: string,
    readonly desired: NetworkLoadBalancerSpec,
  ) {
    super(name);
  }

  override dependencies(): readonly AnyTask<AwsCloud>[] {
    return [...this.desired.subnets, ...this.desired.securityGroups];
  }

  renderTerraform(t: TerraformTarget): void {
    const d = this.desired;
    t.addResource(this, 'aws_lb', {
      enable_cross_zone_load_balancing: d.crossZoneLoadBalancing,
      internal: d.scheme === 'internal',
      ip_address_type: 'ipv4',
      load_balancer_type: 'network',
      name: d.loadBalancerName,
      security_groups: d.securityGroups.map((g) => t.reference(g, 'id')),
      subnet_mapping: d.subnets.map((s) => new HclBlock({ subnet_id: t.reference(s, 'id') })),
      tags: d.tags,
    });
  }

  async find(cloud: AwsCloud): Promise<NetworkLoadBalancerActual | undefined> {
    const found = (await cloud.inventory.endpoint.loadBalancers([this.desired.loadBalancerName])).find((l) => l.resource.LoadBalancerName === this.desired.loadBalancerName);
    if (!found?.resource.LoadBalancerArn) return undefined;
    if (!found.owned) throw new ResourceNotOwnedError(taskKey(this), `a load balancer named "${this.desired.loadBalancerName}"`, cloud.clusterName);
    const lb = found.resource;
    this.arn.set(found.resource.LoadBalancerArn);
    if (lb.DNSName) this.dnsName.set(lb.DNSName);
    if (lb.CanonicalHostedZoneId) this.canonicalHostedZoneId.set(lb.CanonicalHostedZoneId);
    const subnets = (lb.AvailabilityZones ?? []).map((z) => z.SubnetId).filter((s): s is string => s !== undefined);
    const attributes = await cloud.inventory.endpoint.loadBalancerAttributes(found.resource.LoadBalancerArn);
    return {
      arn: found.resource.LoadBalancerArn,
      scheme: lb.Scheme,
      type: lb.Type,
      subnets: subnets.sort(),
      securityGroups: [...(lb.SecurityGroups ?? [])].sort(),
      crossZoneLoadBalancing: attributes[CROSS_ZONE] === 'true',
      tags: found.tags,
    };
  }

  diff(actual: NetworkLoadBalancerActual | undefined): Change[] {
    const d = this.desired;
    return diffFields(actual as unknown as Record<string, unknown>, {
      scheme: d.scheme,
      type: 'network',
      subnets: this.subnetIds(),
      securityGroups: this.securityGroupIds(),
      crossZoneLoadBalancing: d.crossZoneLoadBalancing,
      tags: d.tags,
    });
  }

  async apply(cloud: AwsCloud, actual: NetworkLoadBalancerActual | undefined, changes: readonly Change[]): Promise<void> {
    const { sdk, client } = await cloud.elbv2();
    const d = this.desired;
    if (actual) {
      if (changes.some((c) => c.field === 'subnets')) await client.send(new sdk.SetSubnetsCommand({ LoadBalancerArn: actual.arn, Subnets: this.subnetIds() }));
      if (changes.some((c) => c.field === 'securityGroups')) {
        await client.send(new sdk.SetSecurityGroupsCommand({ LoadBalancerArn: actual.arn, SecurityGroups: d.securityGroups.map((g) => g.id.get()) }));
      }
      if (changes.some((c) => c.field === 'crossZoneLoadBalancing')) await this.setCrossZone(cloud, actual.arn);
      await addElbv2Tags(cloud, actual.arn, changes);
      return;
    }
    // CreateLoadBalancer is idempotent by name for the same settings: a resent create returns the same one.
    const out = await client.send(
      new sdk.CreateLoadBalancerCommand({
        Name: d.loadBalancerName,
        Type: 'network',
        Scheme: d.scheme,
        IpAddressType: 'ipv4',
        Subnets: d.subnets.map((s) => s.id.get()),
        SecurityGroups: d.securityGroups.map((g) => g.id.get()),
        Tags: tagList(d.tags),
      }),
    );
    const lb = out.LoadBalancers?.[0];
    if (!lb?.LoadBalancerArn) throw new Error('CreateLoadBalancer returned no LoadBalancerArn');
    this.arn.set(lb.LoadBalancerArn);
    if (lb.DNSName) this.dnsName.set(lb.DNSName);
    if (lb.CanonicalHostedZoneId) this.canonicalHostedZoneId.set(lb.CanonicalHostedZoneId);
    // A new NLB has cross-zone load balancing off; only turning it on needs a call.
    if (d.crossZoneLoadBalancing) await this.setCrossZone(cloud, lb.LoadBalancerArn);
  }

  /** Sets cross-zone load balancing to the desired value. */
  private async setCrossZone(cloud: AwsCloud, arn: string): Promise<void> {
    const { sdk, client } = await cloud.elbv2();
    const Value = String(this.desired.crossZoneLoadBalancing);
    await client.send(new sdk.ModifyLoadBalancerAttributesCommand({ LoadBalancerArn: arn, Attributes: [{ Key: CROSS_ZONE, Value }] }));
  }

  /** The security groups' ids, sorted; one not made yet shows by its name. */
  private securityGroupIds(): string[] {
    return this.desired.securityGroups.map((g) => g.id.peek() ?? `<${g.name}>`).sort();
  }

  /** The subnets' ids, sorted; a subnet not made yet shows by its name, so the plan still shows the change. */
  private subnetIds(): string[] {
    return this.desired.subnets.map((s) => s.id.peek() ?? `<${s.name}>`).sort();
  }
}
