import type { AwsCloud } from './aws-cloud';
import { classifyAwsError } from './aws-errors';
import type { InventoryCache } from './inventory-cache';
import type { TagMap } from './aws-tags';
import { withAwsRetries } from './with-aws-retries';

/** The node-termination-handler's queue as SQS describes it. */
export interface NthQueue {
  url: string;
  /** GetQueueAttributes(All): `QueueArn`, `MessageRetentionPeriod`, `Policy`, … */
  attributes: Record<string, string>;
  tags: TagMap;
}

/** One EventBridge rule of the cluster, with its tags and targets. */
export interface NthRule {
  name: string;
  arn: string;
  eventPattern?: string;
  state?: string;
  tags: TagMap;
  targets: Array<{ Id: string; Arn: string }>;
}

/**
 * The node-termination-handler's SQS queue and EventBridge rules, read by the names the model gives (neither
 * service has a tag filter), cached with the rest of the run's inventory: the queue in 3 calls
 * (GetQueueUrl, GetQueueAttributes, ListQueueTags), the rules in one ListRules by the cluster's name prefix
 * plus ListTagsForResource and ListTargetsByRule per rule (4 or 5 rules): the same for 1 and for 20
 * instance groups. Each read is retried on its own when throttled or dropped (they are many, and a listing
 * retried as a whole would meet a fault somewhere almost every time under throttling).
 */
export class NthInventory {
  constructor(
    private readonly cloud: AwsCloud,
    private readonly cache: InventoryCache,
  ) {}

  /** The queue of that name, or undefined. */
  queue(name: string): Promise<NthQueue | undefined> {
    return this.cache.once(`sqs-queue/${name}`, async () => {
      const sqs = this.cloud.sqs();
      let url: string;
      try {
        url = (await withAwsRetries(() => sqs.send<{ QueueUrl: string }>({ operation: 'GetQueueUrl', input: { QueueName: name } }))).QueueUrl;
      } catch (e) {
        if (classifyAwsError(e) === 'not-found') return undefined;
        throw e;
      }
      const [attrs, tags] = await Promise.all([
        withAwsRetries(() => sqs.send<{ Attributes?: Record<string, string> }>({ operation: 'GetQueueAttributes', input: { QueueUrl: url, AttributeNames: ['All'] } })),
        withAwsRetries(() => sqs.send<{ Tags?: Record<string, string> }>({ operation: 'ListQueueTags', input: { QueueUrl: url } })),
      ]);
      return { url, attributes: attrs.Attributes ?? {}, tags: tags.Tags ?? {} };
    });
  }

  /** The rules whose names start with `prefix` (the cluster's), with their tags and targets. */
  rules(prefix: string): Promise<NthRule[]> {
    return this.cache.once(`event-rules/${prefix}`, async () => {
      const events = this.cloud.events();
      const listed = await this.cache.pages(async (NextToken) => {
        const out = await withAwsRetries(() =>
          events.send<{ Rules?: Array<{ Name: string; Arn: string; EventPattern?: string; State?: string }>; NextToken?: string | null }>({
            operation: 'ListRules',
            input: { NamePrefix: prefix, ...(NextToken ? { NextToken } : {}) },
          }),
        );
        return [out.Rules ?? [], out.NextToken ?? undefined];
      });
      return Promise.all(
        listed.map(async (r) => {
          const [tags, targets] = await Promise.all([
            withAwsRetries(() => events.send<{ Tags?: Array<{ Key: string; Value: string }> }>({ operation: 'ListTagsForResource', input: { ResourceARN: r.Arn } })),
            this.cache.pages(async (NextToken) => {
              const out = await withAwsRetries(() =>
                events.send<{ Targets?: Array<{ Id: string; Arn: string }>; NextToken?: string | null }>({ operation: 'ListTargetsByRule', input: { Rule: r.Name, ...(NextToken ? { NextToken } : {}) } }),
              );
              return [out.Targets ?? [], out.NextToken ?? undefined];
            }),
          ]);
          return { name: r.Name, arn: r.Arn, eventPattern: r.EventPattern, state: r.State, tags: Object.fromEntries((tags.Tags ?? []).map((t) => [t.Key, t.Value])), targets };
        }),
      );
    });
  }

  /** The account the run's credentials belong to (STS GetCallerIdentity, once per run): for ARNs of resources not made yet. */
  account(): Promise<string> {
    return this.cache.once('caller-account', async () => {
      // connectAwsCloud proved the credentials with the same call: no second one.
      if (this.cloud.accountId) return this.cloud.accountId;
      const { sdk, client } = await this.cloud.sts();
      return (await withAwsRetries(() => client.send(new sdk.GetCallerIdentityCommand({})))).Account ?? '';
    });
  }
}
