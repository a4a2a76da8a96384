import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

/** Root of the repository. */
const ROOT = path.join(__dirname, '..', '..');
const SCHEMA_DIR = path.join(ROOT, 'schemas');

/** Runs a generator script in --check mode; returns its exit status and everything it printed. */
function runCheck(script: string): { status: number | null; output: string } {
  const r = spawnSync(process.execPath, [path.join('scripts', script), '--check'], { cwd: ROOT, encoding: 'utf8' });
  if (r.error) throw r.error;
  return { status: r.status, output: `${r.stdout}${r.stderr}` };
}

type Schema = { [key: string]: unknown };

function isSchema(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** RFC 6901 escaping of one JSON pointer token. */
function token(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** Keywords whose value is a map of name -> subschema. */
const SCHEMA_MAPS = ['properties', 'patternProperties', 'definitions', '$defs'];
/** Keywords whose value is one subschema (or, for items, possibly a list of subschemas). */
const SCHEMA_VALUES = ['items', 'additionalItems', 'additionalProperties', 'contains', 'propertyNames', 'not', 'if', 'then', 'else'];
/** Keywords whose value is a list of subschemas. */
const SCHEMA_LISTS = ['allOf', 'anyOf', 'oneOf'];

/**
 * Calls visit for every property of every (sub)schema: definitions, nested objects, array items, map
 * values and combinators included. `pointer` is the JSON pointer of the property's schema.
 */
function forEachProperty(schema: Schema, pointer: string, visit: (prop: unknown, pointer: string, required: boolean) => void): void {
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  for (const keyword of SCHEMA_MAPS) {
    const map = schema[keyword];
    if (!isSchema(map)) continue;
    for (const [name, sub] of Object.entries(map)) {
      const subPointer = `${pointer}/${keyword}/${token(name)}`;
      if (keyword === 'properties') visit(sub, subPointer, required.has(name));
      if (isSchema(sub)) forEachProperty(sub, subPointer, visit);
    }
  }
  for (const keyword of SCHEMA_VALUES) {
    const value = schema[keyword];
    if (isSchema(value)) forEachProperty(value, `${pointer}/${keyword}`, visit);
    else if (Array.isArray(value)) value.forEach((v, i) => isSchema(v) && forEachProperty(v, `${pointer}/${keyword}/${i}`, visit));
  }
  for (const keyword of SCHEMA_LISTS) {
    const list = schema[keyword];
    if (Array.isArray(list)) list.forEach((v, i) => isSchema(v) && forEachProperty(v, `${pointer}/${keyword}/${i}`, visit));
  }
}

describe('generated files are in sync with schemas/', () => {
  it('docs/spec-reference.md is up to date (scripts/generate-docs.js --check)', () => {
    const { status, output } = runCheck('generate-docs.js');
    if (status !== 0) throw new Error(`generate-docs.js --check exited ${status}:\n${output}`);
    expect(status).toBe(0);
  });

  it('src/api/generated/types.ts is up to date (scripts/generate-types.js --check)', () => {
    const { status, output } = runCheck('generate-types.js');
    if (status !== 0) throw new Error(`generate-types.js --check exited ${status}:\n${output}`);
    expect(status).toBe(0);
  });
});

describe('schema descriptions', () => {
  it('every property has a description, and every optional property states its default', () => {
    const files = fs.readdirSync(SCHEMA_DIR).filter((f) => f.endsWith('.schema.json')).sort();
    expect(files).toEqual(expect.arrayContaining(['cluster.schema.json', 'components.schema.json', 'instancegroup.schema.json']));

    const offenders: string[] = [];
    let count = 0;
    for (const file of files) {
      const schema: unknown = JSON.parse(fs.readFileSync(path.join(SCHEMA_DIR, file), 'utf8'));
      if (!isSchema(schema)) throw new Error(`schemas/${file} is not a JSON object`);
      forEachProperty(schema, `schemas/${file}#`, (prop, pointer, required) => {
        count++;
        const description = isSchema(prop) && typeof prop.description === 'string' ? prop.description.trim() : '';
        if (!description) offenders.push(`${pointer}: missing or empty description`);
        else if (!required && !description.includes('Default:')) offenders.push(`${pointer}: optional property whose description lacks "Default: …"`);
      });
    }

    expect(count).toBeGreaterThan(100);
    if (offenders.length > 0) {
      throw new Error(`${offenders.length} schema propert${offenders.length === 1 ? 'y' : 'ies'} lack a proper description:\n${offenders.join('\n')}`);
    }
  });
});

describe('docs/spec-support.md', () => {
  it('has a decision for every spec field and is up to date with schemas/support.json', () => {
    const r = runCheck('generate-spec-support.js');
    expect(r.output).toBe('');
    expect(r.status).toBe(0);
  });
});
