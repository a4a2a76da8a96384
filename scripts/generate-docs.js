#!/usr/bin/env node
/**
 * Generates the API reference from the JSON Schemas in schemas/ (the single source of truth):
 *
 *   schemas/cluster.schema.json, schemas/instancegroup.schema.json, schemas/components.schema.json
 *     -> docs/spec-reference.md
 *
 * One section per object type: Cluster, ClusterSpec, InstanceGroup, InstanceGroupSpec, then every
 * definition reachable from them, breadth-first (alphabetical within a level). Inline object schemas
 * (a property that is an object with its own `properties`) get their own section too, named
 * `Parent.field`. Each section is a table: Field | Type | Default | Flag | Description.
 *
 * The output is deterministic (no timestamps), so it can be checked in and verified in CI.
 *
 * Usage:
 *   node scripts/generate-docs.js           write docs/spec-reference.md
 *   node scripts/generate-docs.js --check   exit 1 if docs/spec-reference.md is missing or out of date
 */
'use strict';

const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');
const SCHEMA_DIR = path.join(ROOT, 'schemas');
const OUT_FILE = path.join(ROOT, 'docs', 'spec-reference.md');

/** Schema files, keyed by the file name other schemas use in their $refs. */
const SCHEMAS = {
  'cluster.json': 'cluster.schema.json',
  'instancegroup.json': 'instancegroup.schema.json',
  'components.json': 'components.schema.json',
};

const NONE = '—';

// ---------------------------------------------------------------------------------------------------------
// Loading and resolving
// ---------------------------------------------------------------------------------------------------------

function loadSchemas() {
  const files = {};
  for (const [refName, fileName] of Object.entries(SCHEMAS)) {
    files[refName] = JSON.parse(fs.readFileSync(path.join(SCHEMA_DIR, fileName), 'utf8'));
  }
  return files;
}

/**
 * A documented object type. `key` identifies it uniquely (file + pointer), `name` is the section title.
 * @typedef {{ key: string, name: string, file: string, pointer: string, schema: object }} Node
 */

/** Builds the registry of documentable nodes: roots, definitions, and inline object properties. */
function createRegistry(files) {
  /** @type {Map<string, Node>} */
  const nodes = new Map();
  const byName = new Map();

  const add = (file, pointer, name, schema) => {
    const key = `${file}#${pointer}`;
    if (nodes.has(key)) return nodes.get(key);
    if (byName.has(name)) throw new Error(`two documented types are named ${name} (${byName.get(name)} and ${key})`);
    const node = { key, name, file, pointer, schema };
    nodes.set(key, node);
    byName.set(name, key);
    return node;
  };

  /** Resolves a `$ref` found in `file` to a Node. */
  const resolveRef = (file, ref) => {
    const [refFile, pointer = ''] = ref.split('#');
    const target = refFile ? refFile : file;
    if (!files[target]) throw new Error(`unknown schema file in $ref ${ref} (in ${SCHEMAS[file]})`);
    const m = /^\/definitions\/([^/]+)$/.exec(pointer);
    if (!m) throw new Error(`unsupported $ref ${ref} (in ${SCHEMAS[file]}): only #/definitions/<Name> is supported`);
    const schema = files[target].definitions && files[target].definitions[m[1]];
    if (!schema) throw new Error(`$ref ${ref} (in ${SCHEMAS[file]}) points to a missing definition`);
    return add(target, pointer, m[1], schema);
  };

  return { nodes, add, resolveRef };
}

/** True when a schema is an object with its own properties (documented as a section). */
function isStructured(schema) {
  return !!schema && typeof schema === 'object' && !schema.$ref && !!schema.properties;
}

/** The nodes a node's properties link to, in property order. */
function childrenOf(registry, node) {
  const out = [];
  const visit = (schema, fieldPath) => {
    if (!schema || typeof schema !== 'object') return;
    if (schema.$ref) {
      out.push(registry.resolveRef(node.file, schema.$ref));
      return;
    }
    if (isStructured(schema)) {
      out.push(inlineNode(registry, node, fieldPath, schema));
      return;
    }
    if (schema.items) visit(schema.items, `${fieldPath}[]`);
    if (schema.additionalProperties && typeof schema.additionalProperties === 'object') {
      visit(schema.additionalProperties, `${fieldPath}{}`);
    }
  };
  for (const [field, prop] of Object.entries(node.schema.properties || {})) {
    visit(prop, field);
  }
  return out;
}

function inlineNode(registry, parent, fieldPath, schema) {
  const pointerPath = fieldPath.replace(/\[\]/g, '/items').replace(/\{\}/g, '/additionalProperties');
  const segments = pointerPath.split('/');
  const pointer = `${parent.pointer}/properties/${segments.join('/')}`;
  const name = `${parent.name}.${fieldPath.replace(/\[\]|\{\}/g, '')}`;
  return registry.add(parent.file, pointer, name, schema);
}

/**
 * Orders the documented nodes: the four roots first, then breadth-first from them, alphabetical within
 * each level.
 */
function orderNodes(files, registry) {
  const cluster = registry.add('cluster.json', '', 'Cluster', files['cluster.json']);
  const clusterSpec = registry.resolveRef('cluster.json', '#/definitions/ClusterSpec');
  const instanceGroup = registry.add('instancegroup.json', '', 'InstanceGroup', files['instancegroup.json']);
  const instanceGroupSpec = registry.resolveRef('instancegroup.json', '#/definitions/InstanceGroupSpec');
  const roots = [cluster, clusterSpec, instanceGroup, instanceGroupSpec];

  const ordered = [...roots];
  const seen = new Set(roots.map((n) => n.key));
  let level = roots;
  while (level.length > 0) {
    const next = new Map();
    for (const node of level) {
      for (const child of childrenOf(registry, node)) {
        if (!seen.has(child.key)) next.set(child.key, child);
      }
    }
    level = [...next.values()].sort((a, b) => compareNames(a.name, b.name));
    for (const node of level) {
      seen.add(node.key);
      ordered.push(node);
    }
  }
  return ordered;
}

function compareNames(a, b) {
  const la = a.toLowerCase();
  const lb = b.toLowerCase();
  if (la !== lb) return la < lb ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Definitions that exist in the schemas but are not reachable from the roots. */
function unreachableDefinitions(files, ordered) {
  const seen = new Set(ordered.map((n) => n.key));
  const out = [];
  for (const [file, schema] of Object.entries(files)) {
    for (const name of Object.keys(schema.definitions || {})) {
      if (!seen.has(`${file}#/definitions/${name}`)) out.push(name);
    }
  }
  return out.sort(compareNames);
}

// ---------------------------------------------------------------------------------------------------------
// Text helpers
// ---------------------------------------------------------------------------------------------------------

/** GitHub's heading anchor: lower case, punctuation dropped, spaces to dashes. */
function slug(name) {
  return name
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\- _]/gu, '')
    .replace(/ /g, '-');
}

function collapse(text) {
  return String(text).replace(/\s+/g, ' ').trim();
}

/**
 * Escapes text for a Markdown table cell: `|` always; outside `code spans` also `\`, `<`, `>` and `*`,
 * so that placeholders like <cluster name> and globs like /stats/* render literally.
 */
function escapeCell(text) {
  return collapse(text)
    .split(/(`[^`]*`)/)
    .map((part, i) => {
      if (i % 2 === 1) return part.replace(/\|/g, '\\|');
      return part
        .replace(/\\/g, '\\\\')
        .replace(/\|/g, '\\|')
        .replace(/</g, '&lt;')
        .replace(/>/g, '&gt;')
        .replace(/\*/g, '\\*');
    })
    .join('');
}

/** A value as a code span: strings as-is, anything else as JSON (backticks inside get a longer fence). */
function code(value) {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  const fence = text.includes('`') ? '``' : '`';
  const pad = text.startsWith('`') || text.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${text.replace(/\|/g, '\\|')}${pad}${fence}`;
}

/**
 * Splits a description into its text and its "Default: …" sentence. The default sentence is the text from
 * the first "Default:" to the end (the schemas put it last); a parenthesized "(Default: x)." is handled
 * too. If "Default:" occurs more than once, the first one wins and all are removed from the text.
 */
function splitDescription(description) {
  const text = collapse(description || '');
  const paren = /\s*\(Default:\s*([^)]*)\)\.?\s*$/.exec(text);
  if (paren) {
    return { text: text.slice(0, paren.index).trim(), defaultText: paren[1].trim().replace(/\.$/, '') };
  }
  const parts = text.split(/\s*\bDefault:\s*/);
  if (parts.length === 1) return { text, defaultText: undefined };
  return { text: parts[0].trim(), defaultText: parts[1].trim().replace(/\.$/, '') };
}

// ---------------------------------------------------------------------------------------------------------
// Rendering
// ---------------------------------------------------------------------------------------------------------

function link(node) {
  return `[${node.name}](#${slug(node.name)})`;
}

function enumText(schema) {
  if ('const' in schema) return `always ${code(schema.const)}`;
  if (Array.isArray(schema.enum)) return `one of ${schema.enum.map((v) => code(v)).join(', ')}`;
  return undefined;
}

/** The Type cell of a property. `fieldPath` names inline object schemas. */
function typeOf(registry, node, schema, fieldPath) {
  if (!schema || typeof schema !== 'object') return 'any';
  if (schema.$ref) return link(registry.resolveRef(node.file, schema.$ref));
  if (isStructured(schema)) return link(inlineNode(registry, node, fieldPath, schema));

  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  let base;
  if (types.length === 1 && types[0] === 'array') {
    base = `list of ${typeOf(registry, node, schema.items, `${fieldPath}[]`)}`;
  } else if (types.length === 1 && types[0] === 'object') {
    const ap = schema.additionalProperties;
    if (ap && typeof ap === 'object') base = `map of string to ${typeOf(registry, node, ap, `${fieldPath}{}`)}`;
    else if (ap === true) base = 'object (free-form)';
    else base = 'object';
  } else if (types.length > 0) {
    base = types.join(' or ');
  } else if ('const' in schema || schema.enum) {
    base = 'string';
  } else {
    base = 'any';
  }
  if (schema.format) base += ` (${schema.format})`;
  const values = enumText(schema);
  return values ? `${base}, ${values}` : base;
}

function defaultOf(schema, defaultText) {
  if ('default' in schema) return code(JSON.stringify(schema.default));
  if (defaultText) return escapeCell(defaultText);
  return NONE;
}

function flagOf(schema) {
  const flag = schema['x-kforge-flag'];
  if (!flag) return NONE;
  return `\`--${flag}\`${schema['x-kforge-flag-repeat'] ? ' (repeated)' : ''}`;
}

function renderSection(registry, node) {
  const { schema } = node;
  const lines = [`## ${node.name}`, ''];
  const { text } = splitDescription(schema.description);
  if (text) lines.push(escapeCell(text), '');
  const source = `schemas/${SCHEMAS[node.file]}`;
  lines.push(`Defined in \`${source}\`${node.pointer ? ` at \`#${node.pointer}\`` : ' (root)'}.`, '');

  if (!schema.properties) {
    lines.push(`Type: ${typeOf(registry, node, schema, node.name)}.`, '');
    return lines;
  }

  const required = new Set(schema.required || []);
  lines.push('| Field | Type | Default | Flag | Description |', '| --- | --- | --- | --- | --- |');
  for (const [field, prop] of Object.entries(schema.properties)) {
    const { text: description, defaultText } = splitDescription(prop.description);
    const fieldCell = `\`${field}\`${required.has(field) ? ' (required)' : ''}`;
    const cells = [
      fieldCell,
      typeOf(registry, node, prop, field),
      defaultOf(prop, defaultText),
      flagOf(prop),
      description ? escapeCell(description) : NONE,
    ];
    lines.push(`| ${cells.join(' | ')} |`);
  }
  lines.push('');
  return lines;
}

function render() {
  const files = loadSchemas();
  const registry = createRegistry(files);
  const ordered = orderNodes(files, registry);

  const anchors = new Map();
  for (const node of ordered) {
    const anchor = slug(node.name);
    if (anchors.has(anchor)) throw new Error(`sections ${anchors.get(anchor)} and ${node.name} share the anchor #${anchor}`);
    anchors.set(anchor, node.name);
  }

  const sections = ordered.map((node) => renderSection(registry, node));
  const unreachable = unreachableDefinitions(files, ordered);
  const definitionCount = ordered.filter((n) => /^\/definitions\/[^/]+$/.test(n.pointer)).length;

  const out = [
    '# kforge spec reference',
    '',
    '<!-- GENERATED FILE - do not edit by hand. Generated from schemas/ by `npm run generate` (scripts/generate-docs.js). -->',
    '',
    'This is the reference for the kforge API objects, `Cluster` and `InstanceGroup` (the kops',
    '`kops.k8s.io/v1alpha2` API; kforge also accepts `kforge.dev/v1alpha2`). It is generated from the JSON',
    'Schemas in `schemas/` (`cluster.schema.json`, `instancegroup.schema.json`, `components.schema.json`),',
    'the single source of truth for the API, by `npm run generate`; do not edit it by hand: edit the schemas',
    'and regenerate.',
    '',
    `It documents ${ordered.length} object types (${definitionCount} schema definitions), each as a table:`,
    '',
    '- **Field**: the field name in the manifest; "(required)" marks fields the object must set.',
    '- **Type**: `string`, `integer`, `boolean`, `list of X`, `map of string to X`, or a link to an object type;',
    '  enumerations list their allowed values.',
    '- **Default**: the schema\'s `default` (as JSON) if it has one, else the default stated by the',
    `  description; ${NONE} if neither.`,
    '- **Flag**: for component configurations, the command-line flag the field renders to;',
    '  "(repeated)" means the flag is given once per value.',
    '',
    '## Contents',
    '',
    ...ordered.map((node) => `- ${link(node)}`),
    '',
    ...sections.flat(),
  ];
  if (unreachable.length > 0) {
    out.push(
      '## Other definitions',
      '',
      'These definitions are in the schemas but not reachable from `Cluster` or `InstanceGroup`:',
      '',
      ...unreachable.map((name) => `- \`${name}\``),
      '',
    );
  }
  return `${out.join('\n').replace(/\n+$/, '')}\n`;
}

function main() {
  const check = process.argv.includes('--check');
  const markdown = render();
  const rel = path.relative(ROOT, OUT_FILE).split(path.sep).join('/');
  if (check) {
    const current = fs.existsSync(OUT_FILE) ? fs.readFileSync(OUT_FILE, 'utf8') : undefined;
    if (current === markdown) {
      console.log(`${rel} is up to date with schemas/.`);
      return;
    }
    console.error(`${rel} is out of date; run npm run generate${current === undefined ? ` (${rel} is missing)` : ''}`);
    process.exitCode = 1;
    return;
  }
  fs.mkdirSync(path.dirname(OUT_FILE), { recursive: true });
  fs.writeFileSync(OUT_FILE, markdown);
  console.log(`wrote ${rel} (${markdown.split('\n').length - 1} lines, ${markdown.length} bytes)`);
}

try {
  main();
} catch (err) {
  console.error(err instanceof Error ? err.stack || err.message : err);
  process.exitCode = 1;
}
