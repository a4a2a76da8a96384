import type { AnyTask } from '../../tasks/task';
import { TaskExecutor, TaskExecutorOptions } from '../../tasks/task-executor';
import type { AwsCloud } from './aws-cloud';
import { isRetryableAwsError } from './aws-errors';
import { CLOUD_RETRY_BUDGET } from '../retry-budget';

// Tasks of one API family running at once. IAM's and Route 53's request limits are low and account-wide;
// EC2 takes more. The total is bounded by CONCURRENCY. Most tasks make one or two calls, so a task slot
// is about a request in flight; the SDK's adaptive retry mode slows a client down if AWS throttles it.
const FAMILY_CONCURRENCY: Readonly<Record<string, number>> = { ec2: 8, iam: 4, autoscaling: 4, elbv2: 2, route53: 1 };
const CONCURRENCY = 12;

/** The AWS API family a task calls, from its kind. */
export function awsApiFamily(task: { kind: string }): string {
  if (task.kind.startsWith('IAM')) return 'iam';
  if (task.kind === 'AutoScalingGroup') return 'autoscaling';
  if (/^(NetworkLoadBalancer|TargetGroup|Listener)$/.test(task.kind)) return 'elbv2';
  if (task.kind.startsWith('DNS') || task.kind.startsWith('Route53')) return 'route53';
  return 'ec2';
}

/**
 * A TaskExecutor for AWS tasks: retryable errors are those aws-errors.ts classifies so (throttling,
 * eventual consistency, a create whose answer was lost), and a retry drops the cached inventory first so
 * the task finds what the failed attempt may have made. The cloud calls' retry budget (retry-budget.ts: 8
 * attempts, 0.5 s doubling, within 3 minutes) per task: an instance profile can take tens of seconds to
 * become visible to EC2.
 */
export function awsTaskExecutor(cloud: AwsCloud, tasks: readonly AnyTask<AwsCloud>[], options: TaskExecutorOptions = {}): TaskExecutor<AwsCloud> {
  return new TaskExecutor(cloud, tasks, {
    isRetryable: isRetryableAwsError,
    beforeRetry: () => cloud.inventory.invalidate(),
    familyOf: awsApiFamily,
    familyConcurrency: FAMILY_CONCURRENCY,
    concurrency: CONCURRENCY,
    maxAttempts: CLOUD_RETRY_BUDGET.maxAttempts,
    backoffMs: CLOUD_RETRY_BUDGET.firstDelayMs,
    taskDeadlineMs: CLOUD_RETRY_BUDGET.deadlineMs,
    ...options,
  });
}
