import { componentDefinition, deref, SchemaNode } from '../api/schema-registry';

/**
 * Renders component settings as the exact command-line arguments the component starts with. The
 * field→flag mapping comes from the `x-kforge-flag` annotations in schemas/components.schema.json, so
 * the schema stays the single source of truth. Rules follow kops's flagbuilder: flags sorted by name,
 * lists comma-joined (or repeated where annotated), maps as sorted `k=v` pairs, empty values omitted.
 */
export function renderFlags(config: object | undefined, definition: string): string[] {
  if (!config) return [];
  const { node, base } = componentDefinition(definition);
  const flags: Array<[string, string]> = [];
  collect(config as Record<string, unknown>, node, base, flags);
  return flags.sort(([a, va], [b, vb]) => (a === b ? va.localeCompare(vb) : a.localeCompare(b))).map(([, arg]) => arg);
}

function collect(value: Record<string, unknown>, schema: SchemaNode, base: SchemaNode, out: Array<[string, string]>): void {
  for (const [field, v] of Object.entries(value)) {
    const raw = schema.properties?.[field];
    if (!raw || v === undefined || v === null) continue;
    const { node, base: b } = deref(raw, base);
    const flag = raw['x-kforge-flag'] ?? node['x-kforge-flag'];
    if (!flag) {
      // Nested settings blocks (e.g. leaderElection) carry their own flags.
      if (typeof v === 'object' && !Array.isArray(v) && node.properties) collect(v as Record<string, unknown>, node, b, out);
      continue;
    }
    const includeEmpty = raw['x-kforge-flag-include-empty'] ?? node['x-kforge-flag-include-empty'] ?? false;
    const repeat = raw['x-kforge-flag-repeat'] ?? node['x-kforge-flag-repeat'] ?? false;
    // kops's `flag-empty`: this value means "unset", so the flag is left out (e.g. --v=0).
    const emptyValue = raw['x-kforge-flag-empty'] ?? node['x-kforge-flag-empty'];
    if (emptyValue !== undefined && scalar(v) === String(emptyValue)) continue;
    for (const rendered of renderValue(v, repeat, includeEmpty)) out.push([flag, `--${flag}=${rendered}`]);
  }
}

function renderValue(v: unknown, repeat: boolean, includeEmpty: boolean): string[] {
  if (Array.isArray(v)) {
    const items = v.map((x) => scalar(x));
    if (items.length === 0) return includeEmpty ? [''] : [];
    return repeat ? items : [items.join(',')];
  }
  if (typeof v === 'object' && v !== null) {
    const pairs = Object.entries(v as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b)).map(([k, x]) => `${k}=${scalar(x)}`);
    if (pairs.length === 0) return includeEmpty ? [''] : [];
    return repeat ? pairs : [pairs.join(',')];
  }
  const s = scalar(v);
  return s === '' && !includeEmpty ? [] : [s];
}

function scalar(x: unknown): string {
  return typeof x === 'string' ? x : typeof x === 'number' || typeof x === 'boolean' ? String(x) : JSON.stringify(x);
}
