#!/usr/bin/env node
// Wall time of `rolling-update cluster --yes` of a 4-node group with maxSurge 2, against moto_server (the
// instances) and the fake kube-apiserver of test/fakes/kube (the Nodes; this process plays the kubelets,
// registering a Ready Node for each instance the Auto Scaling group launches, polling every 20 ms).
// The intervals (--node-interval, --control-plane-interval, --bastion-interval) and --post-drain-delay
// are 0; validation needs 2 passes in a row (kops's default) and every poll (validation retries,
// replacement waits, drain retries) is 50 ms instead of kops's 5-30 s, so the number measures kforge and
// its API calls, not sleeps. Also reports the fewest Ready, schedulable nodes seen at any step.
// Usage: node bench/rolling-update.js [runs]   (default 3). Needs moto_server on PATH and node_modules.
'use strict';
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const esbuild = require('esbuild');

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
const root = path.join(__dirname, '..');
const runs = Number(process.argv[2] || 3);

// The scenario reuses the tests' helpers (TypeScript): bundled once with esbuild, as the CLI is.
const entry = `
export { startMotoServer } from './test/helpers/moto-server';
export { clusterWithOutdatedNodes, MOTO_CREDENTIALS, NODES_IG } from './test/helpers/rolling-cluster';
export { startRollingKube } from './test/helpers/rolling-kube';
export { rollingUpdateCluster } from './src/ops/rolling-update-cluster';
export { connectRollingUpdateKube } from './src/rolling-update/connect-rolling-update-kube';
export { openVfs } from './src/state/vfs/open-vfs';
`;
// Inside the package (dist/, not committed): kforge finds schemas/ and templates/ from where it runs.
const out = path.join(root, 'dist', 'bench', 'rolling-update-scenario.js');
esbuild.buildSync({ stdin: { contents: entry, resolveDir: root, loader: 'ts' }, bundle: true, platform: 'node', target: 'node20', format: 'cjs', outfile: out, logLevel: 'error', external: ['typescript'] });
const s = require(out);

async function once(moto, n) {
  const name = `bench${n}.example.com`;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kforge-bench-rolling-store-'));
  const vfs = s.openVfs(dir);
  await s.clusterWithOutdatedNodes(vfs, moto, name, { nodes: 4, maxSurge: 2, launchable: true });
  const kube = await s.startRollingKube(vfs, moto, name, dir);
  kube.startKubelets(20);
  let fewest = Infinity;
  let events = 0;
  const tick = 50;
  const started = process.hrtime.bigint();
  const result = await s.rollingUpdateCluster(vfs, name, {
    yes: true,
    lock: { command: 'bench', ttlSeconds: 60, warn: () => undefined },
    selection: {},
    cloudOnly: false,
    timings: { intervalMs: () => 0, validationTimeoutMs: 120000, validateCount: 2, validateRetryMs: tick, validateSuccessMs: tick, drainTimeoutMs: 120000, drainRetryMs: tick, postDrainDelayMs: 0, failOnDrainError: true, failOnValidateError: true, pollMs: tick },
    connectKube: (cluster, cloud) => s.connectRollingUpdateKube(vfs, cluster, cloud, { kubeconfig: kube.kubeconfig }),
    env: { AWS_ENDPOINT_URL: moto.endpoint },
    credentials: s.MOTO_CREDENTIALS,
    report: () => {
      events++;
      fewest = Math.min(fewest, kube.schedulable(s.NODES_IG).length);
    },
  });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  const kubeRequests = kube.api.requests.length;
  await kube.stop();
  fs.rmSync(dir, { recursive: true, force: true });
  return { ms, awsCalls: result.cloud.calls.calls, kubeRequests, events, fewest };
}

(async () => {
  // The tests' image list, by its path in the repository (the bundle's __dirname is dist/bench).
  const moto = await s.startMotoServer({ env: { MOTO_AMIS_PATH: path.join(root, 'test', 'fixtures', 'moto-amis.json') } });
  try {
    const results = [];
    for (let n = 0; n < runs; n++) {
      const r = await once(moto, n);
      results.push(r);
      console.log(`run ${n + 1}: ${(r.ms / 1000).toFixed(2)} s, ${r.awsCalls} AWS calls, ${r.kubeRequests} Kubernetes API requests, ${r.events} steps, fewest Ready schedulable nodes ${r.fewest}`);
    }
    const sorted = results.map((r) => r.ms).sort((a, b) => a - b);
    console.log(`rolling update of 4 nodes, maxSurge 2, intervals 0: median ${(sorted[Math.floor(sorted.length / 2)] / 1000).toFixed(2)} s over ${runs} runs (min ${(sorted[0] / 1000).toFixed(2)} s, max ${(sorted[sorted.length - 1] / 1000).toFixed(2)} s)`);
  } finally {
    await moto.stop();
  }
})().catch((e) => {
  console.error(e);
  process.exit(1);
});
