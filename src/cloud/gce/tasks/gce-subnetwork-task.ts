import { HclBlock, TerraformTarget } from '../../../tasks/terraform-target';
import type { GceNetworkTask } from './gce-network-task';
import type { GceCloud } from '../gce-cloud';
import { GCE_COLLECTIONS, GceResource } from '../gce-compute';
import { gceUrl, GceTask } from './gce-task';

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

  /** The subnetwork in its region. */
  protected override read(cloud: GceCloud): Promise<GceResource | undefined> {
    return cloud.inventory.get(GCE_COLLECTIONS.subnetworks, this.desired.region, this.name);
  }

  /** Range, stack type and secondary ranges. */
  protected override actualOf(r: GceResource): GceSubnetworkDesired {
    const secondary = (r.secondaryIpRanges ?? []) as Array<{ rangeName?: string; ipCidrRange?: string }>;
    return { region: this.desired.region, cidr: this.desired.cidr === undefined ? undefined : (r.ipCidrRange as string), stackType: (r.stackType as string | undefined) ?? 'IPV4_ONLY', secondaryRanges: Object.fromEntries(secondary.map((x) => [x.rangeName ?? '', x.ipCidrRange ?? ''])), shared: this.desired.shared };
  }

  private body(cloud: GceCloud): GceResource {
    const ranges = Object.entries(this.desired.secondaryRanges).sort(([a], [b]) => (a < b ? -1 : 1));
    return { name: this.name, network: gceUrl(cloud, `global/networks/${this.network.name}`), ipCidrRange: this.desired.cidr, stackType: this.desired.stackType, secondaryIpRanges: ranges.map(([rangeName, ipCidrRange]) => ({ rangeName, ipCidrRange })) };
  }

  /** The subnetwork of the cluster's network. */
  protected override async create(cloud: GceCloud): Promise<void> {
    await this.insert(cloud, GCE_COLLECTIONS.subnetworks, this.desired.region, this.body(cloud));
  }

  /** Secondary ranges change with a patch carrying the current fingerprint (412 when stale: re-read, retry). */
  protected override async update(cloud: GceCloud): Promise<void> {
    const current = await this.read(cloud);
    await cloud.compute.method(GCE_COLLECTIONS.subnetworks, this.desired.region, 'patch', this.name, { subnetworkResource: { secondaryIpRanges: this.body(cloud).secondaryIpRanges, fingerprint: current?.fingerprint } });
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
