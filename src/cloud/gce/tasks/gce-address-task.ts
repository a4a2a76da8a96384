import type { TerraformTarget } from '../../../tasks/terraform-target';
import type { GceSubnetworkTask } from './gce-subnetwork-task';
import type { GceCloud } from '../gce-cloud';
import { GCE_COLLECTIONS, GceResource } from '../gce-compute';
import { gceUrl, GceTask } from './gce-task';

/** The desired address: external and regional, or internal in a subnetwork and shared by forwarding rules. */
export interface GceAddressDesired extends Record<string, string | undefined> {
  /** `INTERNAL`, or undefined for an external address. */
  addressType: string | undefined;
  purpose: string | undefined;
}

/**
 * What a boot script says in place of an address's IP until the address exists (kops bakes the internal API
 * addresses into a worker's boot config, BootConfig.APIServerIPs): replaced by the instance template task at
 * find and apply, and by Terraform's `replace()`. A name under `.invalid` is no IP, so nodeup refuses a boot
 * config that somehow kept it rather than writing a wrong /etc/hosts.
 */
export function gceAddressPlaceholder(addressName: string): string {
  return `${addressName}.address.kforge.invalid`;
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

  /** The IP GCE allocated, once found or made (the forwarding rule's `IPAddress`). */
  ip: string | undefined;

  /** The address in the region; records its IP. */
  protected override async read(cloud: GceCloud): Promise<GceResource | undefined> {
    const r = await cloud.inventory.get(GCE_COLLECTIONS.addresses, cloud.region, this.name);
    this.ip = r?.address as string | undefined;
    return r;
  }

  /** Type and purpose. */
  protected override actualOf(r: GceResource): GceAddressDesired {
    return { addressType: (r.addressType as string | undefined) ?? 'EXTERNAL', purpose: r.purpose as string | undefined };
  }

  /** A regional address (internal ones in the subnetwork); then reads the IP GCE gave it. */
  protected override async create(cloud: GceCloud): Promise<void> {
    const d = this.desired;
    await this.insert(cloud, GCE_COLLECTIONS.addresses, cloud.region, { name: this.name, ...(d.addressType ? { addressType: d.addressType } : {}), ...(d.purpose ? { purpose: d.purpose } : {}), ...(this.subnetwork ? { subnetwork: gceUrl(cloud, `regions/${cloud.region}/subnetworks/${this.subnetwork.name}`) } : {}) });
    await this.read(cloud);
  }

  /** `google_compute_address`. */
  renderTerraform(t: TerraformTarget): void {
    t.addResource(this, 'google_compute_address', { address_type: this.desired.addressType, name: this.name, purpose: this.desired.purpose, subnetwork: this.subnetwork?.subnetworkRef(t) });
  }
}
