#!/usr/bin/env node
// The API calls of one `validate cluster` pass, for a cluster with 3 and with 30 nodes (one control
// plane), made by `update cluster --yes` against moto_server and served by the fake Kubernetes API of
// test/fakes/kube with one Ready Node per instance. Prints, per size, the Kubernetes API requests the fake
// received (by verb and path) and the cloud API calls (by operation). Target: neither grows with the
// number of nodes (nodes and pods are listed once; ASGs, instances and launch templates are one paged
// Describe each). A machine that has not registered adds one GetConsoleOutput.
// Usage: node bench/validate-api-calls.js   (needs moto_server on PATH; esbuild bundles the TypeScript).
'use strict';
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const esbuild = require('esbuild');

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
const root = path.join(__dirname, '..');
const entry = `
export { startMotoServer } from './test/helpers/moto-server';
export { setUpValidateFixture, CREDENTIALS } from './test/helpers/validate-cluster-setup';
export { validateCluster } from './src/ops/validate-cluster';
`;

async function main() {
  // Written under dist/ so that it resolves node_modules and, as dist/<dir>/, ../validate/compiled-validators.
  const out = path.join(root, 'dist', 'bench-validate', 'bench.js');
  await esbuild.build({
    stdin: { contents: entry, resolveDir: root, loader: 'ts' },
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    outfile: out,
    external: ['@aws-sdk/*', '@kubernetes/client-node', 'ajv', 'ajv/*', '@google-cloud/*', 'typescript'],
    plugins: [{ name: 'validators', setup: (b) => b.onResolve({ filter: /\/compiled-validators$/ }, () => ({ path: '../validate/compiled-validators.js', external: true })) }],
    logLevel: 'error',
  });
  // The bundle resolves node_modules and dist/validate from the repository.
  const m = require(out);
  // MOTO_WITH_DEFAULT_IMAGE's path is relative to the helper's own directory, which bundling moves.
  const moto = await m.startMotoServer({ env: { MOTO_AMIS_PATH: path.join(root, 'test', 'fixtures', 'moto-amis.json') } });
  try {
    for (const nodes of [3, 30]) {
      const f = await m.setUpValidateFixture(moto.endpoint, `bench${nodes}.example.com`, nodes);
      try {
        f.healthy();
        f.api.resetRequests();
        const r = await m.validateCluster(f.vfs, {
          cluster: f.name,
          server: `https://127.0.0.1:${f.api.port}`,
          env: { ...f.env, KUBECONFIG: path.join(os.tmpdir(), 'kforge-bench-no-kubeconfig') },
          credentials: m.CREDENTIALS,
        });
        const kube = f.api.requestCounts();
        const total = (o) => Object.values(o).reduce((a, b) => a + b, 0);
        console.log(`${nodes} nodes (+1 control plane): valid=${r.valid}`);
        console.log(`  Kubernetes API requests: ${total(kube)} ${JSON.stringify(kube)}`);
        console.log(`  cloud API calls: ${total(r.cloudCalls)} ${JSON.stringify(r.cloudCalls)} (GetCallerIdentity is the credentials check, once per run)`);
      } finally {
        await f.stop();
      }
    }
  } finally {
    await moto.stop();
    fs.rmSync(path.dirname(out), { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e);
  process.exitCode = 1;
});
