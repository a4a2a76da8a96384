#!/usr/bin/env node
// Compiles the JSON Schemas into standalone validator code (dist/validate/compiled-validators.js) so
// commands do not pay ajv's schema compilation (~300 ms) at run time. Called by scripts/build.js.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const Ajv = require('ajv').default;
const { _ } = require('ajv');
const standaloneCode = require('ajv/dist/standalone').default;
const { asciiOnly } = require('./ascii-only');

const root = path.join(__dirname, '..');
const ajv = new Ajv({
  allErrors: true,
  strict: false,
  allowUnionTypes: true,
  code: { source: true, formats: _`require("./cidr-format").formats` },
});
ajv.addFormat('cidr', { type: 'string', validate: () => true });
ajv.addFormat('cidr-or-prefix-list', { type: 'string', validate: () => true });
for (const f of ['cluster.schema.json', 'instancegroup.schema.json', 'components.schema.json']) {
  const schema = JSON.parse(fs.readFileSync(path.join(root, 'schemas', f), 'utf8'));
  ajv.addSchema(schema, schema.$id);
}
const code = standaloneCode(ajv, { Cluster: 'https://kforge.dev/schemas/cluster.json', InstanceGroup: 'https://kforge.dev/schemas/instancegroup.json' });
const out = path.join(root, 'dist', 'validate', 'compiled-validators.js');
fs.writeFileSync(out, code);
asciiOnly(out);
