// Shared by scripts/bundle.js and scripts/compile-validators.js: makes a generated JavaScript file ASCII.
'use strict';
const fs = require('node:fs');

/**
 * bin/run.js reads the bundle and the compiled validators as latin1, several times faster than UTF-8,
 * and V8 then holds them as one-byte strings; that is only right for ASCII. What is not ASCII (in
 * comments, in a regular expression of a dependency, in schema texts; esbuild's `charset: 'ascii'` leaves
 * some) becomes \uXXXX escapes, which mean the same in strings and regular expressions (and nothing in
 * comments).
 */
function asciiOnly(file) {
  const text = fs.readFileSync(file, 'utf8');
  // An escaped non-ASCII character (a backslash before it) would become a backslash followed by `u00e9`;
  // not handled, so refused.
  if (/\\[\u0080-\uffff]/.test(text)) throw new Error(`${file}: a backslash before a non-ASCII character; review asciiOnly`);
  const escaped = text.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  fs.writeFileSync(file, escaped, 'latin1');
}

module.exports = { asciiOnly };
