import type { AnyTask, Change } from './task';

/** What one task will do: create a missing resource, update fields of an existing one, or nothing. */
export interface PlannedTask<C = unknown> {
  task: AnyTask<C>;
  action: 'create' | 'update' | 'none';
  /** The state find returned; undefined for a create. */
  actual: unknown;
  changes: Change[];
}

/** The result of finding every task and diffing it: one entry per task, in dependency order. */
export interface TaskPlan<C = unknown> {
  entries: PlannedTask<C>[];
  /** Whether applying would change anything. */
  hasChanges: boolean;
}
