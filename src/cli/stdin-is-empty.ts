import * as fs from 'node:fs';

/**
 * Whether reading stdin is known to give nothing, without reading it: a terminal (oclif never reads one),
 * /dev/null, or an empty regular file. Pipes and other inputs are unknown (false).
 */
export function stdinIsEmpty(): boolean {
  let st: fs.Stats;
  try {
    st = fs.fstatSync(0);
  } catch {
    return false;
  }
  if (st.isFile()) return st.size === 0;
  if (!st.isCharacterDevice()) return false;
  try {
    if (st.rdev === fs.statSync('/dev/null').rdev) return true;
  } catch {
    // No /dev/null (not a Unix system): ask whether it is a terminal.
  }
  // Loaded only here: node:tty costs a few milliseconds to load.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (require('node:tty') as typeof import('node:tty')).isatty(0);
}
