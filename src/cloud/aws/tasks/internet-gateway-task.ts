import { HclBlock, HclExpression, type TerraformTarget } from '../../../tasks/terraform-target';
import { SharedResourceError } from '../../../errors/shared-resource-error';
import { diffFields } from '../../../tasks/diff-fields';
import type { AnyTask, Change } from '../../../tasks/task';
import { TaskOutput } from '../../../tasks/task-output';
import type { AwsCloud } from '../aws-cloud';
import { tagMap, TagMap } from '../aws-tags';
import { AwsTask } from './aws-task';
import type { SharedTerraformValue } from './shared-resource';
import type { VpcTask } from './vpc-task';

/** The actual state of an internet gateway; `vpcId` is the VPC it is attached to. */
export interface InternetGatewayActual {
  id: string;
  vpcId?: string;
  tags: TagMap;
}

/**
 * The cluster's internet gateway, attached to its VPC (create and attach are one task, as in kops). With
 * `shared` (a shared VPC, kops's `Shared: true`) it is the gateway already attached to that VPC, found and
 * never created, modified or tagged; a shared VPC without one stops the plan.
 */
export class InternetGatewayTask extends AwsTask<InternetGatewayActual> implements SharedTerraformValue {
  readonly kind = 'InternetGateway';
  /** The gateway id, once it exists. */
  readonly id = new TaskOutput<string>(`InternetGateway/${this.name} id`);
  protected override readonly immutable = { vpcId: 'the gateway is attached to another VPC; detach it first' };

  constructor(
    name: string,
    readonly desired: { vpc: VpcTask; tags: TagMap; shared?: { field: string } },
  ) {
    super(name);
  }

  /** The Terraform data source that finds a shared VPC's gateway, once rendered. */
  private dataSource: HclExpression | undefined;

  terraformValue(attribute: string): HclExpression | undefined {
    if (!this.desired.shared || attribute !== 'id') return undefined;
    return new HclExpression(() => String(this.dataSource));
  }

  override dependencies(): readonly AnyTask<AwsCloud>[] {
    return [this.desired.vpc];
  }

  renderTerraform(t: TerraformTarget): void {
    if (this.desired.shared) {
      // The id of a shared VPC's gateway is not in the spec: Terraform looks it up, as kforge's find does.
      this.dataSource = t.addDataSource('aws_internet_gateway', this.name, {
        filter: new HclBlock({ name: 'attachment.vpc-id', values: [t.reference(this.desired.vpc, 'id')] }),
      });
      return;
    }
    // The attachment is the gateway's vpc_id, as in kops: one resource, like the one task.
    t.addResource(this, 'aws_internet_gateway', { tags: this.desired.tags, vpc_id: t.reference(this.desired.vpc, 'id') });
  }

  async find(cloud: AwsCloud): Promise<InternetGatewayActual | undefined> {
    const shared = this.desired.shared;
    if (shared) {
      const vpcId = this.desired.vpc.id.get();
      const g = [...(await cloud.inventory.internetGatewaysOfVpc(vpcId))].sort((a, b) => ((a.InternetGatewayId ?? '') < (b.InternetGatewayId ?? '') ? -1 : 1))[0];
      if (!g?.InternetGatewayId) throw new SharedResourceError(shared.field, `VPC ${vpcId} has no internet gateway, which the cluster's public and utility subnets need; attach one (kforge does not change a shared VPC)`);
      this.id.set(g.InternetGatewayId);
      return { id: g.InternetGatewayId, vpcId, tags: tagMap(g.Tags) };
    }
    const g = this.pickOwn(cloud, await cloud.inventory.internetGateways(), (x) => x.InternetGatewayId);
    if (!g?.InternetGatewayId) return undefined;
    this.id.set(g.InternetGatewayId);
    const attached = g.Attachments?.find((a) => a.State !== 'detached' && a.State !== 'detaching');
    return { id: g.InternetGatewayId, vpcId: attached?.VpcId, tags: tagMap(g.Tags) };
  }

  diff(actual: InternetGatewayActual | undefined): Change[] {
    // A shared VPC's gateway is used as it is.
    if (this.desired.shared) return [];
    return diffFields(actual as unknown as Record<string, unknown>, { vpcId: this.desired.vpc.id.peek(), tags: this.desired.tags });
  }

  async apply(cloud: AwsCloud, actual: InternetGatewayActual | undefined, changes: readonly Change[]): Promise<void> {
    if (this.desired.shared) return;
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
