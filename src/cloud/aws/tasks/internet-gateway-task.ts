import type { TerraformTarget } from '../../../tasks/terraform-target';
import { diffFields } from '../../../tasks/diff-fields';
import type { AnyTask, Change } from '../../../tasks/task';
import { TaskOutput } from '../../../tasks/task-output';
import type { AwsCloud } from '../aws-cloud';
import { tagMap, TagMap } from '../aws-tags';
import { AwsTask, pickByName } from './aws-task';
import type { VpcTask } from './vpc-task';

/** The actual state of an internet gateway; `vpcId` is the VPC it is attached to. */
export interface InternetGatewayActual {
  id: string;
  vpcId?: string;
  tags: TagMap;
}

/** The cluster's internet gateway, attached to its VPC (create and attach are one task, as in kops). */
export class InternetGatewayTask extends AwsTask<InternetGatewayActual> {
  readonly kind = 'InternetGateway';
  /** The gateway id, once it exists. */
  readonly id = new TaskOutput<string>(`InternetGateway/${this.name} id`);
  protected override readonly immutable = { vpcId: 'the gateway is attached to another VPC; detach it first' };

  constructor(
    name: string,
    readonly desired: { vpc: VpcTask; tags: TagMap },
  ) {
    super(name);
  }

  override dependencies(): readonly AnyTask<AwsCloud>[] {
    return [this.desired.vpc];
  }

  renderTerraform(t: TerraformTarget): void {
    // The attachment is the gateway's vpc_id, as in kops: one resource, like the one task.
    t.addResource(this, 'aws_internet_gateway', { tags: this.desired.tags, vpc_id: t.reference(this.desired.vpc, 'id') });
  }

  async find(cloud: AwsCloud): Promise<InternetGatewayActual | undefined> {
    const g = pickByName(await cloud.inventory.internetGateways(), this.name, (x) => x.InternetGatewayId);
    if (!g?.InternetGatewayId) return undefined;
    this.id.set(g.InternetGatewayId);
    const attached = g.Attachments?.find((a) => a.State !== 'detached' && a.State !== 'detaching');
    return { id: g.InternetGatewayId, vpcId: attached?.VpcId, tags: tagMap(g.Tags) };
  }

  diff(actual: InternetGatewayActual | undefined): Change[] {
    return diffFields(actual as unknown as Record<string, unknown>, { vpcId: this.desired.vpc.id.peek(), tags: this.desired.tags });
  }

  async apply(cloud: AwsCloud, actual: InternetGatewayActual | undefined, changes: readonly Change[]): Promise<void> {
    const { sdk, client } = await cloud.ec2();
    let id = actual?.id;
    if (!id) {
      const out = await client.send(new sdk.CreateInternetGatewayCommand({ TagSpecifications: this.tagSpec('internet-gateway', this.desired.tags) }));
      id = out.InternetGateway?.InternetGatewayId;
      if (!id) throw new Error('CreateInternetGateway returned no InternetGatewayId');
    } else {
      await this.updateTags(cloud, id, changes);
    }
    this.id.set(id);
    const vpcId = this.desired.vpc.id.get();
    if (actual?.vpcId !== vpcId) await client.send(new sdk.AttachInternetGatewayCommand({ InternetGatewayId: id, VpcId: vpcId }));
  }
}
