import type { AnyTask } from '../../tasks/task';
import { TaskExecutor, TaskExecutorOptions } from '../../tasks/task-executor';
import { CLOUD_RETRY_BUDGET } from '../retry-budget';
import type { GceCloud } from './gce-cloud';
import { classifyGceError } from './gce-errors';

/** Tasks at once: Compute's per-project write limits are generous, IAM's are not (the accounts are few). */
const CONCURRENCY = 8;

/**
 * Whether a task should be found and tried again: throttling and outages the client's own retries did not
 * ride out, a lost answer, and a stale fingerprint (412: the retry re-reads the resource first).
 */
export function isRetryableGceError(e: unknown): boolean {
  const kind = classifyGceError(e);
  return kind === 'throttled' || kind === 'unavailable' || kind === 'unreachable' || kind === 'precondition-failed';
}

/** A TaskExecutor for GCE tasks: a retry drops the inventory first, so the task sees what a failed attempt made. */
export function gceTaskExecutor(cloud: GceCloud, tasks: readonly AnyTask<GceCloud>[], options: TaskExecutorOptions = {}): TaskExecutor<GceCloud> {
  return new TaskExecutor(cloud, tasks, {
    isRetryable: isRetryableGceError,
    beforeRetry: () => cloud.inventory.invalidate(),
    isAccessDenied: (e) => classifyGceError(e) === 'access-denied',
    concurrency: CONCURRENCY,
    maxAttempts: CLOUD_RETRY_BUDGET.maxAttempts,
    backoffMs: CLOUD_RETRY_BUDGET.firstDelayMs,
    taskDeadlineMs: CLOUD_RETRY_BUDGET.deadlineMs,
    ...options,
  });
}
