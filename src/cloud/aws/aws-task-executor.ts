import type { AnyTask } from '../../tasks/task';
import { TaskExecutor, TaskExecutorOptions } from '../../tasks/task-executor';
import type { AwsCloud } from './aws-cloud';
import { isRetryableAwsError } from './aws-errors';

/**
 * A TaskExecutor for AWS tasks: retryable errors are those aws-errors.ts classifies so (throttling,
 * eventual consistency, a create whose answer was lost), and a retry drops the cached inventory first so
 * the task finds what the failed attempt may have made.
 */
export function awsTaskExecutor(cloud: AwsCloud, tasks: readonly AnyTask<AwsCloud>[], options: TaskExecutorOptions = {}): TaskExecutor<AwsCloud> {
  return new TaskExecutor(cloud, tasks, { isRetryable: isRetryableAwsError, beforeRetry: () => cloud.inventory.invalidate(), ...options });
}
