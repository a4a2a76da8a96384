// Test-only preload (node --require), never part of the CLI: counts the state-store mutations of a kforge
// process (a file renamed or linked into place, a file deleted) and SIGKILLs the process right after the
// Nth, so crash tests can stop a command after every single write, deterministically.
//   KFORGE_TEST_CRASH_AFTER=N        kill after the Nth mutation
//   KFORGE_TEST_COUNT_FILE=path      write the number of mutations there when the process exits normally
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const crashAfter = Number(process.env.KFORGE_TEST_CRASH_AFTER || 0);
const countFile = process.env.KFORGE_TEST_COUNT_FILE;
let count = 0;

/** Temporary files and per-key guard files are the store's own plumbing, not state objects. */
const isPlumbing = (p) => path.basename(String(p)).startsWith('.kforge-tmp-');

function counted(name, target) {
  const original = fs.promises[name];
  fs.promises[name] = async function (...args) {
    const result = await original.apply(this, args);
    if (!isPlumbing(target(args))) {
      count++;
      if (crashAfter > 0 && count === crashAfter) process.kill(process.pid, 'SIGKILL');
    }
    return result;
  };
}

counted('rename', (args) => args[1]);
counted('link', (args) => args[1]);
counted('unlink', (args) => args[0]);
counted('rm', (args) => args[0]);
// Only a process that wrote to the store reports (not, say, an editor child that inherited the preload).
if (countFile) process.on('exit', () => count > 0 && fs.writeFileSync(countFile, String(count)));
