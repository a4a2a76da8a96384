#!/usr/bin/env node
// `update cluster` against moto_server behind a latency proxy (default 100 ms per call), for a cluster
// with 1 and with 20 node instance groups (plus one control-plane group). Reports, from one run:
//   - API calls and wall time of `update --yes` from nothing, and its critical path: the longest chain of
//     dependent tasks, each weighted with the time its apply really took (what unlimited parallelism
//     could not beat); target: wall time at most ~2x the critical path;
//   - API calls and wall time of a no-op `update` (plan only); target: at most 39 calls (30 before the node-termination-handler and the node-identity listener;
//     one is the DescribeNetworkInterfaces of the workers' APIServerIPs, which only a cluster without DNS makes), the same for 1
//     and for 20 instance groups.
// Usage: node bench/update-api-calls.js [latencyMs]   (default 100). Needs a build (npm run build) and
// moto_server on PATH.
'use strict';
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const http = require('node:http');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
const dist = path.join(__dirname, '..', 'dist');
const { newCluster } = require(path.join(dist, 'create/new-cluster'));
const { saveCluster } = require(path.join(dist, 'ops/save-cluster'));
const { updateCluster } = require(path.join(dist, 'ops/update-cluster'));
const { openVfs } = require(path.join(dist, 'state/vfs/open-vfs'));
const { taskKey } = require(path.join(dist, 'tasks/task'));

const latencyMs = Number(process.argv[2] || 100);
const CREDENTIALS = { accessKeyId: 'test', secretAccessKey: 'test' };

function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

// moto 5.2.1 ships no Ubuntu newer than 16.04: give it kforge's default image (Canonical's 24.04).
function amisFile() {
  const { DEFAULT_IMAGE } = require(path.join(dist, 'model/aws/instance-group-model-builder'));
  const [owner, ...name] = DEFAULT_IMAGE.split('/');
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'kforge-bench-amis-')), 'amis.json');
  const ami = { ami_id: 'ami-0a0b1c2d3e4f50001', state: 'available', public: true, owner_id: owner, image_location: DEFAULT_IMAGE, root_device_type: 'ebs', root_device_name: '/dev/sda1', description: 'bench stand-in', image_type: 'machine', platform: null, architecture: 'x86_64', name: name.join('/'), virtualization_type: 'hvm', hypervisor: 'xen' };
  fs.writeFileSync(file, JSON.stringify([ami]));
  return file;
}

async function startMoto() {
  const port = await freePort();
  const child = spawn('moto_server', ['-H', '127.0.0.1', '-p', String(port)], { stdio: 'ignore', env: { ...process.env, MOTO_AMIS_PATH: amisFile() } });
  child.once('error', (e) => {
    console.error(`cannot start moto_server: ${e.message}`);
    process.exit(1);
  });
  for (let i = 0; i < 100; i++) {
    const up = await new Promise((r) => http.get(`http://127.0.0.1:${port}/moto-api/`, (res) => (res.resume(), r(true))).on('error', () => r(false)));
    if (up) return { port, stop: () => child.kill('SIGKILL') };
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('moto_server did not start');
}

/**
 * test/helpers/moto-nlb-proxy.js in front of moto: it makes the API load balancer's network interfaces, as AWS
 * does and moto does not (the workers' launch templates of this `--dns none` cluster wait for their addresses).
 */
async function nlbProxy(motoPort) {
  const child = spawn(process.execPath, [path.join(__dirname, '..', 'test', 'helpers', 'moto-nlb-proxy.js'), `http://127.0.0.1:${motoPort}`], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (c) => {
      out += c;
      const m = /^(\d+)\n/.exec(out);
      if (m) resolve(Number(m[1]));
    });
    child.once('exit', (code) => reject(new Error(`moto-nlb-proxy exited (status ${code})`)));
  });
  return { port, stop: () => child.kill('SIGKILL') };
}

/** An HTTP proxy that holds every request for `delay` ms before forwarding it: a far-away region. */
async function latencyProxy(upstreamPort, delay) {
  const agent = new http.Agent({ keepAlive: true });
  const server = http.createServer((req, res) => {
    const body = [];
    req.on('data', (c) => body.push(c));
    req.on('end', () =>
      setTimeout(() => {
        const up = http.request({ host: '127.0.0.1', port: upstreamPort, method: req.method, path: req.url, headers: req.headers, agent }, (r) => {
          res.writeHead(r.statusCode, r.headers);
          r.pipe(res);
        });
        up.on('error', () => res.destroy());
        up.end(Buffer.concat(body));
      }, delay),
    );
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return { endpoint: `http://127.0.0.1:${server.address().port}`, close: () => (server.closeAllConnections(), server.close(), agent.destroy()) };
}

/** The longest chain of dependent tasks, each weighted by its measured apply time. */
function criticalPathMs(tasks, durations) {
  const memo = new Map();
  const longest = (t) => {
    if (memo.has(t)) return memo.get(t);
    const own = durations.get(taskKey(t)) ?? 0;
    const before = Math.max(0, ...t.dependencies().map(longest));
    memo.set(t, own + before);
    return own + before;
  };
  return Math.max(0, ...tasks.map(longest));
}

async function measure(endpoint, groups, label = 'bench') {
  const name = `${label}${groups}.example.com`;
  const store = fs.mkdtempSync(path.join(os.tmpdir(), 'kforge-bench-update-'));
  const vfs = openVfs(store);
  const planned = newCluster({ name, zones: ['us-east-1a'], cloud: 'aws' });
  const template = planned.instanceGroups.find((ig) => ig.spec.role === 'Node');
  for (let i = 1; i < groups; i++) {
    planned.instanceGroups.push({ ...template, metadata: { ...template.metadata, name: `extra-${String(i).padStart(2, '0')}` } });
  }
  await saveCluster(vfs, { cluster: planned.cluster, instanceGroups: planned.instanceGroups });
  const env = { ...process.env, AWS_ENDPOINT_URL: endpoint, AWS_EC2_METADATA_DISABLED: 'true', KFORGE_ALLOW_LOCAL_STATE_FOR_NODES: 'test-only' };
  const lock = { command: 'bench', forceUnlock: false, ttlSeconds: 300 };
  const started = new Map();
  const durations = new Map();
  let applyStart = 0;
  let applyEnd = 0;
  const onTaskEvent = (e) => {
    if (e.phase !== 'apply') return;
    applyStart ||= Date.now();
    applyEnd = Date.now();
    if (e.type === 'start' && e.attempt === 1) started.set(e.task, Date.now());
    if (e.type === 'done') durations.set(e.task, Date.now() - started.get(e.task));
  };
  let t0 = Date.now();
  const first = await updateCluster(vfs, name, { yes: true, lock, env, credentials: CREDENTIALS, onTaskEvent });
  const applyWall = Date.now() - t0;
  const apply = { calls: first.cloud.calls.calls, wall: applyWall, applyWall: applyEnd - applyStart, critical: criticalPathMs(first.tasks, durations), tasks: first.tasks.length };
  t0 = Date.now();
  const noop = await updateCluster(vfs, name, { yes: false, lock, env, credentials: CREDENTIALS });
  const noopResult = { calls: noop.cloud.calls.calls, wall: Date.now() - t0, changes: noop.cloudPlan.hasChanges || noop.managed.hasChanges, ops: noop.cloud.calls.snapshot() };
  fs.rmSync(store, { recursive: true, force: true });
  return { groups, apply, noop: noopResult };
}

async function main() {
  const moto = await startMoto();
  const nlb = await nlbProxy(moto.port);
  const proxy = await latencyProxy(nlb.port, latencyMs);
  try {
    console.log(`update cluster against moto_server behind a ${latencyMs} ms latency proxy (${os.cpus().length} cores)`);
    // Warm-up: loads the SDK modules and wakes moto's backends, so neither lands in the first figure.
    await measure(proxy.endpoint, 1, 'warmup');
    const rows = [];
    for (const groups of [1, 20]) rows.push(await measure(proxy.endpoint, groups));
    for (const r of rows) {
      const a = r.apply;
      console.log(
        `${String(r.groups).padStart(2)} node groups  update --yes from nothing: ${String(a.calls).padStart(4)} calls ${(a.wall / 1000).toFixed(1).padStart(5)} s` +
          ` (apply ${(a.applyWall / 1000).toFixed(1)} s, its critical path ${(a.critical / 1000).toFixed(1)} s: ratio ${(a.applyWall / a.critical).toFixed(2)}; ${a.tasks} tasks)` +
          `   no-op update: ${String(r.noop.calls).padStart(3)} calls ${(r.noop.wall / 1000).toFixed(1).padStart(4)} s${r.noop.changes ? '  (NOT a no-op!)' : ''}`,
      );
    }
    console.log(`no-op calls, 20 vs 1 node groups: ${rows[1].noop.calls} vs ${rows[0].noop.calls} (target: equal, at most 39)`);
    console.log(`no-op operations (20 groups): ${JSON.stringify(rows[1].noop.ops)}`);
  } finally {
    proxy.close();
    nlb.stop();
    moto.stop();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
