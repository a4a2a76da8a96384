import { HclBlock, TerraformTarget } from '../../../tasks/terraform-target';
import type { GceNetworkTask } from './gce-network-task';
import { GceTask } from './gce-task';

/** The desired regional subnetwork. */
export interface GceSubnetworkDesired extends Record<string, string | boolean | Readonly<Record<string, string>> | undefined> {
  region: string;
  /** The primary range (kops's GCE default 10.0.16.0/20 for the first subnet). */
  cidr: string | undefined;
  /** `IPV4_ONLY`, or `IPV4_IPV6` for IPv6 clusters. */
  stackType: string;
  /** Secondary ranges by name (IP-alias networking: pods and services). */
  secondaryRanges: Readonly<Record<string, string>>;
  /** `spec.subnets[].id`: an existing subnetwork. */
  shared: boolean;
}

/** One regional subnetwork of the cluster's network (kops's gcetasks.Subnet). */
export class GceSubnetworkTask extends GceTask<GceSubnetworkDesired> {
  readonly kind = 'Subnetwork';
  protected override readonly immutable = ['region', 'cidr', 'stackType'] as const;

  constructor(
    name: string,
    desired: GceSubnetworkDesired,
    readonly network: GceNetworkTask,
  ) {
    super(name, desired);
  }

  /** Its network. */
  dependencies(): readonly GceNetworkTask[] {
    return [this.network];
  }

  /** `google_compute_subnetwork`, with `secondary_ip_range` blocks for IP aliases; a shared one renders nothing. */
  renderTerraform(t: TerraformTarget): void {
    if (this.desired.shared) return;
    const ranges = Object.entries(this.desired.secondaryRanges).sort(([a], [b]) => (a < b ? -1 : 1));
    t.addResource(this, 'google_compute_subnetwork', {
      ip_cidr_range: this.desired.cidr,
      name: this.name,
      network: this.network.networkRef(t),
      region: this.desired.region,
      ...(ranges.length > 0 ? { secondary_ip_range: ranges.map(([rangeName, cidr]) => new HclBlock({ ip_cidr_range: cidr, range_name: rangeName })) } : {}),
      stack_type: this.desired.stackType,
    });
  }

  /** How dependants name the subnetwork. */
  subnetworkRef(t: TerraformTarget): string | ReturnType<TerraformTarget['reference']> {
    return this.desired.shared ? this.name : t.reference(this, 'name');
  }
}
