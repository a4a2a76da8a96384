import * as fs from 'node:fs';
import * as path from 'node:path';
import { packageRoot } from '../util/package-root';

/** A JSON Schema node as kforge's schemas use it (draft-07 subset plus x-kforge-* annotations). */
export interface SchemaNode {
  $id?: string;
  $ref?: string;
  type?: string | string[];
  title?: string;
  description?: string;
  default?: unknown;
  enum?: unknown[];
  format?: string;
  properties?: Record<string, SchemaNode>;
  additionalProperties?: boolean | SchemaNode;
  items?: SchemaNode;
  anyOf?: SchemaNode[];
  oneOf?: SchemaNode[];
  definitions?: Record<string, SchemaNode>;
  required?: string[];
  'x-kforge-flag'?: string;
  'x-kforge-flag-repeat'?: boolean;
  'x-kforge-flag-include-empty'?: boolean;
  'x-kforge-flag-empty'?: string;
  [key: string]: unknown;
}

/** Schema file names in schemas/, by the kind they describe. */
export const SCHEMA_FILES = ['cluster.schema.json', 'instancegroup.schema.json', 'components.schema.json'];

let loaded: Map<string, SchemaNode> | undefined;

/** All schemas of schemas/, keyed by their `$id`. Loaded once per process. */
export function allSchemas(): Map<string, SchemaNode> {
  if (loaded) return loaded;
  const dir = path.join(packageRoot(), 'schemas');
  loaded = new Map();
  for (const f of SCHEMA_FILES) {
    const file = path.join(dir, f);
    if (!fs.existsSync(file)) continue;
    const schema = JSON.parse(fs.readFileSync(file, 'utf8')) as SchemaNode;
    loaded.set(schema.$id as string, schema);
  }
  return loaded;
}

/** The root schema of a kind: `Cluster` or `InstanceGroup`. */
export function kindSchema(kind: 'Cluster' | 'InstanceGroup'): SchemaNode {
  const id = kind === 'Cluster' ? 'https://kforge.dev/schemas/cluster.json' : 'https://kforge.dev/schemas/instancegroup.json';
  const s = allSchemas().get(id);
  if (!s) throw new Error(`schema ${id} is missing from schemas/`);
  return s;
}

/** Follows `$ref`s (local `#/definitions/X` or `file.json#/definitions/X`) until a concrete node. */
export function deref(node: SchemaNode, base: SchemaNode): { node: SchemaNode; base: SchemaNode } {
  let n = node;
  let b = base;
  for (let guard = 0; n.$ref && guard < 32; guard++) {
    const [file, pointer] = n.$ref.split('#');
    if (file) {
      const baseId = b.$id ?? 'https://kforge.dev/schemas/';
      const id = new URL(file, baseId).href;
      const target = allSchemas().get(id);
      if (!target) throw new Error(`unresolved schema reference ${n.$ref}`);
      b = target;
    }
    let cur: unknown = b;
    for (const seg of (pointer ?? '').split('/').filter(Boolean)) cur = (cur as Record<string, unknown>)[decodeURIComponent(seg)];
    if (!cur) throw new Error(`unresolved schema reference ${n.$ref}`);
    n = cur as SchemaNode;
  }
  return { node: n, base: b };
}

/** The named definition in components.schema.json (e.g. `KubeAPIServerConfig`). */
export function componentDefinition(name: string): { node: SchemaNode; base: SchemaNode } {
  const base = allSchemas().get('https://kforge.dev/schemas/components.json');
  const node = base?.definitions?.[name];
  if (!base || !node) throw new Error(`definition ${name} is missing from schemas/components.schema.json`);
  return deref(node, base);
}
