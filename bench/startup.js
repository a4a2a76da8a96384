#!/usr/bin/env node
// Startup benchmark: wall time of `kforge --version`, `kforge --help`, a data command and a full
// `create cluster`, each compared with `node -e 0` measured in the same run (interleaved, median of N).
// Targets (issue 7): get clusters and create cluster --help at most 1.5x, create cluster (HA) at most 3x.
// The last line, a bare Node process making one RSA-2048 key, is kept for comparison only: it is no longer
// a floor of create cluster, which (as kops) writes only the spec; the PKI is made by `update cluster`.
// Usage: node bench/startup.js [runs]   (default 30). Prints one line per command with its ratio.
'use strict';
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { interleave, report } = require('./interleave');

const runs = Number(process.argv[2] || 30);
const bin = path.join(__dirname, '..', 'bin', 'run.js');
const store = fs.mkdtempSync(path.join(os.tmpdir(), 'kforge-bench-'));
let n = 0;
const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'kforge-bench-empty-'));
const cases = {
  'node -e 0': () => [process.execPath, ['-e', '0']],
  'kforge --version': () => [process.execPath, [bin, '--version']],
  'kforge --help': () => [process.execPath, [bin, '--help']],
  'kforge get clusters (empty store)': () => [process.execPath, [bin, 'get', 'clusters', '--state', empty]],
  'kforge get clusters (the clusters below)': () => [process.execPath, [bin, 'get', 'clusters', '--state', store]],
  'kforge create cluster --help': () => [process.execPath, [bin, 'create', 'cluster', '--help']],
  'kforge create cluster (3 zones, HA)': () => [
    process.execPath,
    [bin, 'create', 'cluster', `b${n++}.example.com`, '--zones', 'us-east-1a,us-east-1b,us-east-1c', '--control-plane-zones', 'us-east-1a,us-east-1b,us-east-1c', '--state', store],
  ],
  'node: one RSA-2048 key (no longer a floor of create)': () => [process.execPath, ['-e', "require('crypto').generateKeyPairSync('rsa', { modulusLength: 2048 })"]],
};
const times = interleave(cases, runs);
fs.rmSync(store, { recursive: true, force: true });
fs.rmSync(empty, { recursive: true, force: true });
console.log(`startup, median of ${runs} interleaved runs on ${os.cpus().length} cores (${os.cpus()[0].model})`);
report(times, 'node -e 0');
