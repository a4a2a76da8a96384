import type { HclExpression, TerraformTarget } from '../../../tasks/terraform-target';
import { diffFields } from '../../../tasks/diff-fields';
import type { Change } from '../../../tasks/task';
import { TaskOutput } from '../../../tasks/task-output';
import type { AwsCloud } from '../aws-cloud';
import { tagMap, TagMap } from '../aws-tags';
import { SharedResourceError } from '../../../errors/shared-resource-error';
import { Cidr } from '../../../net/cidr';
import { AwsTask } from './aws-task';
import { hclLiteral, SharedTerraformValue, tagSharedResource } from './shared-resource';

/** The actual state of a VPC. */
export interface VpcActual {
  id: string;
  cidr?: string;
  enableDnsSupport: boolean;
  enableDnsHostnames: boolean;
  tags: TagMap;
}

/**
 * The cluster's VPC, with DNS support and DNS hostnames (instances need both for their private names). With
 * `shared` (`spec.networkID`, kops's `Shared: true`) it is an existing VPC, found by id and never created or
 * modified: find checks that it exists, that `cidr` (`spec.networkCIDR`) is one of its ranges and that DNS
 * support is on, and only the `kubernetes.io/cluster/<c>=shared` tag is ever added.
 */
export class VpcTask extends AwsTask<VpcActual> implements SharedTerraformValue {
  readonly kind = 'VPC';
  /** The VPC id, once it exists. */
  readonly id = new TaskOutput<string>(`VPC/${this.name} id`);
  /** Every IPv4 range of the VPC as found (the primary and the associated ones); subnets are checked against them. */
  foundCidrs: string[] = [];
  protected override readonly immutable = { cidr: 'a VPC keeps its primary CIDR for life; additional ranges are additionalNetworkCIDRs' };

  constructor(
    name: string,
    readonly desired: { cidr: string; tags: TagMap; shared?: { id: string; field: string; cidrField: string } },
  ) {
    super(name);
  }

  terraformValue(attribute: string): HclExpression | undefined {
    const shared = this.desired.shared;
    if (!shared) return undefined;
    return hclLiteral(attribute === 'cidr_block' ? this.desired.cidr : shared.id);
  }

  renderTerraform(t: TerraformTarget): void {
    // A shared VPC is no resource of the cluster: its dependants name its id.
    if (this.desired.shared) return;
    t.addResource(this, 'aws_vpc', { cidr_block: this.desired.cidr, enable_dns_hostnames: true, enable_dns_support: true, tags: this.desired.tags });
  }

  async find(cloud: AwsCloud): Promise<VpcActual | undefined> {
    if (this.desired.shared) return this.findShared(cloud, this.desired.shared);
    const vpc = this.pickOwn(cloud, await cloud.inventory.vpcs(), (v) => v.VpcId);
    if (!vpc?.VpcId) return undefined;
    this.id.set(vpc.VpcId);
    const attrs = await cloud.inventory.vpcAttributes(vpc.VpcId);
    return { id: vpc.VpcId, cidr: vpc.CidrBlock, ...attrs, tags: tagMap(vpc.Tags) };
  }

  /** The existing VPC by id, checked against the spec; a missing or unfit VPC stops the plan. */
  private async findShared(cloud: AwsCloud, shared: { id: string; field: string; cidrField: string }): Promise<VpcActual> {
    const vpc = (await cloud.inventory.sharedVpcs([shared.id])).find((v) => v.VpcId === shared.id);
    if (!vpc?.VpcId) throw new SharedResourceError(shared.field, `VPC ${shared.id} does not exist in ${cloud.region} (or this account cannot see it)`);
    const cidrs = [vpc.CidrBlock, ...(vpc.CidrBlockAssociationSet ?? []).filter((a) => a.CidrBlockState?.State === 'associated').map((a) => a.CidrBlock)].filter((c): c is string => !!c);
    this.foundCidrs = [...new Set(cidrs)];
    const want = Cidr.tryParse(this.desired.cidr)?.toString();
    if (!this.foundCidrs.some((c) => Cidr.tryParse(c)?.toString() === want)) {
      throw new SharedResourceError(shared.cidrField, `${this.desired.cidr} is not a range of VPC ${shared.id} (${this.foundCidrs.join(', ')}); set it to the VPC's range`);
    }
    const attrs = await cloud.inventory.vpcAttributes(vpc.VpcId);
    // kops refuses a shared VPC without DNS support too: instances could not resolve anything.
    if (!attrs.enableDnsSupport) throw new SharedResourceError(shared.field, `VPC ${shared.id} has DNS support off; kforge does not change a shared VPC: turn enableDnsSupport on`);
    this.id.set(vpc.VpcId);
    return { id: vpc.VpcId, cidr: this.desired.cidr, ...attrs, tags: tagMap(vpc.Tags) };
  }

  diff(actual: VpcActual | undefined): Change[] {
    if (this.desired.shared) return diffFields(actual as unknown as Record<string, unknown>, { tags: this.desired.tags });
    return diffFields(actual as unknown as Record<string, unknown>, { cidr: this.desired.cidr, enableDnsSupport: true, enableDnsHostnames: true, tags: this.desired.tags });
  }

  async apply(cloud: AwsCloud, actual: VpcActual | undefined, changes: readonly Change[]): Promise<void> {
    if (this.desired.shared) {
      // Never created or modified: the shared tag at most.
      if (actual) await tagSharedResource(cloud, actual.id, changes);
      return;
    }
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
