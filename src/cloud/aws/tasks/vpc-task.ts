import type { TerraformTarget } from '../../../tasks/terraform-target';
import { diffFields } from '../../../tasks/diff-fields';
import type { Change } from '../../../tasks/task';
import { TaskOutput } from '../../../tasks/task-output';
import type { AwsCloud } from '../aws-cloud';
import { tagMap, TagMap } from '../aws-tags';
import { AwsTask, pickByName } from './aws-task';

/** The actual state of a VPC. */
export interface VpcActual {
  id: string;
  cidr?: string;
  enableDnsSupport: boolean;
  enableDnsHostnames: boolean;
  tags: TagMap;
}

/** The cluster's VPC, with DNS support and DNS hostnames (instances need both for their private names). */
export class VpcTask extends AwsTask<VpcActual> {
  readonly kind = 'VPC';
  /** The VPC id, once it exists. */
  readonly id = new TaskOutput<string>(`VPC/${this.name} id`);
  protected override readonly immutable = { cidr: 'a VPC keeps its primary CIDR for life; additional ranges are additionalNetworkCIDRs' };

  constructor(
    name: string,
    readonly desired: { cidr: string; tags: TagMap },
  ) {
    super(name);
  }

  renderTerraform(t: TerraformTarget): void {
    t.addResource(this, 'aws_vpc', { cidr_block: this.desired.cidr, enable_dns_hostnames: true, enable_dns_support: true, tags: this.desired.tags });
  }

  async find(cloud: AwsCloud): Promise<VpcActual | undefined> {
    const vpc = pickByName(await cloud.inventory.vpcs(), this.name, (v) => v.VpcId);
    if (!vpc?.VpcId) return undefined;
    this.id.set(vpc.VpcId);
    const attrs = await cloud.inventory.vpcAttributes(vpc.VpcId);
    return { id: vpc.VpcId, cidr: vpc.CidrBlock, ...attrs, tags: tagMap(vpc.Tags) };
  }

  diff(actual: VpcActual | undefined): Change[] {
    return diffFields(actual as unknown as Record<string, unknown>, { cidr: this.desired.cidr, enableDnsSupport: true, enableDnsHostnames: true, tags: this.desired.tags });
  }

  async apply(cloud: AwsCloud, actual: VpcActual | undefined, changes: readonly Change[]): Promise<void> {
    const { sdk, client } = await cloud.ec2();
    let id = actual?.id;
    // AWS creates a VPC with DNS support on and DNS hostnames off.
    const support = actual?.enableDnsSupport ?? true;
    const hostnames = actual?.enableDnsHostnames ?? false;
    if (!id) {
      // CreateVpc takes no ClientToken: the tags come with the create, so a retry finds it by Name first.
      const out = await client.send(new sdk.CreateVpcCommand({ CidrBlock: this.desired.cidr, TagSpecifications: this.tagSpec('vpc', this.desired.tags) }));
      id = out.Vpc?.VpcId;
      if (!id) throw new Error('CreateVpc returned no VpcId');
    } else {
      await this.updateTags(cloud, id, changes);
    }
    this.id.set(id);
    // One attribute per call is all ModifyVpcAttribute accepts.
    if (!support) {
      await client.send(new sdk.ModifyVpcAttributeCommand({ VpcId: id, EnableDnsSupport: { Value: true } }));
    }
    if (!hostnames) {
      await client.send(new sdk.ModifyVpcAttributeCommand({ VpcId: id, EnableDnsHostnames: { Value: true } }));
    }
  }
}
