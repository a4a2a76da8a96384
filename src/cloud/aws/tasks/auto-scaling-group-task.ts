import { HclBlock, type TerraformTarget } from '../../../tasks/terraform-target';
import { diffFields } from '../../../tasks/diff-fields';
import type { AnyTask, Change } from '../../../tasks/task';
import type { TaskOutput } from '../../../tasks/task-output';
import type { AwsCloud } from '../aws-cloud';
import { tagMap, TagMap } from '../aws-tags';
import { AwsTask } from './aws-task';
import type { LaunchTemplateTask } from './launch-template-task';
import { actualMixedKey, mixedInstancesPolicy, mixedInstancesPolicyHcl, MixedInstancesSpec, mixedKey } from './mixed-instances-policy';
import type { SubnetTask } from './subnet-task';

/** A task with an ARN output that an Auto Scaling group registers its instances with (a load balancer target group). */
export interface TargetGroupRef {
  kind: string;
  name: string;
  arn: TaskOutput<string>;
}

/** What an instance group's Auto Scaling group should be. */
export interface AutoScalingGroupSpec {
  launchTemplate: LaunchTemplateTask;
  subnets: readonly SubnetTask[];
  minSize: number;
  maxSize: number;
  /** Tags of the group, all propagated to its instances at launch. */
  tags: TagMap;
  /** Target groups the instances join; when absent, whatever is attached is left alone. */
  targetGroups?: readonly (TargetGroupRef & AnyTask<AwsCloud>)[];
  /** Seconds an instance may serve before it is replaced (`maxInstanceLifetime`); 0: no limit. */
  maxInstanceLifetime: number;
  /** Replace Spot instances on a rebalance recommendation (`capacityRebalance`). */
  capacityRebalance: boolean;
  /** New instances are protected from scale-in (`instanceProtection`). */
  protectFromScaleIn: boolean;
  /** Scaling processes suspended (`suspendProcesses`), sorted. */
  suspendedProcesses: readonly string[];
  /** Several instance types and Spot in one group (`mixedInstancesPolicy`): the template is launched through it. */
  mixedInstances?: MixedInstancesSpec;
}

// kops enables every group metric at one-minute granularity on every group (GroupMetrics in its ASG task).
/** The group metrics kforge enables on every group, as kops does (`enabled_metrics`, `1Minute`). */
export const GROUP_METRICS = [
  'GroupDesiredCapacity',
  'GroupInServiceInstances',
  'GroupMaxSize',
  'GroupMinSize',
  'GroupPendingInstances',
  'GroupStandbyInstances',
  'GroupTerminatingInstances',
  'GroupTotalInstances',
];
const METRICS_GRANULARITY = '1Minute';

/** The actual state of an Auto Scaling group. */
export interface AutoScalingGroupActual {
  minSize?: number;
  maxSize?: number;
  desiredCapacity?: number;
  subnetIds: string[];
  /** `<template name>@<version>`. */
  launchTemplate?: string;
  targetGroupArns: string[];
  tags: TagMap;
  /** Tags not propagated at launch, to be fixed by CreateOrUpdateTags. */
  unpropagated: string[];
  maxInstanceLifetime: number;
  capacityRebalance: boolean;
  protectFromScaleIn: boolean;
  suspendedProcesses: string[];
  enabledMetrics: string[];
  /** The mixed instances policy as compared (mixedKey); '' without one. */
  mixedInstances: string;
}

// The version the group launches: the latest, so a new template version reaches new instances without
// touching the group (kops's choice).
const LAUNCH_VERSION = '$Latest';

/**
 * An instance group's Auto Scaling group (kops's AutoscalingGroup), named `<ig>.<cluster>`, launching the
 * group's template in the group's subnets. The desired capacity is set to MinSize at create only: later
 * the cluster autoscaler (or a person) owns it, and kforge keeps it inside [MinSize, MaxSize] only
 * through AWS's own clamping.
 */
export class AutoScalingGroupTask extends AwsTask<AutoScalingGroupActual> {
  readonly kind = 'AutoScalingGroup';

  constructor(
    name: string,
    readonly desired: AutoScalingGroupSpec,
  ) {
    super(name);
  }

  override dependencies(): readonly AnyTask<AwsCloud>[] {
    const d = this.desired;
    return [d.launchTemplate, ...d.subnets, ...(d.targetGroups ?? [])];
  }

  renderTerraform(t: TerraformTarget): void {
    const d = this.desired;
    t.addResource(this, 'aws_autoscaling_group', {
      // `$Latest`, as the direct target sets it (kops renders `latest_version`, a number): a new template version
      // reaches new instances, and after `terraform apply` the direct target finds the group unchanged.
      capacity_rebalance: d.capacityRebalance || undefined,
      enabled_metrics: GROUP_METRICS,
      launch_template: d.mixedInstances ? undefined : new HclBlock({ id: t.reference(d.launchTemplate, 'id'), version: LAUNCH_VERSION }),
      max_instance_lifetime: d.maxInstanceLifetime,
      max_size: d.maxSize,
      metrics_granularity: METRICS_GRANULARITY,
      min_size: d.minSize,
      mixed_instances_policy: d.mixedInstances ? mixedInstancesPolicyHcl(d.mixedInstances, t.reference(d.launchTemplate, 'id'), LAUNCH_VERSION) : undefined,
      name: this.name,
      protect_from_scale_in: d.protectFromScaleIn,
      suspended_processes: d.suspendedProcesses.length > 0 ? [...d.suspendedProcesses] : undefined,
      tag: Object.keys(d.tags)
        .sort()
        .map((key) => new HclBlock({ key, propagate_at_launch: true, value: d.tags[key] })),
      target_group_arns: d.targetGroups?.map((g) => t.reference(g, 'arn')),
      vpc_zone_identifier: d.subnets.map((s) => t.reference(s, 'id')),
    });
  }

  async find(cloud: AwsCloud): Promise<AutoScalingGroupActual | undefined> {
    const g = (await cloud.inventory.autoScalingGroups()).find((x) => x.AutoScalingGroupName === this.name);
    if (!g) return undefined;
    const lt = g.LaunchTemplate ?? g.MixedInstancesPolicy?.LaunchTemplate?.LaunchTemplateSpecification;
    return {
      minSize: g.MinSize,
      maxSize: g.MaxSize,
      desiredCapacity: g.DesiredCapacity,
      subnetIds: (g.VPCZoneIdentifier ?? '').split(',').filter(Boolean).sort(),
      launchTemplate: lt ? `${lt.LaunchTemplateName}@${lt.Version}` : undefined,
      targetGroupArns: [...(g.TargetGroupARNs ?? [])].sort(),
      tags: tagMap(g.Tags),
      unpropagated: (g.Tags ?? []).filter((t) => !t.PropagateAtLaunch && t.Key !== undefined).map((t) => t.Key as string),
      maxInstanceLifetime: g.MaxInstanceLifetime ?? 0,
      capacityRebalance: g.CapacityRebalance ?? false,
      protectFromScaleIn: g.NewInstancesProtectedFromScaleIn ?? false,
      suspendedProcesses: (g.SuspendedProcesses ?? []).flatMap((p) => (p.ProcessName ? [p.ProcessName] : [])).sort(),
      enabledMetrics: (g.EnabledMetrics ?? []).flatMap((m) => (m.Metric && m.Granularity === METRICS_GRANULARITY ? [m.Metric] : [])).sort(),
      mixedInstances: actualMixedKey(g),
    };
  }

  diff(actual: AutoScalingGroupActual | undefined): Change[] {
    const d = this.desired;
    const subnetIds = d.subnets.map((s) => s.id.peek());
    const arns = d.targetGroups?.map((t) => t.arn.peek());
    const changes = diffFields(actual as unknown as Record<string, unknown>, {
      minSize: d.minSize,
      maxSize: d.maxSize,
      subnetIds: subnetIds.every((s) => s !== undefined) ? [...subnetIds].sort() : undefined,
      launchTemplate: `${d.launchTemplate.name}@${LAUNCH_VERSION}`,
      targetGroupArns: arns?.every((a) => a !== undefined) ? [...arns].sort() : undefined,
      maxInstanceLifetime: d.maxInstanceLifetime,
      capacityRebalance: d.capacityRebalance,
      protectFromScaleIn: d.protectFromScaleIn,
      suspendedProcesses: [...d.suspendedProcesses].sort(),
      enabledMetrics: [...GROUP_METRICS].sort(),
      mixedInstances: mixedKey(d.mixedInstances),
      tags: d.tags,
    });
    // A tag with the right value that does not propagate would leave new instances without it.
    for (const key of actual?.unpropagated ?? []) {
      if (key in d.tags && !changes.some((c) => c.field === `tags.${key}`)) changes.push({ field: `tags.${key}.propagateAtLaunch`, from: false, to: true });
    }
    return changes;
  }

  async apply(cloud: AwsCloud, actual: AutoScalingGroupActual | undefined, changes: readonly Change[]): Promise<void> {
    const { sdk, client } = await cloud.autoScaling();
    const d = this.desired;
    const template = { LaunchTemplateName: d.launchTemplate.name, Version: LAUNCH_VERSION };
    // A group launches its template directly or through its mixed instances policy, never both.
    const launch = d.mixedInstances ? { MixedInstancesPolicy: mixedInstancesPolicy(d.mixedInstances, template) } : { LaunchTemplate: template };
    const subnets = d.subnets.map((s) => s.id.get()).join(',');
    if (!actual) {
      // CreateAutoScalingGroup takes no token; a resend after a lost answer meets AlreadyExists, and the
      // executor's retry finds the group.
      await client.send(
        new sdk.CreateAutoScalingGroupCommand({
          AutoScalingGroupName: this.name,
          MinSize: d.minSize,
          MaxSize: d.maxSize,
          DesiredCapacity: d.minSize,
          VPCZoneIdentifier: subnets,
          ...launch,
          TargetGroupARNs: d.targetGroups?.map((t) => t.arn.get()),
          Tags: this.asgTags(d.tags),
          MaxInstanceLifetime: d.maxInstanceLifetime,
          CapacityRebalance: d.capacityRebalance,
          NewInstancesProtectedFromScaleIn: d.protectFromScaleIn,
        }),
      );
      // Neither is part of CreateAutoScalingGroup; both are idempotent, so a crash before them is mended by the next run's diff.
      await this.setProcessesAndMetrics(cloud, { suspendedProcesses: [], enabledMetrics: [] });
      return;
    }
    const changed = new Set(changes.map((c) => c.field));
    if (['minSize', 'maxSize', 'subnetIds', 'launchTemplate', 'maxInstanceLifetime', 'capacityRebalance', 'protectFromScaleIn', 'mixedInstances'].some((f) => changed.has(f))) {
      // No DesiredCapacity: AWS raises it to a new MinSize (or lowers it to a new MaxSize) by itself.
      await client.send(
        new sdk.UpdateAutoScalingGroupCommand({
          AutoScalingGroupName: this.name,
          MinSize: d.minSize,
          MaxSize: d.maxSize,
          VPCZoneIdentifier: subnets,
          ...launch,
          MaxInstanceLifetime: d.maxInstanceLifetime,
          CapacityRebalance: d.capacityRebalance,
          NewInstancesProtectedFromScaleIn: d.protectFromScaleIn,
        }),
      );
    }
    if (changed.has('suspendedProcesses') || changed.has('enabledMetrics')) await this.setProcessesAndMetrics(cloud, actual);
    if (changed.has('targetGroupArns') && d.targetGroups) {
      const want = d.targetGroups.map((t) => t.arn.get());
      const add = want.filter((a) => !actual.targetGroupArns.includes(a));
      const remove = actual.targetGroupArns.filter((a) => !want.includes(a));
      if (add.length > 0) await client.send(new sdk.AttachLoadBalancerTargetGroupsCommand({ AutoScalingGroupName: this.name, TargetGroupARNs: add }));
      if (remove.length > 0) await client.send(new sdk.DetachLoadBalancerTargetGroupsCommand({ AutoScalingGroupName: this.name, TargetGroupARNs: remove }));
    }
    const tags: TagMap = {};
    for (const c of changes) {
      const m = /^tags\.(.*?)(\.propagateAtLaunch)?$/.exec(c.field);
      if (m) tags[m[1]] = d.tags[m[1]];
    }
    if (Object.keys(tags).length > 0) await client.send(new sdk.CreateOrUpdateTagsCommand({ Tags: this.asgTags(tags) }));
  }

  /** Suspends and resumes processes, and enables the group metrics, from what the group has to what the spec says. */
  private async setProcessesAndMetrics(cloud: AwsCloud, actual: Pick<AutoScalingGroupActual, 'suspendedProcesses' | 'enabledMetrics'>): Promise<void> {
    const { sdk, client } = await cloud.autoScaling();
    const want = this.desired.suspendedProcesses;
    const suspend = want.filter((p) => !actual.suspendedProcesses.includes(p));
    const resume = actual.suspendedProcesses.filter((p) => !want.includes(p));
    if (suspend.length > 0) await client.send(new sdk.SuspendProcessesCommand({ AutoScalingGroupName: this.name, ScalingProcesses: suspend }));
    if (resume.length > 0) await client.send(new sdk.ResumeProcessesCommand({ AutoScalingGroupName: this.name, ScalingProcesses: resume }));
    const metrics = GROUP_METRICS.filter((m) => !actual.enabledMetrics.includes(m));
    if (metrics.length > 0) await client.send(new sdk.EnableMetricsCollectionCommand({ AutoScalingGroupName: this.name, Metrics: metrics, Granularity: METRICS_GRANULARITY }));
  }

  /** Tags in the Auto Scaling form: every one propagated to the instances at launch, as kops does. */
  private asgTags(tags: TagMap): { ResourceId: string; ResourceType: string; Key: string; Value: string; PropagateAtLaunch: boolean }[] {
    return Object.keys(tags)
      .sort()
      .map((Key) => ({ ResourceId: this.name, ResourceType: 'auto-scaling-group', Key, Value: tags[Key], PropagateAtLaunch: true }));
  }
}
