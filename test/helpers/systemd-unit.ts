import { spawnSync, SpawnSyncReturns } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

/** ExecStart-style value of a unit, split into argv as systemd does (quotes, C escapes, `%%`, `$$`); throws on an unescaped specifier or variable. */
export function systemdArgv(value: string): string[] {
  const words: string[] = [];
  let cur = '';
  let inWord = false;
  let quote: string | undefined;
  for (let i = 0; i < value.length; i++) {
    const c = value[i];
    if (quote) {
      if (c === '\\') cur += value[++i];
      else if (c === quote) quote = undefined;
      else cur += c;
      continue;
    }
    if (/\s/.test(c)) {
      if (inWord) words.push(cur);
      cur = '';
      inWord = false;
      continue;
    }
    inWord = true;
    if (c === '"' || c === "'") quote = c;
    else if (c === '\\') cur += value[++i];
    else cur += c;
  }
  if (inWord) words.push(cur);
  return words.map(unexpand);
}

// systemd expands `%x` specifiers and `$VAR`/`${VAR}` (both when the unit is loaded and run, which
// systemd-analyze verify does not flag), so a literal `%` or `$` must be doubled: a lone one is an error here.
function unexpand(word: string): string {
  return word.replace(/%(.?)|\$(.?)/g, (all, afterPercent: string, afterDollar: string) => {
    if (all === '%%') return '%';
    if (all === '$$') return '$';
    if (all.startsWith('$') && !/^[A-Za-z_{]$/.test(afterDollar)) return all;
    throw new Error(`unescaped ${all.startsWith('%') ? `specifier %${afterPercent}` : `variable $${afterDollar}`} in ${JSON.stringify(word)}`);
  });
}

/** Every Exec*= command of a unit file, as argv, with systemd's `-@:+!` prefixes removed from argv[0]. */
export function execCommands(unit: string): string[][] {
  const joined = unit.replace(/\\\n/g, ' ');
  return [...joined.matchAll(/^Exec[A-Za-z]*=(.*)$/gm)].map((m) => {
    const argv = systemdArgv(m[1]);
    argv[0] = argv[0].replace(/^[-@:+!]+/, '');
    return argv;
  });
}

/**
 * Copies a node root to `copy` and makes it verifiable by `systemd-analyze verify --root`: this Debian
 * machine's /usr/lib/systemd/system (multi-user.target and the other units ours refer to), and a STUB
 * EXECUTABLE (`#!/bin/sh`, exit 0) at every Exec* path of `units`, since the real binaries are not
 * installed by this part of nodeup.
 */
export function makeVerifiableRoot(root: string, copy: string, units: string[]): void {
  fs.cpSync(root, copy, { recursive: true });
  fs.mkdirSync(path.join(copy, 'usr/lib/systemd'), { recursive: true });
  fs.cpSync('/usr/lib/systemd/system', path.join(copy, 'usr/lib/systemd/system'), { recursive: true, verbatimSymlinks: true });
  for (const unit of units) {
    for (const argv of execCommands(fs.readFileSync(path.join(root, 'etc/systemd/system', unit), 'utf8'))) {
      const stub = path.join(copy, argv[0]);
      fs.mkdirSync(path.dirname(stub), { recursive: true });
      fs.writeFileSync(stub, '#!/bin/sh\n# stub for systemd-analyze verify\nexit 0\n', { mode: 0o755 });
    }
  }
}

/** `systemd-analyze verify --man=no --root=ROOT /etc/systemd/system/UNIT`: callers fail on any stderr. */
export function verify(root: string, unit: string): SpawnSyncReturns<string> {
  return spawnSync('systemd-analyze', ['verify', '--man=no', `--root=${root}`, `/etc/systemd/system/${unit}`], { encoding: 'utf8' });
}
