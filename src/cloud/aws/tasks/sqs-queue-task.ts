import type { TerraformTarget } from '../../../tasks/terraform-target';
import { diffFields } from '../../../tasks/diff-fields';
import type { Change } from '../../../tasks/task';
import { TaskOutput } from '../../../tasks/task-output';
import type { AwsCloud } from '../aws-cloud';
import { ownedByCluster } from '../owned-by-cluster';
import { tagList, type TagMap } from '../aws-tags';
import { canonicalPolicy, type IamPolicyDocument } from '../iam-policy-document';
import { ResourceNotOwnedError } from '../resource-not-owned-error';
import { AwsTask } from './aws-task';

/** Stands for the account id in the queue's policy until the task knows it (the model is pure; the account is AWS's answer). */
export const SQS_ACCOUNT_ID = '${kforge:aws-account-id}';

/** The actual state of the queue. */
export interface SqsQueueActual {
  messageRetentionSeconds: number;
  /** The policy as canonical JSON ('' when none). */
  policy: string;
  tags: TagMap;
}

/**
 * The node-termination-handler's SQS queue (kops's awstasks.SQS), `<cluster with dashes>-nth`: EventBridge sends
 * the instances' interruption, state-change, scheduled-event and ASG-lifecycle events here, and NTH on the
 * control plane reads them. Its policy lets only EventBridge (and SQS) send, to this queue only; messages live
 * 300 s (kops's DefaultMessageRetentionPeriod). Found by name (SQS has no tag filter); a queue of that name
 * without the cluster's tags is refused (NOT_OWNED), never adopted.
 */
export class SqsQueueTask extends AwsTask<SqsQueueActual> {
  readonly kind = 'SQSQueue';
  /** The queue's ARN, for the EventBridge targets. */
  readonly arn = new TaskOutput<string>(`SQSQueue/${this.name}.arn`);
  private url: string | undefined;
  private account: string | undefined;

  constructor(
    name: string,
    readonly desired: { messageRetentionSeconds: number; policy: IamPolicyDocument; tags: TagMap; region: string; partition: string },
  ) {
    super(name);
  }

  /** Finds the account the queue's ARN names (STS), before a Terraform render or a create. */
  async resolveAccount(cloud: AwsCloud): Promise<void> {
    this.account ??= await cloud.inventory.nth.account();
  }

  /** Sets the account without asking a cloud (rendering for a known account, tests). */
  useAccount(account: string): void {
    this.account = account;
  }

  /** The policy as it is sent: SQS_ACCOUNT_ID replaced by the account. */
  policy(): IamPolicyDocument {
    if (this.account === undefined) throw new Error(`SQSQueue/${this.name}: the account is not known yet (resolveAccount first)`);
    return JSON.parse(JSON.stringify(this.desired.policy).split(SQS_ACCOUNT_ID).join(this.account)) as IamPolicyDocument;
  }

  renderTerraform(t: TerraformTarget): void {
    // Keys sorted, as kops writes its policies (Go's JSON of its Policy type), so the data file is kops's byte for byte.
    const policy = t.addFile('aws_sqs_queue', this.name, 'policy', `${JSON.stringify(JSON.parse(canonicalPolicy(this.policy())), null, 2)}\n`);
    t.addResource(this, 'aws_sqs_queue', { message_retention_seconds: this.desired.messageRetentionSeconds, name: this.name, policy, tags: this.desired.tags });
  }

  async find(cloud: AwsCloud): Promise<SqsQueueActual | undefined> {
    const q = await cloud.inventory.nth.queue(this.name);
    if (!q) return undefined;
    if (!ownedByCluster(tagList(q.tags), cloud.clusterName)) throw new ResourceNotOwnedError(`${this.kind}/${this.name}`, `the SQS queue ${this.name}`, cloud.clusterName);
    this.url = q.url;
    const arn = q.attributes.QueueArn;
    if (arn) {
      this.arn.set(arn);
      this.account ??= arn.split(':')[4];
    }
    return { messageRetentionSeconds: Number(q.attributes.MessageRetentionPeriod ?? 0), policy: q.attributes.Policy ? canonicalPolicy(q.attributes.Policy) : '', tags: q.tags };
  }

  diff(actual: SqsQueueActual | undefined): Change[] {
    // The policy names the account: before the queue exists it is not known in a plan, and a create sets it anyway.
    const policy = this.account === undefined ? undefined : canonicalPolicy(this.policy());
    return diffFields(actual as unknown as Record<string, unknown>, { messageRetentionSeconds: this.desired.messageRetentionSeconds, policy, tags: this.desired.tags });
  }

  async apply(cloud: AwsCloud, actual: SqsQueueActual | undefined, changes: readonly Change[]): Promise<void> {
    const sqs = cloud.sqs();
    await this.resolveAccount(cloud);
    const attributes = { MessageRetentionPeriod: String(this.desired.messageRetentionSeconds), Policy: JSON.stringify(this.policy()) };
    if (!actual) {
      // CreateQueue is idempotent for the same name and attributes: a resend after a lost answer returns the queue.
      const { QueueUrl } = await sqs.send<{ QueueUrl: string }>({ operation: 'CreateQueue', input: { QueueName: this.name, Attributes: attributes, tags: this.desired.tags } });
      this.url = QueueUrl;
      this.arn.set(`arn:${this.desired.partition}:sqs:${this.desired.region}:${this.account ?? ''}:${this.name}`);
      return;
    }
    const url = this.url as string;
    if (changes.some((c) => !c.field.startsWith('tags.'))) await sqs.send({ operation: 'SetQueueAttributes', input: { QueueUrl: url, Attributes: attributes } });
    const tags: TagMap = {};
    for (const c of changes) if (c.field.startsWith('tags.')) tags[c.field.slice(5)] = String(c.to);
    if (Object.keys(tags).length > 0) await sqs.send({ operation: 'TagQueue', input: { QueueUrl: url, Tags: tags } });
  }
}
