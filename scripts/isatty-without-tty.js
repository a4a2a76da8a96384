// Stands in for node:tty in supports-color (scripts/bundle.js), which only asks isatty(1) and
// isatty(2) when loaded. Loading node:tty loads node:net too (milliseconds), yet the answer is mostly
// known without it: a terminal is a character device, and /dev/null is not a terminal. Other character
// devices are asked of node:tty.
'use strict';
const fs = require('node:fs');

let devNull;

/** tty.isatty(fd), answered without node:tty for what cannot be a terminal. */
function isatty(fd) {
  if (!Number.isInteger(fd) || fd < 0 || fd > 2147483647) return false;
  let st;
  try {
    st = fs.fstatSync(fd);
  } catch {
    return require('node:tty').isatty(fd);
  }
  if (!st.isCharacterDevice()) return false;
  if (devNull === undefined) {
    try {
      devNull = fs.statSync('/dev/null').rdev;
    } catch {
      devNull = null;
    }
  }
  return st.rdev === devNull ? false : require('node:tty').isatty(fd);
}

// supports-color uses nothing of node:tty but isatty (scripts/bundle.js fails the build if that changes).
module.exports = { isatty };
