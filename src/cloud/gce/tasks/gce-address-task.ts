import type { TerraformTarget } from '../../../tasks/terraform-target';
import type { GceSubnetworkTask } from './gce-subnetwork-task';
import { GceTask } from './gce-task';

/** The desired address: external and regional, or internal in a subnetwork and shared by forwarding rules. */
export interface GceAddressDesired extends Record<string, string | undefined> {
  /** `INTERNAL`, or undefined for an external address. */
  addressType: string | undefined;
  purpose: string | undefined;
}

/** A reserved IP address of the API load balancer (kops's gcetasks.Address). */
export class GceAddressTask extends GceTask<GceAddressDesired> {
  readonly kind = 'Address';
  protected override readonly immutable = ['addressType', 'purpose'] as const;

  constructor(
    name: string,
    desired: GceAddressDesired,
    readonly subnetwork?: GceSubnetworkTask,
  ) {
    super(name, desired);
  }

  /** Its subnetwork, for an internal address. */
  dependencies(): readonly GceSubnetworkTask[] {
    return this.subnetwork ? [this.subnetwork] : [];
  }

  /** `google_compute_address`. */
  renderTerraform(t: TerraformTarget): void {
    t.addResource(this, 'google_compute_address', { address_type: this.desired.addressType, name: this.name, purpose: this.desired.purpose, subnetwork: this.subnetwork?.subnetworkRef(t) });
  }
}
