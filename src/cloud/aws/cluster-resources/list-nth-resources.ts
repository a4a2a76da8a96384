import type { AwsCloud } from '../aws-cloud';
import { classifyAwsError } from '../aws-errors';
import { tagList } from '../aws-tags';
import { nthQueueName, truncateName } from '../nth-names';
import { ownedByCluster } from '../owned-by-cluster';
import type { ClusterResource } from './cluster-resource';
import { ignoreNotFound } from './ignore-not-found';

/**
 * The node-termination-handler's SQS queue and EventBridge rules (kops's `ListSQSQueues`, `ListEventBridgeRules`
 * in pkg/resources/aws/aws.go): neither service filters by tag, so by the names the model gives: the queue
 * `<cluster-dashed>-nth` (GetQueueUrl, ListQueueTags) and the rules starting with `<cluster cut to 40>-` (one
 * ListRules, then ListTagsForResource each), each taken only when tagged as the cluster's own. A rule's
 * targets are removed before the rule (EventBridge refuses to delete a rule that has any). The lifecycle
 * hooks go with their Auto Scaling groups. Whatever the cluster runs, these are looked for: a cluster whose
 * handler was turned off may still have them.
 */
export async function listNthResources(cloud: AwsCloud): Promise<ClusterResource[]> {
  const owned = (tags: Record<string, string>) => ownedByCluster(tagList(tags), cloud.clusterName);
  const out: ClusterResource[] = [];
  const queueName = nthQueueName(cloud.clusterName);
  const queue = await cloud.inventory.nth.queue(queueName);
  if (queue && owned(queue.tags)) {
    out.push({
      type: 'sqs-queue',
      name: queueName,
      id: queue.attributes.QueueArn ?? queue.url,
      dependsOn: [],
      delete: async () => {
        await cloud.sqs().send({ operation: 'DeleteQueue', input: { QueueUrl: queue.url } }).catch(ignoreNotFound);
        return 'deleted';
      },
    });
  }
  for (const rule of await cloud.inventory.nth.rules(`${truncateName(cloud.clusterName, 40)}-`)) {
    if (!owned(rule.tags)) continue;
    out.push({
      type: 'eventbridge-rule',
      name: rule.name,
      id: rule.arn,
      dependsOn: [],
      delete: async () => {
        const events = cloud.events();
        try {
          const ids = rule.targets.map((t) => t.Id);
          if (ids.length > 0) await events.send({ operation: 'RemoveTargets', input: { Rule: rule.name, Ids: ids } });
          await events.send({ operation: 'DeleteRule', input: { Name: rule.name } });
        } catch (e) {
          // Gone is done; anything else (a target added since the listing) is this rule's error in the round.
          if (classifyAwsError(e) !== 'not-found') throw e;
        }
        return 'deleted';
      },
    });
  }
  return out;
}
