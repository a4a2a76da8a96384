import { HclBlock, TerraformTarget } from '../../../tasks/terraform-target';
import type { GceNetworkTask } from './gce-network-task';
import type { GceSubnetworkTask } from './gce-subnetwork-task';
import type { GceCloud } from '../gce-cloud';
import { GCE_COLLECTIONS, GceResource } from '../gce-compute';
import { gceUrl, GceTask, lastSegment } from './gce-task';

/** The desired Cloud Router with its NAT. */
export interface GceRouterDesired extends Record<string, string | readonly string[] | undefined> {
  region: string;
  /** The subnetworks whose instances egress through the NAT (by name). */
  subnetworks: readonly string[];
}

/**
 * A Cloud Router and its Cloud NAT (kops's gcetasks.Router), giving private subnetworks egress:
 * automatically allocated addresses, for the listed subnetworks' every range.
 */
export class GceRouterTask extends GceTask<GceRouterDesired> {
  readonly kind = 'Router';
  protected override readonly immutable = ['region'] as const;

  constructor(
    name: string,
    desired: GceRouterDesired,
    readonly network: GceNetworkTask,
    readonly natSubnetworks: readonly GceSubnetworkTask[],
  ) {
    super(name, desired);
  }

  /** Its network and the subnetworks it serves. */
  dependencies(): readonly (GceNetworkTask | GceSubnetworkTask)[] {
    return [this.network, ...this.natSubnetworks];
  }

  /** The router in its region. */
  protected override read(cloud: GceCloud): Promise<GceResource | undefined> {
    return cloud.inventory.get(GCE_COLLECTIONS.routers, this.desired.region, this.name);
  }

  /** The subnetworks its NAT serves, by name. */
  protected override actualOf(r: GceResource): GceRouterDesired {
    const nat = ((r.nats ?? []) as Array<{ subnetworks?: Array<{ name?: string }> }>)[0];
    return { region: this.desired.region, subnetworks: (nat?.subnetworks ?? []).map((s) => lastSegment(s.name) ?? '') };
  }

  private nats(cloud: GceCloud): GceResource[] {
    const subnetworks = this.desired.subnetworks.map((s) => ({ name: gceUrl(cloud, `regions/${this.desired.region}/subnetworks/${s}`), sourceIpRangesToNat: ['ALL_IP_RANGES'] }));
    return [{ name: this.name, natIpAllocateOption: 'AUTO_ONLY', sourceSubnetworkIpRangesToNat: 'LIST_OF_SUBNETWORKS', subnetworks }];
  }

  /** The router with its Cloud NAT. */
  protected override async create(cloud: GceCloud): Promise<void> {
    await this.insert(cloud, GCE_COLLECTIONS.routers, this.desired.region, { name: this.name, network: gceUrl(cloud, `global/networks/${this.network.name}`), nats: this.nats(cloud) });
  }

  /** The NAT's subnetworks change with a patch. */
  protected override async update(cloud: GceCloud): Promise<void> {
    await cloud.compute.method(GCE_COLLECTIONS.routers, this.desired.region, 'patch', this.name, { routerResource: { nats: this.nats(cloud) } });
  }

  /** `google_compute_router` and `google_compute_router_nat` of the same name, as kops renders them. */
  renderTerraform(t: TerraformTarget): void {
    t.addResource(this, 'google_compute_router', { name: this.name, network: this.network.networkRef(t) });
    t.addResource({ kind: 'RouterNat', name: this.name }, 'google_compute_router_nat', {
      name: this.name,
      nat_ip_allocate_option: 'AUTO_ONLY',
      region: this.desired.region,
      router: t.reference(this, 'name'),
      source_subnetwork_ip_ranges_to_nat: 'LIST_OF_SUBNETWORKS',
      subnetwork: this.natSubnetworks.map((s) => new HclBlock({ name: s.subnetworkRef(t), source_ip_ranges_to_nat: ['ALL_IP_RANGES'] })),
    });
  }
}
