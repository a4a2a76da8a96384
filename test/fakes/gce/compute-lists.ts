import { invalid } from './compute-errors';
import type { ManagedInstances } from './compute-managed-instances';
import { COMPUTE_BASE, ComputeStore, Resource } from './compute-store';

/** One page of a list (`maxResults`, at most 500; `pageToken` is the offset). */
export function page(items: Resource[], query: URLSearchParams, field: string): Resource {
  const max = Math.min(Number(query.get('maxResults') ?? 500), 500);
  const start = Number(query.get('pageToken') ?? 0);
  return { [field]: items.slice(start, start + max), ...(start + max < items.length ? { nextPageToken: String(start + max) } : {}) };
}

/**
 * `aggregated/<collection>`: every zone's or region's resources, filtered and paged over all scopes, as
 * `items: {"zones/z": {<collection>: […]}}` (scopes with none on the page are left out).
 */
export function aggregatedList(store: ComputeStore, managed: ManagedInstances, service: string, path: string, query: URLSearchParams): Resource {
  const [, project, , kind] = path.split('/');
  const scoped = [...store.collections.keys()].filter((c) => new RegExp(`^projects/${project}/(zones|regions)/[^/]+/${kind}$`).test(c)).sort();
  let all = scoped.flatMap((c) => store.list(c).map((r) => ({ scope: c.split('/').slice(2, 4).join('/'), r: service === 'InstanceGroupManagers' ? managed.view(c.split('/').slice(0, -1).join('/'), r) : r })));
  const filter = query.get('filter');
  if (filter) {
    const test = matcher(filter);
    all = all.filter((x) => test(x.r));
  }
  const { items, nextPageToken } = page(all.map((x) => ({ ...x })), query, 'items') as { items: Array<{ scope: string; r: Resource }>; nextPageToken?: string };
  const grouped: Record<string, Resource> = {};
  for (const x of items) ((grouped[x.scope] ??= { [kind]: [] })[kind] as Resource[]).push(x.r);
  return { kind: `compute#${service[0].toLowerCase()}${service.slice(1, -1)}AggregatedList`, id: path, items: grouped, selfLink: COMPUTE_BASE + path, ...(nextPageToken ? { nextPageToken } : {}) };
}

/** A list filter: `expr AND expr`, each `field = "value"` / `field eq value` / `(…)`, `labels.k` reading a label. Others: 400. */
export function matcher(filter: string): (r: Resource) => boolean {
  const parts = filter.split(/\s+AND\s+/i).map((p) => p.trim().replace(/^\((.*)\)$/, '$1').trim());
  const tests = parts.map((p) => {
    const m = /^([a-zA-Z][\w.-]*)\s*(=|eq)\s*"?([^"]*)"?$/.exec(p);
    if (!m) throw invalid(`Invalid value for field 'filter': '${filter}'. Invalid list filter expression.`);
    const [, field, op, value] = m;
    return (r: Resource) => {
      const v = field.startsWith('labels.') ? (r.labels as Record<string, string> | undefined)?.[field.slice(7)] : r[field];
      return op === 'eq' ? new RegExp(`^${value}$`).test(String(v ?? '')) : String(v ?? '') === value;
    };
  });
  return (r) => tests.every((t) => t(r));
}
