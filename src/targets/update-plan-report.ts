import type { ManagedFileChange, ManagedFilesPlan } from '../ops/plan-managed-files';
import type { DuplicateName } from '../tasks/duplicate-name';
import type { Lifecycle } from '../tasks/lifecycle';
import type { Change } from '../tasks/task';
import type { PlannedTask, TaskPlan, TaskWarning } from '../tasks/task-plan';

/** One resource of an update plan, as `-o json` prints it. */
export interface PlanResource {
  /** Resource type, e.g. `Subnet`, `Keypair`, `ManagedFile`. */
  type: string;
  name: string;
  action: 'create' | 'update' | 'delete' | 'none';
  /** Fields that change (update), `from` absent when unset; for a ManagedFile, the diff instead. */
  changes?: Array<{ field: string; from?: unknown; to?: unknown }>;
  /** The lines that change, `- old` / `+ new` (ManagedFile updates only). */
  diff?: string;
  /** The task's lifecycle, when `--lifecycle-overrides` set one other than Sync. */
  lifecycle?: Lifecycle;
  /**
   * What the lifecycle keeps update from doing (`action` is then `none`): `create` (missing), `update` (differs;
   * `changes` lists the differences left as they are), `unchecked` (could not be read: access denied).
   */
  held?: 'create' | 'update' | 'unchecked';
}

/** An update plan as data: the stable shape of `update cluster -o json`. */
export interface UpdatePlanReport {
  cluster: string;
  /** Whether applying would change anything. */
  hasChanges: boolean;
  /** Every resource and state-store object update manages, sorted by type then name. */
  resources: PlanResource[];
  /** Counts by action; a resource with `held` is in none of them. */
  summary: { create: number; update: number; delete: number; unchanged: number };
  /** What the lifecycle overrides let pass (differences left, access denied), sorted by task; only when there is any. */
  warnings?: TaskWarning[];
  /** Names that match more than one resource of the cluster, sorted by type then name; only when there is any. */
  duplicates?: DuplicateName[];
}

/**
 * The plan of `update cluster` as data: the cloud tasks, the keysets to create and the managed files
 * (`otherFiles`: those outside the state store, such as the OIDC discovery documents, named by URL),
 * and the cloud resources the model no longer has (`orphans`, to delete),
 * sorted by type and name, so the same state gives the same bytes. Never holds key material: keysets
 * appear by name, managed files by path and line diff (they hold certificates, never private keys).
 */
export function updatePlanReport(
  cluster: string,
  cloudPlan: TaskPlan,
  managed: ManagedFilesPlan,
  otherFiles: readonly ManagedFileChange[] = [],
  orphans: readonly { kind: string; name: string }[] = [],
  warnings: readonly TaskWarning[] = cloudPlan.warnings ?? [],
  duplicates: readonly DuplicateName[] = [],
): UpdatePlanReport {
  const resources: PlanResource[] = [
    ...cloudPlan.entries.map(cloudResource),
    ...managed.keysetsToCreate.map((name): PlanResource => ({ type: 'Keypair', name, action: 'create' })),
    ...orphans.map((o): PlanResource => ({ type: o.kind, name: o.name, action: 'delete' })),
    ...[...managed.files, ...otherFiles].map((f): PlanResource => ({ type: 'ManagedFile', name: f.path, action: f.action, ...(f.action === 'update' && f.diff ? { diff: f.diff } : {}) })),
  ].sort((a, b) => (a.type === b.type ? cmp(a.name, b.name) : cmp(a.type, b.type)));
  const count = (a: PlanResource['action']): number => resources.filter((r) => r.action === a && r.held === undefined).length;
  return {
    cluster,
    hasChanges: resources.some((r) => r.action !== 'none'),
    resources,
    summary: { create: count('create'), update: count('update'), delete: count('delete'), unchanged: count('none') },
    ...(warnings.length > 0 ? { warnings: [...warnings] } : {}),
    ...(duplicates.length > 0 ? { duplicates: duplicates.map((d) => ({ ...d, ids: [...d.ids] })) } : {}),
  };
}

// Fields a create shows with their values, so that what costs money is seen before --yes (a mistyped size).
const SHOWN_AT_CREATE: Readonly<Record<string, readonly string[]>> = { AutoScalingGroup: ['minSize', 'maxSize'] };

/** A cloud task as a plan resource: its action, the changes of an update (a few fields of a create), and what its lifecycle holds back. */
function cloudResource(e: PlannedTask): PlanResource {
  const shown = e.action === 'create' && e.held === undefined ? (SHOWN_AT_CREATE[e.task.kind] ?? []) : [];
  const created = shown.flatMap((f) => e.changes.filter((c) => c.field === f)).map(jsonChange);
  const changes = e.action === 'update' || e.held === 'update' ? { changes: e.changes.map(jsonChange) } : created.length > 0 ? { changes: created } : {};
  return { type: e.task.kind, name: e.task.name, action: e.action, ...changes, ...(e.lifecycle ? { lifecycle: e.lifecycle } : {}), ...(e.held ? { held: e.held } : {}) };
}

/**
 * The plan as kops prints it: "Will create resources:" grouped by type, "Will modify resources:" with
 * each field `old -> new` (a managed file with its changed lines), "Will delete resources:"; then what
 * `--lifecycle-overrides` holds back, "Will not modify resources (lifecycle overrides):", each with its
 * lifecycle and why; "No changes" when there is nothing to do. Last, whatever the plan, a warning lists each
 * name that matches more than one resource, with every id. The caller adds the "--yes" hint.
 */
export function renderUpdatePlan(report: UpdatePlanReport): string {
  return renderChanges(report) + renderDuplicates(report.duplicates ?? []);
}

function renderChanges(report: UpdatePlanReport): string {
  const heldCount = report.resources.filter((r) => r.held !== undefined).length;
  if (!report.hasChanges && heldCount === 0) return `No changes: cluster "${report.cluster}" is up to date (${report.summary.unchanged} resources)\n`;
  const out: string[] = [];
  const section = (title: string, action: PlanResource['action'] | 'held', body: (r: PlanResource) => string[], label = (r: PlanResource): string => r.name): void => {
    const items = report.resources.filter((r) => (action === 'held' ? r.held !== undefined : r.action === action && r.held === undefined));
    if (items.length === 0) return;
    out.push(`${title}:`);
    let type = '';
    for (const r of items) {
      if (r.type !== type) out.push(`  ${(type = r.type)}`);
      out.push(`    ${label(r)}`, ...body(r).map((l) => `      ${l}`));
    }
    out.push('');
  };
  section('Will create resources', 'create', (r) => valueLines(r.changes ?? []));
  section('Will modify resources', 'update', (r) => (r.diff ? r.diff.replace(/\n+$/, '').split('\n') : fieldLines(r.changes ?? [])));
  section('Will delete resources', 'delete', () => []);
  section('Will not modify resources (lifecycle overrides)', 'held', (r) => fieldLines(r.changes ?? []), (r) => `${r.name}  (${r.lifecycle ?? 'Sync'}: ${HELD_REASON[r.held ?? 'update']})`);
  const s = report.summary;
  const held = heldCount > 0 ? `, ${heldCount} not modified (lifecycle overrides)` : '';
  if (!report.hasChanges) out.push(`No changes to apply: cluster "${report.cluster}" (${s.unchanged} unchanged${held})`);
  else out.push(`${s.create} to create, ${s.update} to modify, ${s.delete} to delete, ${s.unchanged} unchanged${held}`);
  return `${out.join('\n')}\n`;
}

/**
 * The duplicates warning: "No changes" must not read as "exactly one of each". The extra resources are
 * listed for the user to check and delete; update never deletes a resource it did not choose.
 */
function renderDuplicates(duplicates: readonly DuplicateName[]): string {
  if (duplicates.length === 0) return '';
  const out = ['', 'Warning: names that match more than one resource of the cluster (update uses the first and leaves the others alone):'];
  let type = '';
  for (const d of duplicates) {
    if (d.type !== type) out.push(`  ${(type = d.type)}`);
    out.push(`    ${d.name}: ${d.ids.map((id) => (id === d.used ? `${id} (used)` : id)).join(', ')}`);
  }
  return `${out.join('\n')}\n`;
}

// Why a held resource is listed: what Sync would have done to it.
const HELD_REASON: Readonly<Record<NonNullable<PlanResource['held']>, string>> = {
  create: 'does not exist, not created',
  update: 'differs, not changed',
  unchecked: 'could not be read, left alone',
};

function fieldLines(changes: NonNullable<PlanResource['changes']>): string[] {
  const width = Math.max(0, ...changes.map((c) => c.field.length));
  return changes.map((c) => `${c.field.padEnd(width)}  ${show(c.from)} -> ${show(c.to)}`);
}

/** A create's shown fields, `field  value`. */
function valueLines(changes: NonNullable<PlanResource['changes']>): string[] {
  const width = Math.max(0, ...changes.map((c) => c.field.length));
  return changes.map((c) => `${c.field.padEnd(width)}  ${show(c.to)}`);
}

function jsonChange(c: Change): { field: string; from?: unknown; to?: unknown } {
  return { field: c.field, ...(c.from === undefined ? {} : { from: c.from }), ...(c.to === undefined ? {} : { to: c.to }) };
}

function show(v: unknown): string {
  if (v === undefined) return '(unset)';
  const text = JSON.stringify(v);
  // A policy document or user-data is long; the field name says what changed, a prefix is enough to see how.
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
