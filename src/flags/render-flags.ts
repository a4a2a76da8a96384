import { componentDefinition, deref, SchemaNode } from '../api/schema-registry';

/**
 * Renders component settings as the exact command-line arguments the component starts with. The
 * field→flag mapping comes from the `x-kforge-flag` annotations in schemas/components.schema.json, so
 * the schema stays the single source of truth. Rules follow kops's flagbuilder: flags sorted by name,
 * lists comma-joined (or repeated where annotated), maps as sorted `k=v` pairs, empty values omitted.
 */
export function renderFlags(config: object | undefined, definition: string): string[] {
  return renderFlagFields(config, definition).map((f) => f.arg);
}

/** One rendered argument and the settings field it came from. */
export interface RenderedFlag {
  /** Flag name without dashes, e.g. `pod-infra-container-image`. */
  flag: string;
  /** The argument, e.g. `--pod-infra-container-image=registry.k8s.io/pause:3.10.1`. */
  arg: string;
  /** Field path inside the settings object, e.g. `podInfraContainerImage` or `leaderElection.leaderElect`. */
  path: string;
}

/** renderFlags with the field path of each argument, so validation can name the field a user set. */
export function renderFlagFields(config: object | undefined, definition: string): RenderedFlag[] {
  if (!config) return [];
  const { node, base } = componentDefinition(definition);
  const flags: RenderedFlag[] = [];
  collect(config as Record<string, unknown>, node, base, '', flags);
  return flags.sort((x, y) => (x.flag === y.flag ? x.arg.localeCompare(y.arg) : x.flag.localeCompare(y.flag)));
}

function collect(value: Record<string, unknown>, schema: SchemaNode, base: SchemaNode, prefix: string, out: RenderedFlag[]): void {
  for (const [field, v] of Object.entries(value)) {
    const raw = schema.properties?.[field];
    if (!raw || v === undefined || v === null) continue;
    const { node, base: b } = deref(raw, base);
    const flag = raw['x-kforge-flag'] ?? node['x-kforge-flag'];
    const path = `${prefix}${field}`;
    if (!flag) {
      // Nested settings blocks (e.g. leaderElection) carry their own flags.
      if (typeof v === 'object' && !Array.isArray(v) && node.properties) collect(v as Record<string, unknown>, node, b, `${path}.`, out);
      continue;
    }
    const includeEmpty = raw['x-kforge-flag-include-empty'] ?? node['x-kforge-flag-include-empty'] ?? false;
    const repeat = raw['x-kforge-flag-repeat'] ?? node['x-kforge-flag-repeat'] ?? false;
    // kops's `flag-empty`: this value means "unset", so the flag is left out (e.g. --v=0).
    const emptyValue = raw['x-kforge-flag-empty'] ?? node['x-kforge-flag-empty'];
    if (emptyValue !== undefined && scalar(v) === String(emptyValue)) continue;
    for (const rendered of renderValue(v, repeat, includeEmpty)) out.push({ flag, arg: `--${flag}=${rendered}`, path });
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
