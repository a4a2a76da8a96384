import type { TerraformTarget } from '../../../tasks/terraform-target';
import { diffFields } from '../../../tasks/diff-fields';
import type { AnyTask, Change } from '../../../tasks/task';
import type { AwsCloud } from '../aws-cloud';
import { AwsTask } from './aws-task';
import type { InternetGatewayTask } from './internet-gateway-task';
import type { NatGatewayTask } from './nat-gateway-task';
import type { RouteTableTask } from './route-table-task';

/** The actual state of a route: its target is an internet gateway, a NAT gateway or a transit gateway. */
export interface RouteActual {
  routeTableId: string;
  cidr: string;
  gatewayId?: string;
  natGatewayId?: string;
  transitGatewayId?: string;
}

/** An existing transit gateway a private zone leaves through (`spec.subnets[i].egress: tgw-…`): used by id, never made or changed. */
export interface TransitGatewayTarget {
  readonly kind: 'TransitGateway';
  readonly transitGatewayId: string;
}

/**
 * A route in a route table: 0.0.0.0/0 to the internet gateway (public table), to a zone's NAT gateway
 * (private tables) or, with kops's `egress: tgw-…`, to an existing transit gateway.
 */
export class RouteTask extends AwsTask<RouteActual> {
  readonly kind = 'Route';

  constructor(
    name: string,
    readonly desired: { routeTable: RouteTableTask; cidr: string; target: InternetGatewayTask | NatGatewayTask | TransitGatewayTarget },
  ) {
    super(name);
  }

  override dependencies(): readonly AnyTask<AwsCloud>[] {
    const t = this.desired.target;
    return t.kind === 'TransitGateway' ? [this.desired.routeTable] : [this.desired.routeTable, t];
  }

  renderTerraform(t: TerraformTarget): void {
    const target = this.desired.target;
    t.addResource(this, 'aws_route', {
      destination_cidr_block: this.desired.cidr,
      gateway_id: target.kind === 'InternetGateway' ? t.reference(target, 'id') : undefined,
      nat_gateway_id: target.kind === 'NatGateway' ? t.reference(target, 'id') : undefined,
      route_table_id: t.reference(this.desired.routeTable, 'id'),
      transit_gateway_id: target.kind === 'TransitGateway' ? target.transitGatewayId : undefined,
    });
  }

  async find(cloud: AwsCloud): Promise<RouteActual | undefined> {
    const tableId = this.desired.routeTable.id.peek();
    if (!tableId) return undefined;
    const table = (await cloud.inventory.routeTables()).find((t) => t.RouteTableId === tableId);
    const route = table?.Routes?.find((r) => r.DestinationCidrBlock === this.desired.cidr);
    if (!route) return undefined;
    return { routeTableId: tableId, cidr: this.desired.cidr, gatewayId: route.GatewayId, natGatewayId: route.NatGatewayId, transitGatewayId: route.TransitGatewayId };
  }

  diff(actual: RouteActual | undefined): Change[] {
    const t = this.desired.target;
    const target = t.kind === 'TransitGateway' ? { transitGatewayId: t.transitGatewayId } : t.kind === 'NatGateway' ? { natGatewayId: t.id.peek() } : { gatewayId: t.id.peek() };
    return diffFields(actual as unknown as Record<string, unknown>, { cidr: this.desired.cidr, ...target });
  }

  async apply(cloud: AwsCloud, actual: RouteActual | undefined): Promise<void> {
    const { sdk, client } = await cloud.ec2();
    const t = this.desired.target;
    const target = t.kind === 'TransitGateway' ? { TransitGatewayId: t.transitGatewayId } : t.kind === 'NatGateway' ? { NatGatewayId: t.id.get() } : { GatewayId: t.id.get() };
    const input = { RouteTableId: this.desired.routeTable.id.get(), DestinationCidrBlock: this.desired.cidr, ...target };
    // A route that exists with another target is replaced in place, never deleted and re-added.
    await client.send(actual ? new sdk.ReplaceRouteCommand(input) : new sdk.CreateRouteCommand(input));
  }
}
