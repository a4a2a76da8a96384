import { HclBlock, TerraformTarget } from '../../../tasks/terraform-target';
import type { GceNetworkTask } from './gce-network-task';
import type { GceCloud } from '../gce-cloud';
import { GCE_COLLECTIONS, GceResource } from '../gce-compute';
import { gceUrl, GceTask } from './gce-task';

/** The desired firewall rule, in kops's terms (gcetasks.FirewallRule). */
export interface GceFirewallRuleDesired extends Record<string, string | boolean | readonly string[] | undefined> {
  /** kops's `allowed`: `tcp`, `tcp:443`, `udp:30000-32767`, `icmp`, `58` (ICMPv6), in order. */
  allowed: readonly string[];
  sourceRanges: readonly string[];
  sourceTags: readonly string[];
  targetTags: readonly string[];
  /** A rule without sources of its family is kept, disabled (kops renders it so). */
  disabled: boolean;
}

/** One ingress firewall rule of the cluster's network, targeting instances by network tag. */
export class GceFirewallRuleTask extends GceTask<GceFirewallRuleDesired> {
  readonly kind = 'FirewallRule';

  constructor(
    name: string,
    desired: GceFirewallRuleDesired,
    readonly network: GceNetworkTask,
  ) {
    super(name, desired);
  }

  /** Its network. */
  dependencies(): readonly GceNetworkTask[] {
    return [this.network];
  }

  /** The rule by name. */
  protected override read(cloud: GceCloud): Promise<GceResource | undefined> {
    return cloud.inventory.get(GCE_COLLECTIONS.firewalls, undefined, this.name);
  }

  /** `allowed` as `proto` / `proto:ports`, in GCE's order; absent lists as empty. */
  protected override actualOf(r: GceResource): GceFirewallRuleDesired {
    const allowed = ((r.allowed ?? []) as Array<{ IPProtocol?: string; ports?: string[] }>).flatMap((a) => (a.ports?.length ? a.ports.map((p) => `${a.IPProtocol ?? ''}:${p}`) : [a.IPProtocol ?? '']));
    const list = (v: unknown): string[] => (Array.isArray(v) ? (v as string[]) : []);
    return { allowed, sourceRanges: list(r.sourceRanges), sourceTags: list(r.sourceTags), targetTags: list(r.targetTags), disabled: r.disabled === true };
  }

  private body(cloud: GceCloud): GceResource {
    const d = this.desired;
    return {
      name: this.name,
      network: gceUrl(cloud, `global/networks/${this.network.name}`),
      allowed: d.allowed.map((a) => {
        const [IPProtocol, ports] = a.split(':');
        return ports ? { IPProtocol, ports: [ports] } : { IPProtocol };
      }),
      sourceRanges: [...d.sourceRanges],
      sourceTags: [...d.sourceTags],
      targetTags: [...d.targetTags],
      disabled: d.disabled,
    };
  }

  /** The rule on the cluster's network. */
  protected override async create(cloud: GceCloud): Promise<void> {
    await this.insert(cloud, GCE_COLLECTIONS.firewalls, undefined, this.body(cloud));
  }

  /** Rules change in place with a patch. */
  protected override async update(cloud: GceCloud): Promise<void> {
    await cloud.compute.method(GCE_COLLECTIONS.firewalls, undefined, 'patch', this.name, { firewallResource: this.body(cloud) });
  }

  /** `google_compute_firewall`, one `allow` block per allowed entry, as kops renders it. */
  renderTerraform(t: TerraformTarget): void {
    const d = this.desired;
    t.addResource(this, 'google_compute_firewall', {
      allow: d.allowed.map((a) => {
        const [protocol, ports] = a.split(':');
        return new HclBlock(ports ? { ports: [ports], protocol } : { protocol });
      }),
      disabled: d.disabled,
      name: this.name,
      network: this.network.networkRef(t),
      source_ranges: d.sourceRanges.length > 0 ? d.sourceRanges : undefined,
      source_tags: d.sourceTags.length > 0 ? d.sourceTags : undefined,
      target_tags: d.targetTags.length > 0 ? d.targetTags : undefined,
    });
  }
}
