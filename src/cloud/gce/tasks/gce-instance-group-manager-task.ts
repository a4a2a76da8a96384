import { HclBlock, HclExpression, TerraformTarget } from '../../../tasks/terraform-target';
import type { GceInstanceTemplateTask } from './gce-instance-template-task';
import type { GceTargetPoolTask } from './gce-target-pool-task';
import type { Change } from '../../../tasks/task';
import type { GceCloud } from '../gce-cloud';
import { GCE_COLLECTIONS, GceResource } from '../gce-compute';
import { gceUrl, GceTask, lastSegment } from './gce-task';

/** The desired zonal managed instance group. */
export interface GceInstanceGroupManagerDesired extends Record<string, string | number | readonly string[] | undefined> {
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

  /** The MIG in its zone. */
  protected override read(cloud: GceCloud): Promise<GceResource | undefined> {
    return cloud.inventory.get(GCE_COLLECTIONS.instanceGroupManagers, this.desired.zone, this.name);
  }

  /** Size, base name, and (compared by diff) the template and target pools by name. */
  protected override actualOf(r: GceResource): GceInstanceGroupManagerDesired {
    return { zone: this.desired.zone, targetSize: Number(r.targetSize ?? 0), baseInstanceName: r.baseInstanceName as string, instanceTemplate: lastSegment(r.instanceTemplate), targetPools: ((r.targetPools ?? []) as string[]).map((p) => lastSegment(p) ?? '').sort() };
  }

  /** The desired fields, plus the template this run's model names and the pools. */
  override diff(actual: GceInstanceGroupManagerDesired | undefined): Change[] {
    const changes = super.diff(actual);
    const template = this.template.templateName();
    if (actual?.instanceTemplate !== template) changes.push({ field: 'instanceTemplate', from: actual?.instanceTemplate, to: template });
    const pools = this.targetPools.map((p) => p.name).sort();
    if (JSON.stringify(actual?.targetPools ?? []) !== JSON.stringify(pools) && (actual !== undefined || pools.length > 0)) changes.push({ field: 'targetPools', from: actual?.targetPools, to: pools });
    return changes.sort((a, b) => (a.field < b.field ? -1 : 1));
  }

  private templateUrl(cloud: GceCloud): string {
    return gceUrl(cloud, `global/instanceTemplates/${this.template.templateName()}`);
  }

  private poolUrls(cloud: GceCloud): string[] {
    return this.targetPools.map((p) => gceUrl(cloud, `regions/${cloud.region}/targetPools/${p.name}`));
  }

  /** The MIG with its size, template and pools. */
  protected override async create(cloud: GceCloud): Promise<void> {
    const d = this.desired;
    await this.insert(cloud, GCE_COLLECTIONS.instanceGroupManagers, d.zone, { name: this.name, baseInstanceName: d.baseInstanceName, targetSize: d.targetSize, instanceTemplate: this.templateUrl(cloud), targetPools: this.poolUrls(cloud) });
  }

  /** A new template is pointed at (instances are replaced by rolling-update); size and pools are set. */
  protected override async update(cloud: GceCloud, changes: readonly Change[]): Promise<void> {
    const z = this.desired.zone;
    const mig = GCE_COLLECTIONS.instanceGroupManagers;
    for (const c of changes) {
      if (c.field === 'instanceTemplate') await cloud.compute.method(mig, z, 'setInstanceTemplate', this.name, { instanceGroupManagersSetInstanceTemplateRequestResource: { instanceTemplate: this.templateUrl(cloud) } });
      if (c.field === 'targetSize') await cloud.compute.method(mig, z, 'resize', this.name, { size: this.desired.targetSize });
      if (c.field === 'targetPools') {
        const current = await this.read(cloud);
        await cloud.compute.method(mig, z, 'setTargetPools', this.name, { instanceGroupManagersSetTargetPoolsRequestResource: { targetPools: this.poolUrls(cloud), fingerprint: current?.fingerprint } });
      }
    }
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
