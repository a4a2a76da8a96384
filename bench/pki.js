#!/usr/bin/env node
// PKI benchmark: how long the full cluster PKI takes in process, and `kforge create cluster` for comparison.
// Prints, from one run: key generation per algorithm (why kforge uses ECDSA P-256), generateClusterPki
// in process, and the wall time of `create cluster` (which, as in kops, no longer makes the PKI: update does) against `node -e 0`.
// Usage: node bench/pki.js [runs]   (default 15). Needs a build (npm run build).
'use strict';
const { generateKeyPairSync } = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { generateClusterPki } = require('../dist/pki/generate-cluster-pki');
const { interleave, median, report } = require('./interleave');

const runs = Number(process.argv[2] || 15);
const bin = path.join(__dirname, '..', 'bin', 'run.js');
const time = (fn) => {
  const t0 = process.hrtime.bigint();
  fn();
  return Number(process.hrtime.bigint() - t0) / 1e6;
};

async function main() {
  console.log(`PKI benchmark, median of ${runs} runs on ${os.cpus().length} cores (${os.cpus()[0].model})`);
  const ec = [];
  const rsa = [];
  for (let i = 0; i < runs; i++) {
    ec.push(time(() => generateKeyPairSync('ec', { namedCurve: 'prime256v1' })));
    rsa.push(time(() => generateKeyPairSync('rsa', { modulusLength: 2048 })));
  }
  console.log(`key generation, ECDSA P-256           ${median(ec).toFixed(2).padStart(8)} ms`);
  console.log(`key generation, RSA 2048              ${median(rsa).toFixed(2).padStart(8)} ms   (${(median(rsa) / median(ec)).toFixed(0)}x ECDSA)`);
  const pki = [];
  for (let i = 0; i < runs; i++) {
    const t0 = process.hrtime.bigint();
    await generateClusterPki(['main', 'events']);
    pki.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  console.log(`generateClusterPki (12 keysets)       ${median(pki).toFixed(1).padStart(8)} ms   (in process)`);

  const store = fs.mkdtempSync(path.join(os.tmpdir(), 'kforge-bench-pki-'));
  let n = 0;
  const cases = {
    'node -e 0': () => [process.execPath, ['-e', '0']],
    'create cluster, 1 zone (no PKI since update makes it)': () => [process.execPath, [bin, 'create', 'cluster', `p${n++}.k8s.local`, '--zones', 'us-east-1a', '--state', store]],
    'create cluster, 3 zones HA (full PKI)': () => [
      process.execPath,
      [bin, 'create', 'cluster', `h${n++}.example.com`, '--zones', 'us-east-1a,us-east-1b,us-east-1c', '--control-plane-zones', 'us-east-1a,us-east-1b,us-east-1c', '--state', store],
    ],
  };
  const times = interleave(cases, runs);
  fs.rmSync(store, { recursive: true, force: true });
  report(times, 'node -e 0');
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
