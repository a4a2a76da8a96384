// Stands in for `ejs` in the bundle (scripts/bundle.js). @oclif/core renders every help text (summaries,
// descriptions, examples) with ejs.render, which compiles each string into a new function: V8 compiles
// that code afresh on every run (no code cache can hold it), several milliseconds for one `--help`.
// kforge's texts use only `<%= name.name %>` tags, which this answers directly, exactly as ejs would
// (the value looked up in the data, HTML-escaped with ejs's rules, undefined and null giving '');
// anything else (other tags, options, names the data lacks) goes to the real ejs.
'use strict';

const SIMPLE_TAG = /<%=\s*([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*)\s*%>/g;
// Data properties that ejs.render(template, data) takes as options instead.
const OPTION_NAMES = ['delimiter', 'scope', 'context', 'debug', 'compileDebug', 'client', '_with', 'rmWhitespace', 'strict', 'filename', 'async'];
const ESCAPES = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&#34;', "'": '&#39;' };
let ejs;

function realEjs() {
  return (ejs ??= require('ejs'));
}

/** The value of a dotted path in `data`, as ejs's `with (data)` would find it; `miss` when ejs would throw or look elsewhere. */
function lookUp(data, dotted, miss) {
  const [first, ...rest] = dotted.split('.');
  if (data === null || typeof data !== 'object' || !(first in data)) return miss;
  let value = data[first];
  for (const name of rest) {
    if (value === undefined || value === null) return miss;
    value = value[name];
  }
  return value;
}

/** ejs.render for templates made of text and simple `<%= a.b %>` tags; everything else is ejs's. */
function render(template, data) {
  const args = arguments;
  const simple =
    args.length === 2 &&
    typeof template === 'string' &&
    !template.replace(SIMPLE_TAG, '').includes('<%') &&
    !OPTION_NAMES.some((n) => data !== null && typeof data === 'object' && Object.hasOwn(data, n) && data[n] !== undefined);
  if (!simple) return realEjs().render(...args);
  const miss = {};
  let missed = false;
  const out = template.replace(SIMPLE_TAG, (_tag, dotted) => {
    const value = lookUp(data, dotted, miss);
    if (value === miss) missed = true;
    return value === undefined || value === null || value === miss ? '' : String(value).replace(/[&<>'"]/g, (c) => ESCAPES[c]);
  });
  return missed ? realEjs().render(...args) : out;
}

// @oclif/core uses nothing of ejs but render (scripts/bundle.js fails the build if that changes).
module.exports = { render };
