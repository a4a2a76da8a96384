import { HclBlock, TerraformTarget } from '../../../tasks/terraform-target';
import type { GceNetworkTask } from './gce-network-task';
import type { GceSubnetworkTask } from './gce-subnetwork-task';
import { GceTask } from './gce-task';

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
