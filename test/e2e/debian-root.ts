import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ensureAptTool } from '../helpers/apt-tool';

/**
 * What a Debian 12 cloud image has that a node bootstrap uses: curl and its CA bundle for downloads,
 * systemd (the units nodeup writes are verified against it), xz for the Node runtime tarball, kmod and
 * procps (modprobe, sysctl). Changing the list changes the cache key, so a new root is built.
 */
export const ROOT_PACKAGES = ['curl', 'ca-certificates', 'systemd', 'systemd-sysv', 'xz-utils', 'kmod', 'procps'];

/** The cache directory the tests share across runs: `${XDG_CACHE_HOME:-~/.cache}/kforge-test`. */
export function testCacheDir(): string {
  return path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'), 'kforge-test');
}

/** The first `deb` URI of this machine's apt sources (deb822 or one-line format): a Debian mirror it can reach. */
export function debianMirror(): string {
  const files = ['/etc/apt/sources.list', ...listDir('/etc/apt/sources.list.d').map((f) => path.join('/etc/apt/sources.list.d', f))];
  for (const file of files.filter((f) => /\.(list|sources)$/.test(f) && fs.existsSync(f))) {
    const text = fs.readFileSync(file, 'utf8');
    const uri = /^URIs:\s*(\S*debian\S*)/m.exec(text)?.[1] ?? /^deb\s+(?:\[[^\]]*\]\s+)?(\S*debian\S*)\s+bookworm\s/m.exec(text)?.[1];
    if (uri && !uri.includes('security')) return uri;
  }
  return 'http://deb.debian.org/debian';
}

function listDir(dir: string): string[] {
  try {
    return fs.readdirSync(dir).sort();
  } catch {
    return [];
  }
}

/**
 * A Debian 12 (bookworm) root built once per machine with `debootstrap --variant=minbase` and kept in the
 * test cache: later runs reuse it. `flock` on a lock file makes concurrent callers (two jest workers, a
 * bench) wait for one build rather than race; the root is built in a temporary directory and renamed
 * into place, so a half-built root is never used. Callers must copy it (copyRoot) and never change it.
 */
export function cachedDebianRoot(): string {
  const key = createHash('sha256').update(JSON.stringify(['bookworm', 'minbase', ROOT_PACKAGES])).digest('hex').slice(0, 12);
  const dir = path.join(testCacheDir(), `debian-bookworm-${key}`);
  const root = path.join(dir, 'root');
  if (fs.existsSync(path.join(dir, 'complete'))) return root;
  ensureAptTool('debootstrap', 'debootstrap');
  fs.mkdirSync(dir, { recursive: true });
  const script = [
    'set -e',
    '[ -e "$1/complete" ] && exit 0',
    'rm -rf "$1/building"',
    'debootstrap --variant=minbase --include="$2" bookworm "$1/building" "$3" > "$1/debootstrap.log" 2>&1 || { tail -n 30 "$1/debootstrap.log" >&2; exit 1; }',
    // Left by debootstrap for the apt of the root; not something a test reads.
    'rm -rf "$1/building/var/cache/apt/archives/"*.deb',
    'rm -rf "$1/root"',
    'mv "$1/building" "$1/root"',
    'touch "$1/complete"',
  ].join('\n');
  const r = spawnSync('flock', [path.join(dir, 'lock'), 'sh', '-c', script, 'sh', dir, ROOT_PACKAGES.join(','), debianMirror()], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`debootstrap of a Debian 12 root into ${dir} failed (status ${r.status}):\n${r.stderr}`);
  return root;
}

/** A writable root for one case, and how to remove it. */
export interface WritableRoot {
  path: string;
  remove(): void;
}

/**
 * A writable view of `root` for one case to change, at `dir/merged`: an overlay mount (instant; the
 * cached root is its read-only lower layer, the case's changes go to `dir/upper`), or a `cp -a` copy
 * (owners, modes, device nodes, symlinks kept) where an overlay cannot be mounted. `remove()` unmounts
 * and deletes it.
 */
export function writableRoot(root: string, dir: string): WritableRoot {
  fs.rmSync(dir, { recursive: true, force: true });
  const merged = path.join(dir, 'merged');
  for (const d of ['upper', 'work', 'merged']) fs.mkdirSync(path.join(dir, d), { recursive: true });
  const options = `lowerdir=${root},upperdir=${path.join(dir, 'upper')},workdir=${path.join(dir, 'work')}`;
  if (spawnSync('mount', ['-t', 'overlay', 'overlay', '-o', options, merged], { encoding: 'utf8' }).status === 0) {
    return {
      path: merged,
      remove: () => {
        spawnSync('umount', [merged]);
        fs.rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  fs.rmSync(merged, { recursive: true, force: true });
  const r = spawnSync('cp', ['-a', root, merged], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`cp -a ${root} ${merged} failed: ${r.stderr}`);
  return { path: merged, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}
