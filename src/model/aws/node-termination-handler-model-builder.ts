import type { Cluster } from '../../api/types';
import { clusterTags, type TagMap } from '../../cloud/aws/aws-tags';
import type { IamPolicyDocument } from '../../cloud/aws/iam-policy-document';
import { nthLifecycleHookName, nthQueueName, nthRuleName, regionOfZone, truncateName } from '../../cloud/aws/nth-names';
import type { AutoScalingGroupTask } from '../../cloud/aws/tasks/auto-scaling-group-task';
import { AutoScalingLifecycleHookTask } from '../../cloud/aws/tasks/auto-scaling-lifecycle-hook-task';
import { EventBridgeRuleTask } from '../../cloud/aws/tasks/event-bridge-rule-task';
import { EventBridgeTargetTask } from '../../cloud/aws/tasks/event-bridge-target-task';
import { SQS_ACCOUNT_ID, SqsQueueTask } from '../../cloud/aws/tasks/sqs-queue-task';
import { nthQueueMode } from '../../expand/components/node-termination-handler';
import type { AnyTask } from '../../tasks/task';

// kops's DefaultMessageRetentionPeriod, also the hooks' heartbeat (pkg/model/awsmodel/nodeterminationhandler.go at 268927e).
const RETENTION_SECONDS = 300;

// kops's fixedEvents, patterns byte for byte (kops's Terraform data files hold them as they are).
const EVENTS: ReadonlyArray<[string, string]> = [
  ['ASGLifecycle', '{"source":["aws.autoscaling"],"detail-type":["EC2 Instance-terminate Lifecycle Action"]}'],
  ['SpotInterruption', '{"source": ["aws.ec2"],"detail-type": ["EC2 Spot Instance Interruption Warning"]}'],
  ['InstanceStateChange', '{"source": ["aws.ec2"],"detail-type": ["EC2 Instance State-change Notification"]}'],
  ['InstanceScheduledChange', '{"source": ["aws.health"],"detail-type": ["AWS Health Event"],"detail": {"service": ["EC2"],"eventTypeCategory": ["scheduledChange"]}}'],
];
// kops's rebalanceEvent, only with enableRebalanceDraining.
const REBALANCE: [string, string] = ['RebalanceRecommendation', '{"source": ["aws.ec2"],"detail-type": ["EC2 Instance Rebalance Recommendation"]}'];

/**
 * kops's NodeTerminationHandlerBuilder (queue-processor mode), pure: the SQS queue `<cluster-dashed>-nth` with
 * kops's policy (EventBridge may send, to this queue only), one EventBridge rule per instance event with the
 * queue as its target, and an `EC2_INSTANCE_TERMINATING` lifecycle hook on every Auto Scaling group (heartbeat
 * 300 s, then CONTINUE). The groups' managed tag comes from the instance-group builder; the control plane's
 * permissions from the IAM builder. Nothing unless the completed spec has NTH in queue mode (kops's default on AWS).
 */
export function buildNodeTerminationHandlerTasks(cluster: Cluster, autoScalingGroups: readonly AutoScalingGroupTask[]): AnyTask[] {
  if (!nthQueueMode(cluster)) return [];
  const c = cluster.metadata.name;
  const region = regionOfZone(cluster.spec.subnets?.find((s) => s.zone)?.zone ?? '');
  const partition = region.startsWith('cn-') ? 'aws-cn' : region.startsWith('us-gov-') ? 'aws-us-gov' : 'aws';
  const labels: TagMap = { ...(cluster.spec.cloudLabels ?? {}) };
  const queueName = nthQueueName(c);
  const policy: IamPolicyDocument = {
    Version: '2012-10-17',
    Statement: [
      {
        Effect: 'Allow',
        Principal: { Service: ['events.amazonaws.com', 'sqs.amazonaws.com'] },
        Action: 'sqs:SendMessage',
        Resource: `arn:${partition}:sqs:${region}:${SQS_ACCOUNT_ID}:${queueName}`,
      },
    ],
  };
  const queue = new SqsQueueTask(queueName, { messageRetentionSeconds: RETENTION_SECONDS, policy, tags: clusterTags(c, queueName, labels), region, partition });
  const tasks: AnyTask[] = [queue];
  const events = cluster.spec.nodeTerminationHandler?.enableRebalanceDraining ? [...EVENTS, REBALANCE] : EVENTS;
  const namePrefix = `${truncateName(c, 40)}-`;
  for (const [event, eventPattern] of events) {
    const name = nthRuleName(c, event);
    const rule = new EventBridgeRuleTask(name, { eventPattern, tags: clusterTags(c, name, labels), namePrefix, dependsOn: [queue] });
    tasks.push(rule, new EventBridgeTargetTask(`${name}-Target`, { rule, queue }));
  }
  const suffix = `.${c}`;
  for (const group of autoScalingGroups) {
    const ig = group.name.endsWith(suffix) ? group.name.slice(0, -suffix.length) : group.name;
    tasks.push(new AutoScalingLifecycleHookTask(nthLifecycleHookName(ig), { group, lifecycleTransition: 'autoscaling:EC2_INSTANCE_TERMINATING', defaultResult: 'CONTINUE', heartbeatTimeout: RETENTION_SECONDS }));
  }
  return tasks;
}
