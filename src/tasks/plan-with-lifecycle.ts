import type { Lifecycle } from './lifecycle';
import type { LifecycleProblem } from './lifecycle-check-error';
import { AnyTask, Change, taskKey } from './task';
import type { PlannedTask, TaskWarning } from './task-plan';

/** What planning one task under its lifecycle gives: its entry, and a warning or a problem. */
export interface LifecyclePlanResult<C> {
  entry: PlannedTask<C>;
  warning?: TaskWarning;
  problem?: LifecycleProblem;
}

/**
 * Plans one found task under its lifecycle (`denied`: its find was refused access and the lifecycle
 * tolerates that). Sync and WarnIfInsufficientAccess plan as always (the caller runs `check`); the others
 * are never applied: their differences are held (Ignore, ExistsAndWarnIfChanges, with a warning for the
 * latter) or are problems (ExistsAndValidates; a missing resource under either Exists lifecycle).
 */
export function planWithLifecycle<C>(task: AnyTask<C>, lifecycle: Lifecycle, actual: unknown, changes: Change[], denied?: string): LifecyclePlanResult<C> {
  const key = taskKey(task);
  const base = { task, actual, changes, ...(lifecycle === 'Sync' ? {} : { lifecycle }) };
  const warn = (message: string): TaskWarning => ({ task: key, lifecycle, message });
  if (denied !== undefined) {
    const entry: PlannedTask<C> = { ...base, changes: [], action: 'none', held: 'unchecked' };
    return { entry, warning: warn(`could not be read (${denied}); assumed to be as wanted and left alone`) };
  }
  const syncAction = actual === undefined ? 'create' : changes.length > 0 ? 'update' : 'none';
  if (lifecycle === 'Sync' || lifecycle === 'WarnIfInsufficientAccess') return { entry: { ...base, action: syncAction } };
  const entry: PlannedTask<C> = { ...base, action: 'none', ...(syncAction === 'none' ? {} : { held: syncAction }) };
  if (lifecycle === 'Ignore') return { entry };
  if (actual === undefined) return { entry, problem: { task: key, problem: `does not exist; ${task.kind}=${lifecycle} requires it to exist` } };
  if (changes.length === 0) return { entry };
  const fields = describeChanges(changes);
  if (lifecycle === 'ExistsAndValidates') return { entry, problem: { task: key, problem: `differs from the model (${task.kind}=ExistsAndValidates): ${fields}` } };
  return { entry, warning: warn(`differs from the model; left as it is: ${fields}`) };
}

/**
 * Tasks the plan would create or change although a dependency is held and missing (an ignored resource
 * that does not exist): they could not be applied, as they need its id. One problem per such pair.
 */
export function missingHeldDependencies<C>(entries: readonly PlannedTask<C>[], dependenciesOf: (t: AnyTask<C>) => readonly AnyTask<C>[]): LifecycleProblem[] {
  const byTask = new Map(entries.map((e) => [e.task, e]));
  const problems: LifecycleProblem[] = [];
  for (const e of entries) {
    if (e.action === 'none') continue;
    for (const d of dependenciesOf(e.task)) {
      const dep = byTask.get(d);
      // A missing resource that must exist (ExistsAnd…) is a problem of its own already; name it once.
      if (dep?.held !== 'create' || dep.lifecycle !== 'Ignore') continue;
      problems.push({ task: taskKey(e.task), problem: `would be ${e.action === 'create' ? 'created' : 'changed'} but needs ${taskKey(d)}, which does not exist and ${d.kind}=${dep.lifecycle} leaves alone` });
    }
  }
  return problems;
}

/** Differences as `field: old -> new`, each value cut to a readable length (a policy document is long). */
export function describeChanges(changes: readonly Change[]): string {
  return changes.map((c) => `${c.field}: ${show(c.from)} -> ${show(c.to)}`).join('; ');
}

function show(v: unknown): string {
  if (v === undefined) return '(unset)';
  const text = JSON.stringify(v);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}
