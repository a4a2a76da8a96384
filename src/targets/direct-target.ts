import type { TaskExecutor } from '../tasks/task-executor';
import type { TaskPlan } from '../tasks/task-plan';

/** What an apply did, by action. */
export interface ApplyReport {
  created: string[];
  updated: string[];
  unchanged: number;
}

/**
 * The direct target: applies a plan to the cloud through the executor (dependency order, bounded
 * parallelism, retries) and reports what it created and updated. Nothing is called for a plan without changes.
 */
export async function applyPlan<C>(executor: TaskExecutor<C>, plan: TaskPlan<C>): Promise<ApplyReport> {
  if (plan.hasChanges) await executor.apply(plan);
  const keys = (action: string): string[] => plan.entries.filter((e) => e.action === action).map((e) => `${e.task.kind}/${e.task.name}`);
  return { created: keys('create'), updated: keys('update'), unchanged: plan.entries.filter((e) => e.action === 'none').length };
}
