#!/usr/bin/env node
// Node bootstrap benchmark: the wall time from the start of a group's user-data to nodeup's finish, in a
// fresh copy of the cached Debian 12 root (chroot), with a warm asset server and a warm root cache. The
// setup is the end-to-end test's (test/e2e/bootstrap-harness.ts: moto, a cluster made with create and
// update --yes, the launch templates' user-data, the local asset table with real containerd, runc and
// CNI plugins); one untimed run warms the page cache, then each group's user-data runs N times, each in
// a new root. Prints every run and the median per group, then the median of a second, no-change run.
// Usage: node bench/node-bootstrap.js [runs]   (default 3). Needs root (chroot), a build (npm run build),
// moto_server on PATH; the first use builds the Debian root and the release files (~2 min, cached).
'use strict';
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

// The pinned AWS SDK's notice that its future releases need Node 22 (the harness's own S3 and EC2 clients).
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
const runs = Number(process.argv[2] || 3);
const root = path.join(__dirname, '..');

/** The harness compiled from TypeScript into dist/ (its packages resolved from the repository's node_modules). */
function loadHarness() {
  const outfile = path.join(root, 'dist', 'bench', 'bootstrap-harness.js');
  require('esbuild').buildSync({
    entryPoints: [path.join(root, 'test', 'e2e', 'bootstrap-harness.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    packages: 'external',
    // test/helpers find bin/run.js and the fixtures from their own directory.
    define: { __dirname: JSON.stringify(path.join(root, 'test', 'helpers')) },
    logLevel: 'warning',
  });
  return require(outfile);
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function timed(h, group, name) {
  const dir = h.freshRoot(name);
  const t0 = process.hrtime.bigint();
  const r = await h.bootstrap(dir, group);
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== 0) throw new Error(`${group}: user-data failed (status ${r.status}):\n${r.out}`);
  return { ms, dir };
}

async function main() {
  if (process.getuid && process.getuid() !== 0) throw new Error('chroot needs root: run as root');
  const { startBootstrapHarness, GROUPS } = loadHarness();
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'kforge-bench-bootstrap-'));
  const h = await startBootstrapHarness(work);
  try {
    h.removeRoot((await timed(h, GROUPS.nodes, 'warm-up')).dir);
    for (const group of [GROUPS.controlPlane, GROUPS.nodes]) {
      const first = [];
      const again = [];
      for (let i = 0; i < runs; i++) {
        const { ms, dir } = await timed(h, group, `${group}-${i}`);
        first.push(ms);
        const t0 = process.hrtime.bigint();
        const r = await h.bootstrap(dir, group);
        if (r.status !== 0) throw new Error(`${group}: second run failed:\n${r.out}`);
        again.push(Number(process.hrtime.bigint() - t0) / 1e6);
        h.removeRoot(dir);
      }
      console.log(`${group}: user-data start to nodeup done ${(median(first) / 1000).toFixed(2)} s (median of ${runs}: ${first.map((m) => (m / 1000).toFixed(2)).join(', ')} s); second run (no changes) ${(median(again) / 1000).toFixed(2)} s`);
    }
  } finally {
    await h.stop();
    fs.rmSync(work, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e.message);
  process.exit(1);
});
