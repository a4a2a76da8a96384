import type { TerraformTarget } from '../../../tasks/terraform-target';
import { diffFields } from '../../../tasks/diff-fields';
import type { AnyTask, Change } from '../../../tasks/task';
import type { AwsCloud } from '../aws-cloud';
import { tagMap } from '../aws-tags';
import { AwsTask } from './aws-task';
import type { AutoScalingGroupTask } from './auto-scaling-group-task';

/**
 * The ASG tag on which kforge records the hook it put on the group (not propagated to instances): Auto Scaling
 * describes hooks one group at a time, and this keeps a no-op plan at zero hook calls for any number of groups.
 */
export const LIFECYCLE_HOOK_RECORD_TAG = 'kforge.k8s.io/nth-lifecycle-hook';

/** The actual state of the hook. */
export interface LifecycleHookActual {
  lifecycleTransition?: string;
  defaultResult?: string;
  heartbeatTimeout?: number;
}

/**
 * The node-termination-handler's lifecycle hook on one Auto Scaling group (kops's awstasks.AutoscalingLifecycleHook,
 * `<ig>-NTHLifecycleHook`): an instance the group terminates (scale-in, rebalancing, a rolling update's terminate)
 * waits in Terminating:Wait until NTH, told through EventBridge and the queue, has drained the node and completes
 * the action, or 300 s pass and the termination CONTINUEs. Found through the group's record tag (no call);
 * a group without it (a hook made by kops, by Terraform or by hand) costs one DescribeLifecycleHooks per plan,
 * and gets the record with the next change kforge makes to the hook. The record is not itself a difference, so
 * a cluster made with `--target terraform` plans "No changes" in the direct target.
 */
export class AutoScalingLifecycleHookTask extends AwsTask<LifecycleHookActual> {
  readonly kind = 'AutoScalingLifecycleHook';

  constructor(
    name: string,
    readonly desired: { group: AutoScalingGroupTask; lifecycleTransition: string; defaultResult: string; heartbeatTimeout: number },
  ) {
    super(name);
  }

  override dependencies(): readonly AnyTask<AwsCloud>[] {
    return [this.desired.group];
  }

  /** What the record tag holds for this hook. */
  private record(): string {
    const d = this.desired;
    return [this.name, d.lifecycleTransition, d.defaultResult, String(d.heartbeatTimeout)].join(',');
  }

  renderTerraform(t: TerraformTarget): void {
    const d = this.desired;
    t.addResource(this, 'aws_autoscaling_lifecycle_hook', {
      autoscaling_group_name: t.reference(d.group, 'id'),
      default_result: d.defaultResult,
      heartbeat_timeout: d.heartbeatTimeout,
      lifecycle_transition: d.lifecycleTransition,
      name: this.name,
    });
  }

  async find(cloud: AwsCloud): Promise<LifecycleHookActual | undefined> {
    const group = (await cloud.inventory.autoScalingGroups()).find((g) => g.AutoScalingGroupName === this.desired.group.name);
    if (!group) return undefined;
    const d = this.desired;
    if (tagMap(group.Tags)[LIFECYCLE_HOOK_RECORD_TAG] === this.record()) return { lifecycleTransition: d.lifecycleTransition, defaultResult: d.defaultResult, heartbeatTimeout: d.heartbeatTimeout };
    const { sdk, client } = await cloud.autoScaling();
    const out = await client.send(new sdk.DescribeLifecycleHooksCommand({ AutoScalingGroupName: group.AutoScalingGroupName, LifecycleHookNames: [this.name] }));
    const hook = out.LifecycleHooks?.find((h) => h.LifecycleHookName === this.name);
    return { lifecycleTransition: hook?.LifecycleTransition, defaultResult: hook?.DefaultResult, heartbeatTimeout: hook?.HeartbeatTimeout };
  }

  diff(actual: LifecycleHookActual | undefined): Change[] {
    const d = this.desired;
    return diffFields(actual as unknown as Record<string, unknown>, { lifecycleTransition: d.lifecycleTransition, defaultResult: d.defaultResult, heartbeatTimeout: d.heartbeatTimeout });
  }

  async apply(cloud: AwsCloud): Promise<void> {
    const { sdk, client } = await cloud.autoScaling();
    const d = this.desired;
    const group = d.group.name;
    // PutLifecycleHook creates or replaces by name; then the group records it.
    await client.send(
      new sdk.PutLifecycleHookCommand({ AutoScalingGroupName: group, LifecycleHookName: this.name, LifecycleTransition: d.lifecycleTransition, DefaultResult: d.defaultResult, HeartbeatTimeout: d.heartbeatTimeout }),
    );
    await client.send(
      new sdk.CreateOrUpdateTagsCommand({ Tags: [{ ResourceId: group, ResourceType: 'auto-scaling-group', Key: LIFECYCLE_HOOK_RECORD_TAG, Value: this.record(), PropagateAtLaunch: false }] }),
    );
  }
}
