import type { Lifecycle } from './lifecycle';
import type { AnyTask, Change } from './task';

/** What one task will do: create a missing resource, update fields of an existing one, or nothing. */
export interface PlannedTask<C = unknown> {
  task: AnyTask<C>;
  /** What applying the plan does to the resource; `none` for a task its lifecycle leaves alone (see `held`). */
  action: 'create' | 'update' | 'none';
  /** The state find returned; undefined for a create (or a resource that could not be read, `held: 'unchecked'`). */
  actual: unknown;
  /** The differences found; for a held task, those left as they are. */
  changes: Change[];
  /** The task's lifecycle, when `--lifecycle-overrides` set one other than Sync. */
  lifecycle?: Lifecycle;
  /**
   * Set when the lifecycle keeps the engine from doing what Sync would: `create` (missing, Ignore), `update`
   * (differs; Ignore or ExistsAndWarnIfChanges), `unchecked` (could not be read, access denied; WarnIfInsufficientAccess).
   */
  held?: 'create' | 'update' | 'unchecked';
}

/** Something the engine let pass because of a task's lifecycle, for the user to read (kops's "problems possible"). */
export interface TaskWarning {
  /** `Kind/name`. */
  task: string;
  lifecycle: Lifecycle;
  message: string;
}

/** The result of finding every task and diffing it: one entry per task, in dependency order. */
export interface TaskPlan<C = unknown> {
  entries: PlannedTask<C>[];
  /** Whether applying would change anything. */
  hasChanges: boolean;
  /** What the lifecycles let pass while planning, sorted by task; absent or empty without overrides. */
  warnings?: TaskWarning[];
}
