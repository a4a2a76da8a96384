import type { TerraformTarget } from '../../../tasks/terraform-target';
import { diffFields } from '../../../tasks/diff-fields';
import type { Change } from '../../../tasks/task';
import { TaskOutput } from '../../../tasks/task-output';
import type { AwsCloud } from '../aws-cloud';
import { tagMap, TagMap } from '../aws-tags';
import { AwsTask } from './aws-task';

/** The actual state of an Elastic IP. */
export interface ElasticIpActual {
  allocationId: string;
  publicIp?: string;
  tags: TagMap;
}

/** An Elastic IP in the VPC domain, for a zone's NAT gateway (private topology). */
export class ElasticIpTask extends AwsTask<ElasticIpActual> {
  readonly kind = 'ElasticIP';
  /** The allocation id, once the address exists. */
  readonly allocationId = new TaskOutput<string>(`ElasticIP/${this.name} allocation id`);

  constructor(
    name: string,
    readonly desired: { tags: TagMap },
  ) {
    super(name);
  }

  renderTerraform(t: TerraformTarget): void {
    // `domain = "vpc"` is the AWS provider 5 spelling (the older `vpc = true` is deprecated).
    t.addResource(this, 'aws_eip', { domain: 'vpc', tags: this.desired.tags });
  }

  async find(cloud: AwsCloud): Promise<ElasticIpActual | undefined> {
    const a = this.pickOwn(cloud, await cloud.inventory.addresses(), (x) => x.AllocationId);
    if (!a?.AllocationId) return undefined;
    this.allocationId.set(a.AllocationId);
    return { allocationId: a.AllocationId, publicIp: a.PublicIp, tags: tagMap(a.Tags) };
  }

  diff(actual: ElasticIpActual | undefined): Change[] {
    return diffFields(actual as unknown as Record<string, unknown>, { tags: this.desired.tags });
  }

  async apply(cloud: AwsCloud, actual: ElasticIpActual | undefined, changes: readonly Change[]): Promise<void> {
    if (actual) {
      await this.updateTags(cloud, actual.allocationId, changes);
      return;
    }
    const { sdk, client } = await cloud.ec2();
    // AllocateAddress takes no token; the unconfirmed-create guard keeps the SDK from resending it, and a
    // retry finds the address by its tags.
    const out = await client.send(new sdk.AllocateAddressCommand({ Domain: 'vpc', TagSpecifications: this.tagSpec('elastic-ip', this.desired.tags) }));
    if (!out.AllocationId) throw new Error('AllocateAddress returned no AllocationId');
    this.allocationId.set(out.AllocationId);
  }
}
