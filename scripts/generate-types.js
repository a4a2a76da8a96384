#!/usr/bin/env node
/**
 * Generates the TypeScript API types from the JSON Schemas in schemas/ (the single source of truth):
 *
 *   schemas/cluster.schema.json, schemas/instancegroup.schema.json, schemas/components.schema.json
 *     -> src/api/generated/types.ts
 *
 * The three schemas reference each other ("components.json#/definitions/X"), so they are bundled into one
 * schema first and compiled into a single module: every definition becomes one exported type named after
 * its "title" (the kops Go type name), with no duplicates across files.
 *
 * Usage:
 *   node scripts/generate-types.js           write the generated file
 *   node scripts/generate-types.js --check   exit 1 if the generated file is missing or out of date
 */
'use strict';

const fs = require('node:fs');
const path = require('node:path');
const { compile } = require('json-schema-to-typescript');

const ROOT = path.resolve(__dirname, '..');
const SCHEMA_DIR = path.join(ROOT, 'schemas');
const OUT_FILE = path.join(ROOT, 'src', 'api', 'generated', 'types.ts');

/** Schema files, keyed by the file name other schemas use in their $refs. */
const SCHEMAS = {
  'components.json': 'components.schema.json',
  'cluster.json': 'cluster.schema.json',
  'instancegroup.json': 'instancegroup.schema.json',
};

const BANNER = [
  '/* eslint-disable */',
  '/**',
  ' * GENERATED FILE - do not edit by hand.',
  ' * Generated from the JSON Schemas in schemas/ (cluster, instancegroup and components .schema.json)',
  ' * by `npm run generate` (scripts/generate-types.js). Edit the schemas and regenerate instead.',
  ' */',
].join('\n');

function readSchema(file) {
  return JSON.parse(fs.readFileSync(path.join(SCHEMA_DIR, file), 'utf8'));
}

/** Rewrites cross-file refs to local ones and wraps `$ref`s that have siblings (description, default)
 * in `allOf`, so that json-schema-to-typescript reuses the named type instead of emitting copies. */
function normalize(node) {
  if (Array.isArray(node)) return node.map(normalize);
  if (!node || typeof node !== 'object') return node;
  const out = {};
  for (const [key, value] of Object.entries(node)) {
    if (key.startsWith('x-kforge-')) continue;
    out[key] = key === '$ref' ? localRef(value) : normalize(value);
  }
  if (out.$ref && Object.keys(out).length > 1) {
    const ref = out.$ref;
    delete out.$ref;
    delete out.default; // json-schema-to-typescript would intersect the named type with the default's type
    out.allOf = [{ $ref: ref }];
  }
  return out;
}

function localRef(ref) {
  const [file, pointer] = ref.split('#');
  if (file && !SCHEMAS[file]) throw new Error(`unknown schema file in $ref ${ref}`);
  return `#${pointer}`;
}

/** One self-contained schema: the Cluster root, with every definition of the three files (and the
 * InstanceGroup root as a definition). */
function bundle() {
  const components = readSchema(SCHEMAS['components.json']);
  const cluster = readSchema(SCHEMAS['cluster.json']);
  const instanceGroup = readSchema(SCHEMAS['instancegroup.json']);
  const definitions = {};
  const add = (defs, from) => {
    for (const [name, def] of Object.entries(defs || {})) {
      if (definitions[name]) throw new Error(`definition ${name} is defined twice (again in ${from})`);
      definitions[name] = def;
    }
  };
  add(components.definitions, 'components');
  add(cluster.definitions, 'cluster');
  add(instanceGroup.definitions, 'instancegroup');
  const rootOnly = (schema) => {
    const copy = { ...schema };
    delete copy.$schema;
    delete copy.$id;
    delete copy.definitions;
    return copy;
  };
  add({ InstanceGroup: rootOnly(instanceGroup) }, 'instancegroup');
  return normalize({ ...rootOnly(cluster), definitions });
}

async function generate() {
  const ts = await compile(bundle(), 'Cluster', {
    bannerComment: BANNER,
    additionalProperties: false,
    declareExternallyReferenced: true,
    strictIndexSignatures: false,
    unreachableDefinitions: true,
    enableConstEnums: false,
    format: true,
    cwd: SCHEMA_DIR,
    $refOptions: { resolve: { external: false } },
  });
  for (const name of ['Cluster', 'ClusterSpec', 'InstanceGroup', 'InstanceGroupSpec', 'KubeletConfigSpec']) {
    if (!new RegExp(`^export (interface|type) ${name}\\b`, 'm').test(ts)) throw new Error(`generated types lack ${name}`);
  }
  return ts;
}

async function main() {
  const check = process.argv.includes('--check');
  const ts = await generate();
  const rel = path.relative(ROOT, OUT_FILE);
  if (check) {
    const current = fs.existsSync(OUT_FILE) ? fs.readFileSync(OUT_FILE, 'utf8') : undefined;
    if (current === ts) {
      console.log(`${rel} is up to date with schemas/.`);
      return;
    }
    console.error(`${rel} is ${current === undefined ? 'missing' : 'out of date with schemas/'}; run \`npm run generate\` and commit the result.`);
    process.exitCode = 1;
    return;
  }
  fs.mkdirSync(path.dirname(OUT_FILE), { recursive: true });
  fs.writeFileSync(OUT_FILE, ts);
  console.log(`wrote ${rel}`);
}

main().catch((err) => {
  console.error(err instanceof Error ? err.stack || err.message : err);
  process.exitCode = 1;
});
