import type { TerraformTarget } from '../../../tasks/terraform-target';
import { diffFields } from '../../../tasks/diff-fields';
import type { AnyTask, Change } from '../../../tasks/task';
import type { AwsCloud } from '../aws-cloud';
import { AwsTask } from './aws-task';
import type { RouteTableTask } from './route-table-task';
import type { SubnetTask } from './subnet-task';

/** The actual association of a subnet with one of the cluster's route tables. */
export interface RouteTableAssociationActual {
  associationId: string;
  routeTableId?: string;
  subnetId: string;
}

/** Associates a subnet with its route table. */
export class RouteTableAssociationTask extends AwsTask<RouteTableAssociationActual> {
  readonly kind = 'RouteTableAssociation';

  constructor(
    name: string,
    readonly desired: { routeTable: RouteTableTask; subnet: SubnetTask },
  ) {
    super(name);
  }

  override dependencies(): readonly AnyTask<AwsCloud>[] {
    return [this.desired.routeTable, this.desired.subnet];
  }

  renderTerraform(t: TerraformTarget): void {
    t.addResource(this, 'aws_route_table_association', { route_table_id: t.reference(this.desired.routeTable, 'id'), subnet_id: t.reference(this.desired.subnet, 'id') });
  }

  async find(cloud: AwsCloud): Promise<RouteTableAssociationActual | undefined> {
    const subnetId = this.desired.subnet.id.peek();
    if (!subnetId) return undefined;
    // A subnet has at most one explicit association; look for it in all of the cluster's tables.
    for (const table of await cloud.inventory.routeTables()) {
      const a = table.Associations?.find((x) => x.SubnetId === subnetId && !x.Main);
      if (a?.RouteTableAssociationId) return { associationId: a.RouteTableAssociationId, routeTableId: table.RouteTableId, subnetId };
    }
    return undefined;
  }

  diff(actual: RouteTableAssociationActual | undefined): Change[] {
    return diffFields(actual as unknown as Record<string, unknown>, { routeTableId: this.desired.routeTable.id.peek(), subnetId: this.desired.subnet.id.peek() });
  }

  async apply(cloud: AwsCloud, actual: RouteTableAssociationActual | undefined): Promise<void> {
    const { sdk, client } = await cloud.ec2();
    const RouteTableId = this.desired.routeTable.id.get();
    if (actual) await client.send(new sdk.ReplaceRouteTableAssociationCommand({ AssociationId: actual.associationId, RouteTableId }));
    else await client.send(new sdk.AssociateRouteTableCommand({ RouteTableId, SubnetId: this.desired.subnet.id.get() }));
  }
}
