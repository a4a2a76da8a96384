import type { TerraformTarget } from '../../../tasks/terraform-target';
import type { SubnetType } from '../../../api/generated/types';
import { diffFields } from '../../../tasks/diff-fields';
import type { AnyTask, Change } from '../../../tasks/task';
import { TaskOutput } from '../../../tasks/task-output';
import type { AwsCloud } from '../aws-cloud';
import { tagMap, TagMap } from '../aws-tags';
import { AwsTask, pickByName } from './aws-task';
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

/**
 * One subnet of the cluster in one zone (Public, Private or Utility, said by its `SubnetType` tag). Public
 * and Utility subnets give the instances launched in them a public address (MapPublicIpOnLaunch): their
 * only way out is the internet gateway (kops sets the same per launch template, with network interfaces).
 */
export class SubnetTask extends AwsTask<SubnetActual> {
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
    readonly desired: { vpc: VpcTask; cidr: string; zone: string; type: SubnetType; mapPublicIpOnLaunch?: boolean; tags: TagMap },
  ) {
    super(name);
  }

  override dependencies(): readonly AnyTask<AwsCloud>[] {
    return [this.desired.vpc];
  }

  renderTerraform(t: TerraformTarget): void {
    const d = this.desired;
    t.addResource(this, 'aws_subnet', {
      availability_zone: d.zone,
      cidr_block: d.cidr,
      map_public_ip_on_launch: d.mapPublicIpOnLaunch ? true : undefined,
      tags: d.tags,
      vpc_id: t.reference(d.vpc, 'id'),
    });
  }

  async find(cloud: AwsCloud): Promise<SubnetActual | undefined> {
    const s = pickByName(await cloud.inventory.subnets(), this.name, (x) => x.SubnetId);
    if (!s?.SubnetId) return undefined;
    this.id.set(s.SubnetId);
    return { id: s.SubnetId, vpcId: s.VpcId, cidr: s.CidrBlock, zone: s.AvailabilityZone, mapPublicIpOnLaunch: s.MapPublicIpOnLaunch === true, tags: tagMap(s.Tags) };
  }

  diff(actual: SubnetActual | undefined): Change[] {
    const d = this.desired;
    return diffFields(actual as unknown as Record<string, unknown>, { vpcId: d.vpc.id.peek(), cidr: d.cidr, zone: d.zone, mapPublicIpOnLaunch: d.mapPublicIpOnLaunch, tags: d.tags });
  }

  async apply(cloud: AwsCloud, actual: SubnetActual | undefined, changes: readonly Change[]): Promise<void> {
    const { sdk, client } = await cloud.ec2();
    const d = this.desired;
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
