import type { ResourceMapping } from './resource-mapper';

/** The URL of a resource's collection, in one namespace or across all. */
export function collectionPath(m: ResourceMapping, namespace?: string): string {
  const base = m.group ? `/apis/${m.group}/${m.version}` : `/api/${m.version}`;
  return `${base}${m.namespaced && namespace !== undefined ? `/namespaces/${encodeURIComponent(namespace)}` : ''}/${m.resource}`;
}
