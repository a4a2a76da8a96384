import type { TerraformTarget } from '../../../tasks/terraform-target';
import type { GceAddressTask } from './gce-address-task';
import type { GceBackendServiceTask } from './gce-backend-service-task';
import type { GceNetworkTask } from './gce-network-task';
import type { GceSubnetworkTask } from './gce-subnetwork-task';
import type { GceTargetPoolTask } from './gce-target-pool-task';
import type { Change } from '../../../tasks/task';
import type { GceCloud } from '../gce-cloud';
import { GCE_COLLECTIONS, GceResource } from '../gce-compute';
import { gceUrl, GceTask } from './gce-task';

/** The desired forwarding rule. */
export interface GceForwardingRuleDesired extends Record<string, string | readonly string[] | Readonly<Record<string, string>> | undefined> {
  loadBalancingScheme: 'EXTERNAL' | 'INTERNAL';
  /** External: a range (`443-443`); internal: a list of ports. */
  portRange: string | undefined;
  ports: readonly string[] | undefined;
  labels: Readonly<Record<string, string>>;
}

/** Where a forwarding rule sends traffic: a target pool (external) or a backend service in the network (internal). */
export type GceForwardingTarget = { pool: GceTargetPoolTask } | { backend: GceBackendServiceTask; network: GceNetworkTask; subnetwork: GceSubnetworkTask };

/** A forwarding rule of the API load balancer (kops's gcetasks.ForwardingRule), on a reserved address. */
export class GceForwardingRuleTask extends GceTask<GceForwardingRuleDesired> {
  readonly kind = 'ForwardingRule';
  protected override readonly immutable = ['loadBalancingScheme', 'portRange', 'ports'] as const;

  constructor(
    name: string,
    desired: GceForwardingRuleDesired,
    readonly address: GceAddressTask,
    readonly target: GceForwardingTarget,
  ) {
    super(name, desired);
  }

  /** Its address and target. */
  dependencies(): readonly (GceAddressTask | GceTargetPoolTask | GceBackendServiceTask | GceNetworkTask | GceSubnetworkTask)[] {
    return 'pool' in this.target ? [this.address, this.target.pool] : [this.address, this.target.backend, this.target.network, this.target.subnetwork];
  }

  /** The rule in the region. */
  protected override read(cloud: GceCloud): Promise<GceResource | undefined> {
    return cloud.inventory.get(GCE_COLLECTIONS.forwardingRules, cloud.region, this.name);
  }

  /** Scheme, ports and labels. */
  protected override actualOf(r: GceResource): GceForwardingRuleDesired {
    return { loadBalancingScheme: r.loadBalancingScheme as 'EXTERNAL' | 'INTERNAL', portRange: r.portRange as string | undefined, ports: r.ports as string[] | undefined, labels: (r.labels ?? {}) as Record<string, string> };
  }

  /** The rule on the address's IP, to the pool or the backend service. */
  protected override async create(cloud: GceCloud): Promise<void> {
    const d = this.desired;
    const t = this.target;
    if (this.address.ip === undefined) await this.address.find(cloud);
    await this.insert(cloud, GCE_COLLECTIONS.forwardingRules, cloud.region, {
      name: this.name,
      IPAddress: this.address.ip,
      IPProtocol: 'TCP',
      loadBalancingScheme: d.loadBalancingScheme,
      ...(d.portRange ? { portRange: d.portRange } : {}),
      ...(d.ports ? { ports: [...d.ports] } : {}),
      labels: { ...d.labels },
      ...('pool' in t
        ? { target: gceUrl(cloud, `regions/${cloud.region}/targetPools/${t.pool.name}`) }
        : { backendService: gceUrl(cloud, `regions/${cloud.region}/backendServices/${t.backend.name}`), network: gceUrl(cloud, `global/networks/${t.network.name}`), subnetwork: gceUrl(cloud, `regions/${cloud.region}/subnetworks/${t.subnetwork.name}`) }),
    });
  }

  /** Labels are set with the current labelFingerprint; the rest is refused by check. */
  protected override async update(cloud: GceCloud, changes: readonly Change[]): Promise<void> {
    for (const c of changes) {
      if (c.field !== 'labels') return super.update(cloud, [c]);
      const current = await this.read(cloud);
      await cloud.compute.method(GCE_COLLECTIONS.forwardingRules, cloud.region, 'setLabels', this.name, { resource: this.name, regionSetLabelsRequestResource: { labels: { ...this.desired.labels }, labelFingerprint: current?.labelFingerprint } });
    }
  }

  /** `google_compute_forwarding_rule`. */
  renderTerraform(t: TerraformTarget): void {
    const d = this.desired;
    const target = this.target;
    t.addResource(this, 'google_compute_forwarding_rule', {
      ...('pool' in target ? { target: t.reference(target.pool, 'self_link') } : { backend_service: t.reference(target.backend, 'id'), network: target.network.networkRef(t), subnetwork: target.subnetwork.subnetworkRef(t) }),
      ip_address: t.reference(this.address, 'address'),
      ip_protocol: 'TCP',
      labels: d.labels,
      load_balancing_scheme: d.loadBalancingScheme,
      name: this.name,
      port_range: d.portRange,
      ports: d.ports,
    });
  }
}
