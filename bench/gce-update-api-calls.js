#!/usr/bin/env node
// `update cluster` of a GCE cluster against the fake Compute API (test/fakes/gce), for 1 and for 20 node
// instance groups (plus the control plane's): API calls and wall time of `update --yes` from nothing, and
// of a no-op `update` (plan only). Target for the no-op: at most 30 calls, the same for 1 and for 20 groups.
// Usage: node bench/gce-update-api-calls.js   (needs a build: npm run build). The fake is TypeScript; it is
// transpiled on load with the project's own typescript.
'use strict';
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const ts = require('typescript');

// Load the fake's .ts files (CommonJS, no type check).
require.extensions['.ts'] = (module, filename) => {
  const out = ts.transpileModule(fs.readFileSync(filename, 'utf8'), { compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true }, fileName: filename });
  module._compile(out.outputText, filename);
};
const { startFakeCompute } = require(path.join(__dirname, '..', 'test', 'fakes', 'gce', 'compute-fake.ts'));
const dist = path.join(__dirname, '..', 'dist');
const { newCluster } = require(path.join(dist, 'create/new-cluster'));
const { saveCluster } = require(path.join(dist, 'ops/save-cluster'));
const { updateCluster } = require(path.join(dist, 'ops/update-cluster'));
const { openVfs } = require(path.join(dist, 'state/vfs/open-vfs'));

async function measure(fake, groups) {
  const name = `bench${groups}.example.com`;
  const store = fs.mkdtempSync(path.join(os.tmpdir(), 'kforge-bench-gce-'));
  const vfs = openVfs(store);
  const planned = newCluster({ name, zones: ['us-central1-a'], cloud: 'gce', dns: 'none' });
  planned.cluster.spec.project = `bench-${groups}`;
  const template = planned.instanceGroups.find((ig) => ig.spec.role === 'Node');
  for (let i = 1; i < groups; i++) planned.instanceGroups.push({ ...template, metadata: { ...template.metadata, name: `extra-${String(i).padStart(2, '0')}` } });
  await saveCluster(vfs, { cluster: planned.cluster, instanceGroups: planned.instanceGroups });
  const env = { ...process.env, KFORGE_ALLOW_LOCAL_STATE_FOR_NODES: 'test-only', CLOUDSDK_API_ENDPOINT_OVERRIDES_COMPUTE: `${fake.endpoint}/compute/v1/`, CLOUDSDK_API_ENDPOINT_OVERRIDES_IAM: `${fake.endpoint}/`,
    CLOUDSDK_API_ENDPOINT_OVERRIDES_CLOUDRESOURCEMANAGER: `${fake.endpoint}/`, CLOUDSDK_AUTH_ACCESS_TOKEN: 'bench-token' };
  const lock = { command: 'bench', forceUnlock: false, ttlSeconds: 300 };
  let t0 = Date.now();
  const first = await updateCluster(vfs, name, { yes: true, lock, env });
  const applyMs = Date.now() - t0;
  t0 = Date.now();
  const noop = await updateCluster(vfs, name, { yes: false, lock, env });
  const noopMs = Date.now() - t0;
  fs.rmSync(store, { recursive: true, force: true });
  if (noop.cloudPlan.hasChanges) throw new Error(`${name}: the second update still has changes`);
  return { groups, apply: { calls: first.cloud.calls.calls, mutating: first.cloud.calls.mutating, ms: applyMs }, noop: { calls: noop.cloud.calls.calls, mutating: noop.cloud.calls.mutating, ms: noopMs, byOperation: noop.cloud.calls.snapshot() } };
}

(async () => {
  const fake = await startFakeCompute();
  try {
    const results = [await measure(fake, 1), await measure(fake, 20)];
    for (const r of results) {
      console.log(`${String(r.groups).padStart(2)} node groups: update --yes ${r.apply.calls} calls (${r.apply.mutating} mutating) in ${r.apply.ms} ms; no-op update ${r.noop.calls} calls (${r.noop.mutating} mutating) in ${r.noop.ms} ms`);
    }
    console.log(`no-op calls by operation: ${JSON.stringify(results[0].noop.byOperation)}`);
    const flat = results[0].noop.calls === results[1].noop.calls;
    console.log(`target: at most 30 no-op calls, flat: ${results.every((r) => r.noop.calls <= 30) && flat ? 'met' : 'NOT met'}`);
  } finally {
    await fake.stop();
  }
})().catch((e) => {
  console.error(e);
  process.exitCode = 1;
});
