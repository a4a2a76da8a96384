import { diffFields } from '../../../tasks/diff-fields';
import type { AnyTask, Change } from '../../../tasks/task';
import type { AwsCloud } from '../aws-cloud';
import { AwsTask } from './aws-task';
import type { InternetGatewayTask } from './internet-gateway-task';
import type { RouteTableTask } from './route-table-task';

/** The actual state of a route. */
export interface RouteActual {
  routeTableId: string;
  cidr: string;
  gatewayId?: string;
}

/** A route in a route table to an internet gateway, e.g. 0.0.0.0/0 of the public table. */
export class RouteTask extends AwsTask<RouteActual> {
  readonly kind = 'Route';

  constructor(
    name: string,
    readonly desired: { routeTable: RouteTableTask; cidr: string; internetGateway: InternetGatewayTask },
  ) {
    super(name);
  }

  override dependencies(): readonly AnyTask<AwsCloud>[] {
    return [this.desired.routeTable, this.desired.internetGateway];
  }

  async find(cloud: AwsCloud): Promise<RouteActual | undefined> {
    const tableId = this.desired.routeTable.id.peek();
    if (!tableId) return undefined;
    const table = (await cloud.inventory.routeTables()).find((t) => t.RouteTableId === tableId);
    const route = table?.Routes?.find((r) => r.DestinationCidrBlock === this.desired.cidr);
    if (!route) return undefined;
    return { routeTableId: tableId, cidr: this.desired.cidr, gatewayId: route.GatewayId };
  }

  diff(actual: RouteActual | undefined): Change[] {
    return diffFields(actual as unknown as Record<string, unknown>, { cidr: this.desired.cidr, gatewayId: this.desired.internetGateway.id.peek() });
  }

  async apply(cloud: AwsCloud, actual: RouteActual | undefined): Promise<void> {
    const { sdk, client } = await cloud.ec2();
    const input = { RouteTableId: this.desired.routeTable.id.get(), DestinationCidrBlock: this.desired.cidr, GatewayId: this.desired.internetGateway.id.get() };
    // A route that exists with another target is replaced in place, never deleted and re-added.
    await client.send(actual ? new sdk.ReplaceRouteCommand(input) : new sdk.CreateRouteCommand(input));
  }
}
