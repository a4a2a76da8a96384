import type { TerraformTarget } from '../../../tasks/terraform-target';
import type { GceHealthCheckTask } from './gce-health-check-task';
import type { GceCloud } from '../gce-cloud';
import { GCE_COLLECTIONS, GceResource } from '../gce-compute';
import { GceTask } from './gce-task';

/** A target pool has nothing to compare but its health check. */
export type GceTargetPoolDesired = Record<string, never>;

/** The target pool of the public API load balancer (kops's gcetasks.TargetPool); the control plane's MIGs join it. */
export class GceTargetPoolTask extends GceTask<GceTargetPoolDesired> {
  readonly kind = 'TargetPool';

  constructor(
    name: string,
    readonly healthCheck: GceHealthCheckTask,
  ) {
    super(name, {});
  }

  /** Its health check. */
  dependencies(): readonly GceHealthCheckTask[] {
    return [this.healthCheck];
  }

  /** The pool in the region. */
  protected override read(cloud: GceCloud): Promise<GceResource | undefined> {
    return cloud.inventory.get(GCE_COLLECTIONS.targetPools, cloud.region, this.name);
  }

  /** The pool with its HTTP health check. */
  protected override async create(cloud: GceCloud): Promise<void> {
    await this.insert(cloud, GCE_COLLECTIONS.targetPools, cloud.region, { name: this.name, healthChecks: [this.healthCheck.url(cloud)] });
  }

  /** `google_compute_target_pool`. */
  renderTerraform(t: TerraformTarget): void {
    t.addResource(this, 'google_compute_target_pool', { health_checks: [t.reference(this.healthCheck, this.healthCheck.referenceAttribute())], name: this.name });
  }
}
