#!/usr/bin/env node
/**
 * Generates docs/spec-support.md from schemas/support.json: for every field of the Cluster and
 * InstanceGroup spec (and the sub-fields a rule names), whether kforge uses it now, keeps it for a later
 * stage, derives it, or refuses it. Fails when a schema field has no rule: a field accepted and used by
 * nothing must be a decision, not an accident. `--check` compares with the file instead of writing it.
 */
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.join(__dirname, '..');
const OUT = path.join(ROOT, 'docs', 'spec-support.md');
const rules = JSON.parse(fs.readFileSync(path.join(ROOT, 'schemas', 'support.json'), 'utf8'));
const cluster = JSON.parse(fs.readFileSync(path.join(ROOT, 'schemas', 'cluster.schema.json'), 'utf8'));
const ig = JSON.parse(fs.readFileSync(path.join(ROOT, 'schemas', 'instancegroup.schema.json'), 'utf8'));

const STAGES = {
  'aws-model': 'AWS model builders (`update cluster`)',
  'gce-model': 'GCE model builders',
  addons: 'addon manifests',
  nodeup: 'the node bootstrapper (nodeup)',
  'rolling-update': '`rolling-update`',
  terraform: 'the Terraform target',
};

function lookup(table, dotted) {
  for (let p = dotted; p; p = p.includes('.') ? p.slice(0, p.lastIndexOf('.')) : '') if (table[p] !== undefined) return [p, table[p]];
  return [undefined, undefined];
}

function describe(rule) {
  const [status, ...rest] = rule.split(':');
  const detail = rest.join(':');
  if (status === 'used') return ['used', `read by expansion, validation, the flags or the nodeup config${detail ? `; ${detail}` : ''}`];
  if (status === 'derived') return ['derived', 'computed by kforge; a value in the manifest is kept in `config` but not used'];
  if (status === 'kept') return ['kept', `kept in the completed spec for ${STAGES[detail] ?? detail}`];
  return ['refused', `not supported yet: ${detail}`];
}

const missing = [];
function rows(kind, spec) {
  const table = rules[kind];
  const out = [];
  const fields = Object.keys(spec.properties).map((f) => `spec.${f}`);
  // Sub-fields a rule names (e.g. spec.cloudConfig.azure) get rows of their own.
  for (const p of Object.keys(table)) if (!fields.includes(p) && p !== 'spec') fields.push(p);
  for (const f of fields.sort((a, b) => a.localeCompare(b))) {
    const [, rule] = lookup(table, f);
    if (!rule) {
      missing.push(`${kind} ${f}`);
      continue;
    }
    const [status, text] = describe(rule);
    out.push(`| \`${f}\` | ${status} | ${text} |`);
  }
  return out;
}

const text = [
  '# What kforge does with each spec field',
  '',
  'Generated from `schemas/support.json` by `scripts/generate-spec-support.js` (`npm run generate`); a test',
  'fails when a schema field has no entry. **used**: read now. **kept**: type-checked and kept in the completed',
  'spec for a stage not built yet. **derived**: kforge computes it. **refused**: setting it is an error that',
  'says so, with its path, rather than a setting silently ignored.',
  '',
  '## Cluster',
  '',
  '| field | status | what happens |',
  '|---|---|---|',
  ...rows('Cluster', cluster.definitions.ClusterSpec),
  '',
  '## InstanceGroup',
  '',
  '| field | status | what happens |',
  '|---|---|---|',
  ...rows('InstanceGroup', ig.definitions.InstanceGroupSpec),
  '',
].join('\n');

if (missing.length > 0) {
  process.stderr.write(`schemas/support.json has no rule for:\n${missing.map((m) => `  ${m}`).join('\n')}\n`);
  process.exit(1);
}
if (process.argv.includes('--check')) {
  const current = fs.existsSync(OUT) ? fs.readFileSync(OUT, 'utf8') : '';
  if (current !== text) {
    process.stderr.write('docs/spec-support.md is out of date: run npm run generate\n');
    process.exit(1);
  }
} else {
  fs.writeFileSync(OUT, text);
  process.stdout.write(`wrote docs/spec-support.md\n`);
}
