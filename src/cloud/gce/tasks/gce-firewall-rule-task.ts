import { HclBlock, TerraformTarget } from '../../../tasks/terraform-target';
import type { GceNetworkTask } from './gce-network-task';
import { GceTask } from './gce-task';

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
