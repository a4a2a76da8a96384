import { KubeStatusError } from './kube-status';
import type { Loose } from './kube-store';

/** Which fields each manager owns, as server-side apply tracks them (`metadata.managedFields`). */
export type ManagedFields = Record<string, { operation: 'Apply' | 'Update'; apiVersion: string; paths: string[] }>;

/** Fields no manager owns: identity and server-set metadata, and status (written through its own subresource). */
const UNOWNED = new Set(['["apiVersion"]', '["kind"]', '["metadata","name"]', '["metadata","namespace"]', '["metadata","uid"]', '["metadata","resourceVersion"]', '["metadata","creationTimestamp"]', '["metadata","generation"]', '["metadata","managedFields"]', '["metadata","deletionTimestamp"]']);

const isObject = (v: unknown): v is Record<string, Loose> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The leaf fields of an object as JSON-encoded key paths: scalars, lists (atomic here: the real server merges
 * some lists by key, which no test of the fake needs) and empty maps. Status and server-set metadata are left out.
 */
export function leafPaths(obj: Loose, prefix: string[] = []): string[] {
  const out: string[] = [];
  for (const [k, v] of Object.entries(obj ?? {})) {
    const path = [...prefix, k];
    const key = JSON.stringify(path);
    if (UNOWNED.has(key) || (prefix.length === 0 && k === 'status')) continue;
    if (isObject(v) && Object.keys(v).length > 0) out.push(...leafPaths(v, path));
    else out.push(key);
  }
  return out;
}

function valueAt(obj: Loose, path: string[]): Loose {
  let cur = obj;
  for (const k of path) cur = isObject(cur) ? cur[k] : undefined;
  return cur;
}

function setAt(obj: Loose, path: string[], value: Loose): void {
  let cur = obj;
  for (const k of path.slice(0, -1)) {
    if (!isObject(cur[k])) cur[k] = {};
    cur = cur[k];
  }
  cur[path[path.length - 1]] = structuredClone(value);
}

function deleteAt(obj: Loose, path: string[]): void {
  const parents: Loose[] = [];
  let cur = obj;
  for (const k of path.slice(0, -1)) {
    if (!isObject(cur[k])) return;
    parents.push(cur);
    cur = cur[k];
  }
  delete cur[path[path.length - 1]];
  // A map emptied by the removal goes too, as the server's merge leaves no empty parents of removed fields.
  for (let i = path.length - 2; i >= 0; i--) {
    const parent = parents[i];
    if (isObject(parent[path[i]]) && Object.keys(parent[path[i]]).length === 0) delete parent[path[i]];
    else break;
  }
}

const overlaps = (a: string, b: string): boolean => a === b || a.startsWith(b.slice(0, -1) + ',') || b.startsWith(a.slice(0, -1) + ',');

/** `.data.key`, the field path form a conflict's message and cause use. */
export function dotted(path: string): string {
  return (JSON.parse(path) as string[]).map((k) => `.${k}`).join('');
}

/** The result of an apply: the new object, its managed fields, and whether anything changed. */
export interface ApplyResult {
  object: Loose;
  managed: ManagedFields;
  changed: boolean;
}

/**
 * Server-side apply of `config` by `manager` onto `current` (undefined: a create). A field another manager
 * owns with a different value is a conflict: 409 with one `FieldManagerConflict` cause per field, unless
 * `force`, which takes the field over. Fields this manager applied before and no longer applies are removed
 * when no other manager owns them. Lists are atomic.
 */
export function serverSideApply(current: Loose | undefined, managed: ManagedFields, config: Loose, manager: string, force: boolean): ApplyResult {
  const base = structuredClone(current ?? { metadata: {} });
  const next: ManagedFields = structuredClone(managed);
  const paths = leafPaths(config);
  const conflicts: { manager: string; path: string; apiVersion: string }[] = [];
  for (const p of paths) {
    const want = valueAt(config, JSON.parse(p));
    for (const [other, owned] of Object.entries(next)) {
      if (other === manager) continue;
      for (const q of owned.paths.filter((x) => overlaps(x, p))) {
        if (JSON.stringify(valueAt(base, JSON.parse(q))) !== JSON.stringify(q === p ? want : valueAt(config, JSON.parse(q)))) conflicts.push({ manager: other, path: q, apiVersion: owned.apiVersion });
      }
    }
  }
  if (conflicts.length > 0 && !force) {
    const causes = conflicts.map((c) => ({ reason: 'FieldManagerConflict', message: `conflict with "${c.manager}" using ${c.apiVersion}`, field: dotted(c.path) }));
    const list = causes.map((c) => `${c.message}: ${c.field}`).join('\n- ');
    const message = conflicts.length === 1 ? `Apply failed with 1 conflict: ${list}` : `Apply failed with ${conflicts.length} conflicts: \n- ${list}`;
    throw new KubeStatusError(409, 'Conflict', message, { causes });
  }
  for (const c of conflicts) {
    const owner = next[c.manager];
    owner.paths = owner.paths.filter((q) => q !== c.path);
    if (owner.paths.length === 0) delete next[c.manager];
  }
  const before = next[manager]?.paths ?? [];
  for (const p of before) {
    if (paths.includes(p)) continue;
    const ownedElsewhere = Object.entries(next).some(([m, o]) => m !== manager && o.paths.some((q) => overlaps(q, p)));
    if (!ownedElsewhere) deleteAt(base, JSON.parse(p));
  }
  for (const p of paths) setAt(base, JSON.parse(p), valueAt(config, JSON.parse(p)));
  next[manager] = { operation: 'Apply', apiVersion: config.apiVersion, paths: [...paths].sort() };
  const changed = current === undefined || JSON.stringify(base) !== JSON.stringify(current) || JSON.stringify(next) !== JSON.stringify(managed);
  return { object: base, managed: next, changed };
}

/** After a non-apply write by `manager`, that manager owns every field the write changed, and the others lose them (as an update does). */
export function recordUpdate(managed: ManagedFields, before: Loose, after: Loose, manager: string, apiVersion: string): ManagedFields {
  const old = new Set(leafPaths(before).map((p) => `${p}=${JSON.stringify(valueAt(before, JSON.parse(p)))}`));
  const changed = leafPaths(after).filter((p) => !old.has(`${p}=${JSON.stringify(valueAt(after, JSON.parse(p)))}`));
  if (changed.length === 0) return managed;
  const next: ManagedFields = structuredClone(managed);
  for (const [m, o] of Object.entries(next)) {
    o.paths = o.paths.filter((q) => !changed.some((p) => overlaps(p, q)));
    if (o.paths.length === 0) delete next[m];
  }
  const mine = next[manager]?.operation === 'Update' ? next[manager].paths : [];
  next[manager] = { operation: 'Update', apiVersion, paths: [...new Set([...mine, ...changed])].sort() };
  return next;
}

/** `metadata.managedFields` as the API serves it (FieldsV1), sorted by manager. */
export function managedFieldsView(managed: ManagedFields): Loose[] {
  return Object.entries(managed)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([manager, o]) => {
      const fields: Loose = {};
      for (const p of o.paths) {
        let cur = fields;
        for (const k of JSON.parse(p) as string[]) cur = cur[`f:${k}`] ??= {};
      }
      return { manager, operation: o.operation, apiVersion: o.apiVersion, time: '2026-01-01T00:00:00Z', fieldsType: 'FieldsV1', fieldsV1: fields };
    });
}
