import * as yaml from 'js-yaml';
import { deref, kindSchema, SchemaNode } from '../api/schema-registry';
import type { FieldError } from '../errors/field-error';
import { ValidationError } from '../errors/validation-error';

/**
 * Applies `--set path=value` assignments to an object (`spec.kubelet.maxPods=200`). The schema decides
 * how the text is read: booleans, integers, comma-separated lists, maps (`spec.cloudLabels.team=x`);
 * unknown fields are errors naming the flag (`set cluster` passes `flag: null`, so errors name the path
 * alone, and its own `subject`). All assignments are checked before any error is thrown.
 */
export function applySetFlags(
  target: Record<string, unknown>,
  kind: 'Cluster' | 'InstanceGroup',
  assignments: string[],
  { flag, subject }: { flag: string | null; subject: string } = { flag: '--set', subject: '--set' },
): void {
  const errors: FieldError[] = [];
  const label = (path: string) => (flag ? `${flag} ${path}` : path);
  for (const a of assignments) {
    const eq = a.indexOf('=');
    if (eq <= 0) {
      errors.push({ path: label(a), message: `expected path=value, e.g. ${flag ? `${flag} ` : ''}spec.kubelet.maxPods=200` });
      continue;
    }
    const path = a.slice(0, eq).replace(/^(cluster|instancegroup)\./, '');
    const problem = assign(target, kindSchema(kind), path.split('.'), a.slice(eq + 1));
    if (problem) errors.push({ path: label(path), message: problem });
  }
  if (errors.length > 0) throw new ValidationError(errors, subject);
}

function assign(root: Record<string, unknown>, rootSchema: SchemaNode, segs: string[], text: string): string | undefined {
  let obj = root;
  let { node, base } = deref(rootSchema, rootSchema);
  for (let i = 0; i < segs.length; i++) {
    const seg = segs[i];
    const last = i === segs.length - 1;
    let child = node.properties?.[seg];
    let key = seg;
    if (!child && typeof node.additionalProperties === 'object') {
      // A map: the rest of the path is the key (label keys contain dots).
      child = node.additionalProperties;
      key = segs.slice(i).join('.');
      i = segs.length - 1;
    }
    if (!child) return `unknown field "${seg}" at ${segs.slice(0, i).join('.') || 'the top level'}`;
    ({ node, base } = deref(child, base));
    if (last || key !== seg) {
      const value = coerce(node, base, text);
      if (value instanceof Error) return value.message;
      obj[key] = value;
      return undefined;
    }
    const next = obj[seg];
    if (next === undefined || next === null) obj[seg] = {};
    else if (typeof next !== 'object' || Array.isArray(next)) return `cannot set a field inside ${segs.slice(0, i + 1).join('.')}, which is not an object`;
    obj = obj[seg] as Record<string, unknown>;
  }
  return undefined;
}

function types(node: SchemaNode, base: SchemaNode): string[] {
  const t = node.type ? ([] as string[]).concat(node.type) : [];
  for (const alt of [...(node.anyOf ?? []), ...(node.oneOf ?? [])]) t.push(...types(deref(alt, base).node, base));
  return t;
}

function coerce(node: SchemaNode, base: SchemaNode, text: string): unknown {
  const t = types(node, base);
  if (t.includes('array')) {
    const items = node.items ? deref(node.items, base) : undefined;
    const values = text === '' ? [] : text.split(',').map((x) => (items ? coerce(items.node, items.base, x.trim()) : x.trim()));
    // An item that does not fit its type fails the whole value (it must never be stored as an Error object).
    return values.find((v) => v instanceof Error) ?? values;
  }
  if (t.includes('boolean') && (text === 'true' || text === 'false')) return text === 'true';
  if ((t.includes('integer') || t.includes('number')) && /^-?\d+(\.\d+)?$/.test(text) && !t.includes('string')) return Number(text);
  if (t.includes('string') || t.length === 0) return text;
  if (t.includes('object')) {
    if (text === '') return {};
    try {
      return yaml.load(text);
    } catch {
      return new Error(`"${text}" is not a valid object value (use YAML flow syntax, e.g. {key: value})`);
    }
  }
  if (t.includes('boolean')) return new Error(`"${text}" is not a boolean (true or false)`);
  return new Error(`"${text}" is not a number`);
}
