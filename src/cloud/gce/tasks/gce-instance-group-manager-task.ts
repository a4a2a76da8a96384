import { HclBlock, HclExpression, TerraformTarget } from '../../../tasks/terraform-target';
import type { GceInstanceTemplateTask } from './gce-instance-template-task';
import type { GceTargetPoolTask } from './gce-target-pool-task';
import { GceTask } from './gce-task';

/** The desired zonal managed instance group. */
export interface GceInstanceGroupManagerDesired extends Record<string, string | number | undefined> {
  zone: string;
  targetSize: number;
  /** Instances are named `<base>-xxxx`: the instance group's name, as kops does. */
  baseInstanceName: string;
}

/** One zonal MIG per instance group and zone (kops's gcetasks.InstanceGroupManager), creating from the group's template. */
export class GceInstanceGroupManagerTask extends GceTask<GceInstanceGroupManagerDesired> {
  readonly kind = 'InstanceGroupManager';
  /** The public API load balancer's pool, for the control plane's MIGs (set by the API load balancer builder). */
  readonly targetPools: GceTargetPoolTask[] = [];
  protected override readonly immutable = ['zone', 'baseInstanceName'] as const;

  constructor(
    name: string,
    desired: GceInstanceGroupManagerDesired,
    readonly template: GceInstanceTemplateTask,
  ) {
    super(name, desired);
  }

  /** Its template. */
  dependencies(): readonly (GceInstanceTemplateTask | GceTargetPoolTask)[] {
    return [this.template, ...this.targetPools];
  }

  /** `google_compute_instance_group_manager`, with kops's opportunistic REPLACE policy; the autoscaler owns the size once created. */
  renderTerraform(t: TerraformTarget): void {
    t.addResource(this, 'google_compute_instance_group_manager', {
      base_instance_name: this.desired.baseInstanceName,
      lifecycle: new HclBlock({ ignore_changes: [new HclExpression('target_size')] }),
      list_managed_instances_results: 'PAGINATED',
      name: this.name,
      target_pools: this.targetPools.length > 0 ? this.targetPools.map((p) => t.reference(p, 'self_link')) : undefined,
      target_size: this.desired.targetSize,
      update_policy: new HclBlock({ minimal_action: 'REPLACE', type: 'OPPORTUNISTIC' }),
      version: new HclBlock({ instance_template: t.reference(this.template, 'self_link') }),
      zone: this.desired.zone,
    });
  }
}
