#!/usr/bin/env node
// Startup benchmark: wall time of `kforge --version`, `kforge --help`, a data command and a full
// `create cluster`, each compared with `node -e 0` measured in the same run (interleaved, median of N).
// Usage: node bench/startup.js [runs]   (default 30). Prints one line per command with its ratio.
'use strict';
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const runs = Number(process.argv[2] || 30);
const bin = path.join(__dirname, '..', 'bin', 'run.js');
const store = fs.mkdtempSync(path.join(os.tmpdir(), 'kforge-bench-'));
let n = 0;
const cases = {
  'node -e 0': () => [process.execPath, ['-e', '0']],
  'kforge --version': () => [process.execPath, [bin, '--version']],
  'kforge --help': () => [process.execPath, [bin, '--help']],
  'kforge get clusters': () => [process.execPath, [bin, 'get', 'clusters', '--state', store]],
  'kforge create cluster --help': () => [process.execPath, [bin, 'create', 'cluster', '--help']],
  'kforge create cluster (3 zones, HA)': () => [
    process.execPath,
    [bin, 'create', 'cluster', `b${n++}.example.com`, '--zones', 'us-east-1a,us-east-1b,us-east-1c', '--control-plane-zones', 'us-east-1a,us-east-1b,us-east-1c', '--state', store],
  ],
};
const times = Object.fromEntries(Object.keys(cases).map((k) => [k, []]));
for (let i = 0; i < runs; i++) {
  for (const [name, make] of Object.entries(cases)) {
    const [cmd, args] = make();
    const t0 = process.hrtime.bigint();
    const r = spawnSync(cmd, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    const ms = Number(process.hrtime.bigint() - t0) / 1e6;
    if (r.status !== 0) throw new Error(`${name} failed: ${r.stderr}`);
    times[name].push(ms);
  }
}
fs.rmSync(store, { recursive: true, force: true });
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const base = median(times['node -e 0']);
console.log(`startup, median of ${runs} interleaved runs on ${os.cpus().length} cores (${os.cpus()[0].model})`);
for (const [name, xs] of Object.entries(times)) {
  console.log(`${name.padEnd(38)} ${median(xs).toFixed(1).padStart(7)} ms   ratio ${(median(xs) / base).toFixed(2)}`);
}
