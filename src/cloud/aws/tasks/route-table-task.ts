import type { TerraformTarget } from '../../../tasks/terraform-target';
import { diffFields } from '../../../tasks/diff-fields';
import type { AnyTask, Change } from '../../../tasks/task';
import { TaskOutput } from '../../../tasks/task-output';
import { taskKey } from '../../../tasks/task';
import type { AwsCloud } from '../aws-cloud';
import { tagMap, TagMap } from '../aws-tags';
import { AwsTask } from './aws-task';
import type { VpcTask } from './vpc-task';

/** The actual state of a route table (its routes and associations are their own tasks). */
export interface RouteTableActual {
  id: string;
  vpcId?: string;
  tags: TagMap;
}

/** A route table of the cluster's VPC; the public one carries `kubernetes.io/kops/role=public`. */
export class RouteTableTask extends AwsTask<RouteTableActual> {
  readonly kind = 'RouteTable';
  /** The route table id, once it exists. */
  readonly id = new TaskOutput<string>(`RouteTable/${this.name} id`);
  protected override readonly immutable = { vpcId: 'a route table cannot move to another VPC' };

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
    t.addResource(this, 'aws_route_table', { tags: this.desired.tags, vpc_id: t.reference(this.desired.vpc, 'id') });
  }

  async find(cloud: AwsCloud): Promise<RouteTableActual | undefined> {
    const rt = this.pickOwn(cloud, await cloud.inventory.routeTables(), (x) => x.RouteTableId);
    if (!rt?.RouteTableId) return undefined;
    this.id.set(rt.RouteTableId);
    return { id: rt.RouteTableId, vpcId: rt.VpcId, tags: tagMap(rt.Tags) };
  }

  diff(actual: RouteTableActual | undefined): Change[] {
    return diffFields(actual as unknown as Record<string, unknown>, { vpcId: this.desired.vpc.id.peek(), tags: this.desired.tags });
  }

  async apply(cloud: AwsCloud, actual: RouteTableActual | undefined, changes: readonly Change[]): Promise<void> {
    if (actual) {
      await this.updateTags(cloud, actual.id, changes);
      return;
    }
    const { sdk, client } = await cloud.ec2();
    const out = await client.send(
      new sdk.CreateRouteTableCommand({
        VpcId: this.desired.vpc.id.get(),
        // CreateRouteTable takes a token: a resent create returns the first table instead of a second one.
        ClientToken: cloud.clientToken(taskKey(this)),
        TagSpecifications: this.tagSpec('route-table', this.desired.tags),
      }),
    );
    if (!out.RouteTable?.RouteTableId) throw new Error('CreateRouteTable returned no RouteTableId');
    this.id.set(out.RouteTable.RouteTableId);
  }
}
