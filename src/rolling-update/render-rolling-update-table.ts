import { renderTable } from '../cli/output';
import type { GroupPlan } from './rolling-update-plan';

/** A group's STATUS column: kops's `NeedsUpdate` or `Ready`, or `Missing` when it has no Auto Scaling group yet. */
export function groupStatus(g: GroupPlan): string {
  if (!g.cloud) return 'Missing';
  return g.needUpdate.length > 0 ? 'NeedsUpdate' : 'Ready';
}

/**
 * kops's rolling-update table: NAME STATUS NEEDUPDATE READY MIN TARGET MAX NODES, one row per selected group
 * in update order. NEEDUPDATE counts detached instances too; NODES counts the instances with a Node.
 */
export function renderRollingUpdateTable(groups: readonly GroupPlan[]): string {
  const rows = groups.map((g) => {
    const nodes = [...g.needUpdate, ...g.ready].filter((i) => i.node !== undefined).length;
    const c = g.cloud;
    return [g.name, groupStatus(g), String(g.needUpdate.length), String(g.ready.length), String(c?.minSize ?? 0), String(c?.desired ?? 0), String(c?.maxSize ?? 0), String(nodes)];
  });
  return renderTable(['NAME', 'STATUS', 'NEEDUPDATE', 'READY', 'MIN', 'TARGET', 'MAX', 'NODES'], rows);
}
