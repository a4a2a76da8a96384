import type { TerraformTarget } from '../../../tasks/terraform-target';
import { diffFields } from '../../../tasks/diff-fields';
import type { AnyTask, Change } from '../../../tasks/task';
import { TaskOutput } from '../../../tasks/task-output';
import type { AwsCloud } from '../aws-cloud';
import { tagList, type TagMap } from '../aws-tags';
import type { NthRule } from '../nth-inventory';
import { ownedByCluster } from '../owned-by-cluster';
import { ResourceNotOwnedError } from '../resource-not-owned-error';
import { AwsTask } from './aws-task';

/** The actual state of a rule. */
export interface EventBridgeRuleActual {
  /** The event pattern as canonical JSON. */
  eventPattern: string;
  state: string;
  tags: TagMap;
}

/**
 * One EventBridge rule of the node-termination-handler (kops's awstasks.EventBridgeRule) on the default bus,
 * `<cluster cut to 40>-<event>`: it matches one kind of instance event and its target (EventBridgeTargetTask)
 * sends the event to the cluster's queue. Found among the rules with the cluster's name prefix (one ListRules);
 * a rule of that name without the cluster's tags is refused (NOT_OWNED).
 */
export class EventBridgeRuleTask extends AwsTask<EventBridgeRuleActual> {
  readonly kind = 'EventBridgeRule';
  /** The rule's ARN. */
  readonly arn = new TaskOutput<string>(`EventBridgeRule/${this.name}.arn`);

  constructor(
    name: string,
    readonly desired: { eventPattern: string; tags: TagMap; /** The cluster's rule-name prefix, for the one ListRules. */ namePrefix: string; dependsOn: readonly AnyTask<AwsCloud>[] },
  ) {
    super(name);
  }

  override dependencies(): readonly AnyTask<AwsCloud>[] {
    return this.desired.dependsOn;
  }

  renderTerraform(t: TerraformTarget): void {
    const pattern = t.addFile('aws_cloudwatch_event_rule', this.name, 'event_pattern', `${this.desired.eventPattern}\n`);
    t.addResource(this, 'aws_cloudwatch_event_rule', { event_pattern: pattern, name: this.name, tags: this.desired.tags });
  }

  /** This rule among the cluster's, or undefined. */
  async findRule(cloud: AwsCloud): Promise<NthRule | undefined> {
    const rule = (await cloud.inventory.nth.rules(this.desired.namePrefix)).find((r) => r.name === this.name);
    if (rule && !ownedByCluster(tagList(rule.tags), cloud.clusterName)) throw new ResourceNotOwnedError(`${this.kind}/${this.name}`, `the EventBridge rule ${this.name}`, cloud.clusterName);
    return rule;
  }

  async find(cloud: AwsCloud): Promise<EventBridgeRuleActual | undefined> {
    const rule = await this.findRule(cloud);
    if (!rule) return undefined;
    this.arn.set(rule.arn);
    return { eventPattern: canonicalPattern(rule.eventPattern ?? ''), state: rule.state ?? '', tags: rule.tags };
  }

  diff(actual: EventBridgeRuleActual | undefined): Change[] {
    return diffFields(actual as unknown as Record<string, unknown>, { eventPattern: canonicalPattern(this.desired.eventPattern), state: 'ENABLED', tags: this.desired.tags });
  }

  async apply(cloud: AwsCloud, actual: EventBridgeRuleActual | undefined, changes: readonly Change[]): Promise<void> {
    const events = cloud.events();
    if (!actual || changes.some((c) => !c.field.startsWith('tags.'))) {
      // PutRule creates or replaces by name: a resend after a lost answer does no harm. Tags only take at a create.
      const out = await events.send<{ RuleArn: string }>({
        operation: 'PutRule',
        input: { Name: this.name, EventPattern: this.desired.eventPattern, State: 'ENABLED', ...(actual ? {} : { Tags: tagList(this.desired.tags) }) },
      });
      this.arn.set(out.RuleArn);
    }
    const tags: TagMap = {};
    for (const c of changes) if (actual && c.field.startsWith('tags.')) tags[c.field.slice(5)] = String(c.to);
    if (Object.keys(tags).length > 0) await events.send({ operation: 'TagResource', input: { ResourceARN: this.arn.get(), Tags: tagList(tags) } });
  }
}

/** An event pattern as canonical JSON (keys sorted, no spacing), so kops's spacing and AWS's answer compare equal. */
function canonicalPattern(p: string): string {
  const sort = (v: unknown): unknown =>
    Array.isArray(v) ? v.map(sort) : typeof v === 'object' && v !== null ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, sort((v as Record<string, unknown>)[k])])) : v;
  try {
    return JSON.stringify(sort(JSON.parse(p)));
  } catch {
    return p;
  }
}
