import type { TerraformTarget } from '../../../tasks/terraform-target';
import { GceTask } from './gce-task';

/** The desired VPC network. */
export interface GceNetworkDesired extends Record<string, string | boolean | undefined> {
  /** kops's default: `custom` (subnetworks made by the model, none automatic). */
  mode: 'custom' | 'auto' | undefined;
  /** `spec.networkID`: an existing network, never created nor deleted. */
  shared: boolean;
}

/** The cluster's VPC network (kops's gcetasks.Network): custom mode, named after the cluster. */
export class GceNetworkTask extends GceTask<GceNetworkDesired> {
  readonly kind = 'Network';
  protected override readonly immutable = ['mode'] as const;

  /** None. */
  dependencies(): readonly never[] {
    return [];
  }

  /** `google_compute_network` with `auto_create_subnetworks = false`; a shared network renders nothing. */
  renderTerraform(t: TerraformTarget): void {
    if (this.desired.shared) return;
    t.addResource(this, 'google_compute_network', { auto_create_subnetworks: this.desired.mode === 'auto', name: this.name });
  }

  /** How dependants name the network: the Terraform resource's name, or the shared network's own name. */
  networkRef(t: TerraformTarget): string | ReturnType<TerraformTarget['reference']> {
    return this.desired.shared ? this.name : t.reference(this, 'name');
  }
}
