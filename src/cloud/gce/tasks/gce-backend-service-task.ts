import { HclBlock, TerraformTarget } from '../../../tasks/terraform-target';
import type { GceHealthCheckTask } from './gce-health-check-task';
import type { GceInstanceGroupManagerTask } from './gce-instance-group-manager-task';
import { GceTask } from './gce-task';

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
