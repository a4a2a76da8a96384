import type { HclExpression, TerraformTarget } from '../../../tasks/terraform-target';
import type { SubnetType } from '../../../api/generated/types';
import { diffFields } from '../../../tasks/diff-fields';
import type { AnyTask, Change } from '../../../tasks/task';
import { TaskOutput } from '../../../tasks/task-output';
import type { AwsCloud } from '../aws-cloud';
import { tagMap, TagMap } from '../aws-tags';
import { SharedResourceError } from '../../../errors/shared-resource-error';
import { Cidr } from '../../../net/cidr';
import { AwsTask } from './aws-task';
import { hclLiteral, SharedTerraformValue, tagSharedResource } from './shared-resource';
import type { VpcTask } from './vpc-task';

/** The actual state of a subnet. */
export interface SubnetActual {
  id: string;
  vpcId?: string;
  cidr?: string;
  zone?: string;
  mapPublicIpOnLaunch?: boolean;
  tags: TagMap;
}

/** An existing subnet (`spec.subnets[i].id`): its id, every shared subnet id of the model (one load), and where the spec names it. */
export interface SharedSubnetSpec {
  id: string;
  allIds: readonly string[];
  /** `Cluster/<c> spec.subnets[i]`, for errors. */
  field: string;
}

/**
 * One subnet of the cluster in one zone (Public, Private or Utility, said by its `SubnetType` tag). Public
 * and Utility subnets give the instances launched in them a public address (MapPublicIpOnLaunch): their
 * only way out is the internet gateway (kops sets the same per launch template, with network interfaces).
 * With `shared` it is an existing subnet (kops's `Shared: true`), found by id and never created or modified:
 * find checks that it is in the cluster's VPC, inside one of the VPC's ranges, in the spec's zone and with
 * the spec's CIDR; only the `kubernetes.io/cluster/<c>=shared` tag is ever added.
 */
export class SubnetTask extends AwsTask<SubnetActual> implements SharedTerraformValue {
  readonly kind = 'Subnet';
  /** The subnet id, once it exists. */
  readonly id = new TaskOutput<string>(`Subnet/${this.name} id`);
  protected override readonly immutable = {
    vpcId: 'a subnet cannot move to another VPC',
    cidr: 'a subnet keeps its CIDR for life',
    zone: 'a subnet cannot move to another zone',
  };

  constructor(
    name: string,
    readonly desired: { vpc: VpcTask; cidr: string; /** Absent only for an existing subnet given without one: its own zone, found at find. */ zone?: string; type: SubnetType; mapPublicIpOnLaunch?: boolean; tags: TagMap; shared?: SharedSubnetSpec },
  ) {
    super(name);
  }

  terraformValue(attribute: string): HclExpression | undefined {
    return this.desired.shared && attribute === 'id' ? hclLiteral(this.desired.shared.id) : undefined;
  }

  override dependencies(): readonly AnyTask<AwsCloud>[] {
    return [this.desired.vpc];
  }

  renderTerraform(t: TerraformTarget): void {
    const d = this.desired;
    // A shared subnet is no resource of the cluster: its dependants name its id.
    if (d.shared) return;
    t.addResource(this, 'aws_subnet', {
      availability_zone: d.zone,
      cidr_block: d.cidr,
      map_public_ip_on_launch: d.mapPublicIpOnLaunch ? true : undefined,
      tags: d.tags,
      vpc_id: t.reference(d.vpc, 'id'),
    });
  }

  async find(cloud: AwsCloud): Promise<SubnetActual | undefined> {
    if (this.desired.shared) return this.findShared(cloud, this.desired.shared);
    const s = this.pickOwn(cloud, await cloud.inventory.subnets(), (x) => x.SubnetId);
    if (!s?.SubnetId) return undefined;
    this.id.set(s.SubnetId);
    return { id: s.SubnetId, vpcId: s.VpcId, cidr: s.CidrBlock, zone: s.AvailabilityZone, mapPublicIpOnLaunch: s.MapPublicIpOnLaunch === true, tags: tagMap(s.Tags) };
  }

  /** The existing subnet by id, checked against the VPC and the spec; a missing or unfit subnet stops the plan. */
  private async findShared(cloud: AwsCloud, shared: SharedSubnetSpec): Promise<SubnetActual> {
    const d = this.desired;
    const s = (await cloud.inventory.sharedSubnets(shared.allIds)).find((x) => x.SubnetId === shared.id);
    if (!s?.SubnetId) throw new SharedResourceError(`${shared.field}.id`, `subnet ${shared.id} does not exist in ${cloud.region} (or this account cannot see it)`);
    const vpcId = d.vpc.id.peek();
    if (s.VpcId !== vpcId) throw new SharedResourceError(`${shared.field}.id`, `subnet ${shared.id} is in VPC ${s.VpcId}, not in the cluster's VPC ${vpcId ?? '(none)'} (spec.networkID)`);
    const actual = Cidr.tryParse(s.CidrBlock ?? '');
    if (!actual || !d.vpc.foundCidrs.some((c) => Cidr.tryParse(c)?.contains(actual))) {
      throw new SharedResourceError(`${shared.field}.id`, `subnet ${shared.id} (${s.CidrBlock}) is not inside the ranges of VPC ${vpcId} (${d.vpc.foundCidrs.join(', ')})`);
    }
    // A shared subnet given without a zone (kops allows it) is in whatever zone AWS says.
    if (d.zone !== undefined && s.AvailabilityZone !== d.zone) throw new SharedResourceError(`${shared.field}.zone`, `is ${d.zone}, but subnet ${shared.id} is in ${s.AvailabilityZone}`);
    if (Cidr.tryParse(d.cidr)?.toString() !== actual.toString()) {
      throw new SharedResourceError(`${shared.field}.cidr`, `is ${d.cidr}, but subnet ${shared.id} has ${s.CidrBlock}: set spec.subnets[].cidr to the subnet's range`);
    }
    this.id.set(s.SubnetId);
    return { id: s.SubnetId, vpcId: s.VpcId, cidr: d.cidr, zone: s.AvailabilityZone, mapPublicIpOnLaunch: s.MapPublicIpOnLaunch === true, tags: tagMap(s.Tags) };
  }

  diff(actual: SubnetActual | undefined): Change[] {
    const d = this.desired;
    if (d.shared) return diffFields(actual as unknown as Record<string, unknown>, { tags: d.tags });
    return diffFields(actual as unknown as Record<string, unknown>, { vpcId: d.vpc.id.peek(), cidr: d.cidr, zone: d.zone, mapPublicIpOnLaunch: d.mapPublicIpOnLaunch, tags: d.tags });
  }

  async apply(cloud: AwsCloud, actual: SubnetActual | undefined, changes: readonly Change[]): Promise<void> {
    const { sdk, client } = await cloud.ec2();
    const d = this.desired;
    if (d.shared) {
      // Never created or modified: the shared tag at most.
      if (actual) await tagSharedResource(cloud, actual.id, changes);
      return;
    }
    if (actual) {
      await this.updateTags(cloud, actual.id, changes);
      if (changes.some((c) => c.field === 'mapPublicIpOnLaunch')) await this.setMapPublicIp(cloud, actual.id);
      return;
    }
    const out = await client.send(
      new sdk.CreateSubnetCommand({ VpcId: d.vpc.id.get(), CidrBlock: d.cidr, AvailabilityZone: d.zone, TagSpecifications: this.tagSpec('subnet', d.tags) }),
    );
    if (!out.Subnet?.SubnetId) throw new Error('CreateSubnet returned no SubnetId');
    this.id.set(out.Subnet.SubnetId);
    if (d.mapPublicIpOnLaunch) await this.setMapPublicIp(cloud, out.Subnet.SubnetId);
  }

  /** Sets MapPublicIpOnLaunch to the desired value (an attribute CreateSubnet does not take). */
  private async setMapPublicIp(cloud: AwsCloud, subnetId: string): Promise<void> {
    const { sdk, client } = await cloud.ec2();
    await client.send(new sdk.ModifySubnetAttributeCommand({ SubnetId: subnetId, MapPublicIpOnLaunch: { Value: this.desired.mapPublicIpOnLaunch === true } }));
  }
}
