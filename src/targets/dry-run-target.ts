import { taskKey } from '../tasks/task';
import type { TaskPlan } from '../tasks/task-plan';

/**
 * The dry-run target: a plan as text, one line per task sorted by `Kind/name`, then a count line.
 * `+ create Kind/name`, `~ update Kind/name: field: old -> new, …`, `= unchanged Kind/name`.
 * Deterministic: the same plan gives the same bytes.
 */
export function renderPlan(plan: TaskPlan): string {
  const entries = [...plan.entries].sort((a, b) => (taskKey(a.task) < taskKey(b.task) ? -1 : 1));
  const lines = entries.map((e) => {
    const key = taskKey(e.task);
    if (e.action === 'create') return `+ create ${key}`;
    if (e.action === 'none') return `= unchanged ${key}`;
    return `~ update ${key}: ${e.changes.map((c) => `${c.field}: ${show(c.from)} -> ${show(c.to)}`).join(', ')}`;
  });
  const count = (a: string): number => entries.filter((e) => e.action === a).length;
  lines.push(plan.hasChanges ? `${count('create')} to create, ${count('update')} to update, ${count('none')} unchanged` : `No changes (${entries.length} resources)`);
  return `${lines.join('\n')}\n`;
}

function show(v: unknown): string {
  return v === undefined ? '(unset)' : JSON.stringify(v);
}
