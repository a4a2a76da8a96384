import type { TerraformTarget } from '../../../tasks/terraform-target';
import { Change } from '../../../tasks/task';
import { UsageError } from '../../../errors/usage-error';
import type { GceCloud } from '../gce-cloud';
import { GCE_COLLECTIONS, GceResource } from '../gce-compute';
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

  /** The network by name. */
  protected override read(cloud: GceCloud): Promise<GceResource | undefined> {
    return cloud.inventory.get(GCE_COLLECTIONS.networks, undefined, this.name);
  }

  /** Its mode; a shared network is as the spec says. */
  protected override actualOf(r: GceResource): GceNetworkDesired {
    return { mode: r.autoCreateSubnetworks ? 'auto' : 'custom', shared: this.desired.shared };
  }

  /** A custom-mode network; a shared network that does not exist is the user's to make. */
  protected override async create(cloud: GceCloud): Promise<void> {
    if (this.desired.shared) throw new UsageError(`network "${this.name}" (spec.networkID) does not exist in project ${cloud.project}`);
    await this.insert(cloud, GCE_COLLECTIONS.networks, undefined, { name: this.name, autoCreateSubnetworks: this.desired.mode === 'auto' });
  }

  /** Nothing of a network changes in place (its mode is refused by check). */
  protected override async update(_cloud: GceCloud, _changes: readonly Change[]): Promise<void> {}

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
