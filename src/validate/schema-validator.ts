import Ajv, { ErrorObject, ValidateFunction } from 'ajv';
import { allSchemas, kindSchema } from '../api/schema-registry';
import type { FieldError } from '../errors/field-error';
import { formats } from './cidr-format';

let ajv: Ajv | undefined;
const compiled = new Map<string, ValidateFunction>();

function validatorFor(kind: 'Cluster' | 'InstanceGroup'): ValidateFunction {
  let v = compiled.get(kind);
  if (v) return v;
  // Built validators (scripts/compile-validators.js) skip ajv's compile step; tests from source compile at run time.
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const built = require('./compiled-validators') as Record<string, ValidateFunction>;
    if (built[kind]) {
      compiled.set(kind, built[kind]);
      return built[kind];
    }
  } catch {
    // not built: fall through to compiling the schemas now
  }
  if (!ajv) {
    ajv = new Ajv({ allErrors: true, strict: false, allowUnionTypes: true });
    for (const [name, format] of Object.entries(formats)) ajv.addFormat(name, format);
    for (const [id, schema] of allSchemas()) if (!ajv.getSchema(id)) ajv.addSchema(schema, id);
  }
  v = ajv.getSchema(kindSchema(kind).$id as string) as ValidateFunction;
  compiled.set(kind, v);
  return v;
}

/** Validates an object against the JSON Schema of its kind; returns every problem with its field path. */
export function validateAgainstSchema(kind: 'Cluster' | 'InstanceGroup', value: unknown): FieldError[] {
  const validate = validatorFor(kind);
  if (validate(value)) return [];
  return toFieldErrors(validate.errors ?? [], value);
}

/** `/spec/subnets/1/cidr` → `spec.subnets[1].cidr`; keys that are not identifiers get `["…"]`. */
export function instancePathToFieldPath(instancePath: string): string {
  let out = '';
  for (const raw of instancePath.split('/').slice(1)) {
    const seg = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (/^\d+$/.test(seg)) out += `[${seg}]`;
    else if (/^[A-Za-z_$][\w$-]*$/.test(seg)) out += out ? `.${seg}` : seg;
    else out += `[${JSON.stringify(seg)}]`;
  }
  return out;
}

function valueAt(root: unknown, instancePath: string): unknown {
  let cur = root;
  for (const raw of instancePath.split('/').slice(1)) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[raw.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  return cur;
}

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'object') return 'an object';
  return `${typeof v} ${JSON.stringify(v)}`;
}

function toFieldErrors(errors: ErrorObject[], root: unknown): FieldError[] {
  // anyOf/oneOf report each failed branch too; keep one message per path for those.
  const unionPaths = new Set(errors.filter((e) => e.keyword === 'anyOf' || e.keyword === 'oneOf').map((e) => e.instancePath));
  const out: FieldError[] = [];
  const seen = new Set<string>();
  for (const e of errors) {
    if (unionPaths.has(e.instancePath) && e.keyword !== 'anyOf' && e.keyword !== 'oneOf') continue;
    const path = instancePathToFieldPath(e.instancePath);
    const value = valueAt(root, e.instancePath);
    let fe: FieldError;
    switch (e.keyword) {
      case 'additionalProperties': {
        const extra = (e.params as { additionalProperty: string }).additionalProperty;
        fe = { path: instancePathToFieldPath(`${e.instancePath}/${extra.replace(/~/g, '~0').replace(/\//g, '~1')}`), message: 'unknown field' };
        break;
      }
      case 'required': {
        const missing = (e.params as { missingProperty: string }).missingProperty;
        fe = { path: path ? `${path}.${missing}` : missing, message: 'is required' };
        break;
      }
      case 'type':
        fe = { path, message: `must be ${String((e.params as { type: string | string[] }).type).replace(',', ' or ')}, got ${describe(value)}` };
        break;
      case 'enum':
        fe = { path, message: `${JSON.stringify(value)} is not one of ${((e.params as { allowedValues: unknown[] }).allowedValues).map((x) => JSON.stringify(x)).join(', ')}` };
        break;
      case 'const':
        fe = { path, message: `must be ${JSON.stringify((e.params as { allowedValue: unknown }).allowedValue)}, got ${JSON.stringify(value)}` };
        break;
      case 'format':
        fe = { path, message: `${JSON.stringify(value)} is not a valid ${FORMAT_NAMES[(e.params as { format: string }).format] ?? (e.params as { format: string }).format}` };
        break;
      case 'pattern':
        fe = { path, message: `${JSON.stringify(value)} is not valid (expected to match ${(e.params as { pattern: string }).pattern})` };
        break;
      case 'anyOf':
      case 'oneOf':
        fe = { path, message: `${describe(value)} is not an allowed value` };
        break;
      default:
        fe = { path, message: `${e.message ?? 'is invalid'}` };
    }
    const key = `${fe.path}|${fe.message}`;
    if (!seen.has(key)) {
      seen.add(key);
      out.push(fe);
    }
  }
  return out;
}

/** How format names read in error messages. */
const FORMAT_NAMES: Record<string, string> = { cidr: 'CIDR', 'cidr-or-prefix-list': 'CIDR or AWS managed prefix list (pl-…)' };
