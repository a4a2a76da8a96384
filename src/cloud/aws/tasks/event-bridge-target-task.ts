import type { TerraformTarget } from '../../../tasks/terraform-target';
import { diffFields } from '../../../tasks/diff-fields';
import type { AnyTask, Change } from '../../../tasks/task';
import type { AwsCloud } from '../aws-cloud';
import { AwsTask } from './aws-task';
import type { EventBridgeRuleTask } from './event-bridge-rule-task';
import type { SqsQueueTask } from './sqs-queue-task';

/** The actual state of a rule's target. */
export interface EventBridgeTargetActual {
  arn: string;
  /** The target's id on the rule: kops's `1`, or Terraform's generated one. */
  id: string;
}

// kops's target id (awstasks.EventBridgeTarget): each rule has one target. Terraform generates another
// (`aws_cloudwatch_event_target` without `target_id`, as kops renders it).
const TARGET_ID = '1';

/**
 * The target of one node-termination-handler rule (kops's awstasks.EventBridgeTarget, `<rule>-Target`): the
 * cluster's SQS queue. Read with the rule (ListTargetsByRule, in the NTH inventory); PutTargets sets it.
 */
export class EventBridgeTargetTask extends AwsTask<EventBridgeTargetActual> {
  readonly kind = 'EventBridgeTarget';

  constructor(
    name: string,
    readonly desired: { rule: EventBridgeRuleTask; queue: SqsQueueTask },
  ) {
    super(name);
  }

  override dependencies(): readonly AnyTask<AwsCloud>[] {
    return [this.desired.rule, this.desired.queue];
  }

  renderTerraform(t: TerraformTarget): void {
    t.addResource(this, 'aws_cloudwatch_event_target', { arn: t.reference(this.desired.queue, 'arn'), rule: t.reference(this.desired.rule, 'id') });
  }

  async find(cloud: AwsCloud): Promise<EventBridgeTargetActual | undefined> {
    const targets = (await this.desired.rule.findRule(cloud))?.targets ?? [];
    const queue = this.desired.queue.arn.peek();
    // The one sending to the queue, whatever its id; else kops's id; else the rule's first (to be pointed at the queue).
    const target = targets.find((t) => t.Arn === queue) ?? targets.find((t) => t.Id === TARGET_ID) ?? targets[0];
    return target ? { arn: target.Arn, id: target.Id } : undefined;
  }

  diff(actual: EventBridgeTargetActual | undefined): Change[] {
    // Before the queue exists its ARN is unknown in a plan: a create.
    return diffFields(actual as unknown as Record<string, unknown>, { arn: this.desired.queue.arn.peek() ?? '(the queue, once made)' });
  }

  async apply(cloud: AwsCloud, actual: EventBridgeTargetActual | undefined): Promise<void> {
    const out = await cloud.events().send<{ FailedEntryCount?: number; FailedEntries?: Array<{ ErrorCode?: string; ErrorMessage?: string }> }>({
      operation: 'PutTargets',
      input: { Rule: this.desired.rule.name, Targets: [{ Id: actual?.id ?? TARGET_ID, Arn: this.desired.queue.arn.get() }] },
    });
    // PutTargets answers 200 with the entries it could not put.
    const failed = out.FailedEntries?.[0];
    if ((out.FailedEntryCount ?? 0) > 0) throw Object.assign(new Error(`PutTargets ${this.name}: ${failed?.ErrorCode ?? ''} ${failed?.ErrorMessage ?? ''}`.trim()), { name: failed?.ErrorCode ?? 'PutTargetsFailed' });
  }
}
