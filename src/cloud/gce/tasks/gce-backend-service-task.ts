import { HclBlock, TerraformTarget } from '../../../tasks/terraform-target';
import type { GceHealthCheckTask } from './gce-health-check-task';
import type { GceInstanceGroupManagerTask } from './gce-instance-group-manager-task';
import type { GceCloud } from '../gce-cloud';
import { GCE_COLLECTIONS, GceResource } from '../gce-compute';
import { gceUrl, GceTask } from './gce-task';

/** The desired regional backend service. */
export interface GceBackendServiceDesired extends Record<string, string | undefined> {
  protocol: string;
  loadBalancingScheme: string;
}

/** The internal API load balancer's regional backend service over the API servers' MIGs (kops's gcetasks.BackendService). */
export class GceBackendServiceTask extends GceTask<GceBackendServiceDesired> {
  readonly kind = 'BackendService';
  protected override readonly immutable = ['loadBalancingScheme'] as const;

  constructor(
    name: string,
    desired: GceBackendServiceDesired,
    readonly healthCheck: GceHealthCheckTask,
    readonly groups: readonly GceInstanceGroupManagerTask[],
  ) {
    super(name, desired);
  }

  /** Its health check and MIGs. */
  dependencies(): readonly (GceHealthCheckTask | GceInstanceGroupManagerTask)[] {
    return [this.healthCheck, ...this.groups];
  }

  /** The backend service in the region. */
  protected override read(cloud: GceCloud): Promise<GceResource | undefined> {
    return cloud.inventory.get(GCE_COLLECTIONS.regionBackendServices, cloud.region, this.name);
  }

  /** Protocol and scheme. */
  protected override actualOf(r: GceResource): GceBackendServiceDesired {
    return { protocol: r.protocol as string, loadBalancingScheme: r.loadBalancingScheme as string };
  }

  /** The service over the MIGs' instance groups, checked by the health check. */
  protected override async create(cloud: GceCloud): Promise<void> {
    await this.insert(cloud, GCE_COLLECTIONS.regionBackendServices, cloud.region, {
      name: this.name,
      protocol: this.desired.protocol,
      loadBalancingScheme: this.desired.loadBalancingScheme,
      healthChecks: [this.healthCheck.url(cloud)],
      backends: this.groups.map((g) => ({ group: gceUrl(cloud, `zones/${g.desired.zone}/instanceGroups/${g.name}`), balancingMode: 'CONNECTION' })),
    });
  }

  /** `google_compute_region_backend_service`, one CONNECTION backend per MIG. */
  renderTerraform(t: TerraformTarget): void {
    t.addResource(this, 'google_compute_region_backend_service', {
      backend: this.groups.map((g) => new HclBlock({ balancing_mode: 'CONNECTION', group: t.reference(g, 'instance_group') })),
      health_checks: [t.reference(this.healthCheck, this.healthCheck.referenceAttribute())],
      load_balancing_scheme: this.desired.loadBalancingScheme,
      name: this.name,
      protocol: this.desired.protocol,
    });
  }
}
