import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DescribeVpcsCommand, EC2Client } from '@aws-sdk/client-ec2';
import { newCluster } from '../../../src/create/new-cluster';
import { saveCluster } from '../../../src/ops/save-cluster';
import { openVfs } from '../../../src/state/vfs/open-vfs';
import { CliResult, ROOT, startCli, tempDir } from '../../helpers/cli';
import { FaultProxy, ProxiedRequest, startFaultProxy } from '../../helpers/fault-proxy';
import { MOTO_WITH_DEFAULT_IMAGE, MotoServer, startMotoServer } from '../../helpers/moto-server';

// The cluster lock between two `update --yes` (the CLI, as users run it) against moto: the running one's
// mutating calls are slowed by the fault proxy, so the other command arrives while it is applying.

let moto: MotoServer;
let proxy: FaultProxy;
let ec2: EC2Client;
let store: string;

beforeAll(async () => {
  moto = await startMotoServer({ env: MOTO_WITH_DEFAULT_IMAGE });
  proxy = await startFaultProxy(moto.endpoint, 250);
  ec2 = new EC2Client({ region: 'us-east-1', endpoint: moto.endpoint, credentials: { accessKeyId: 'test', secretAccessKey: 'test' } });
  store = tempDir('kforge-update-lock-');
});

afterAll(async () => {
  ec2?.destroy();
  await proxy?.stop();
  await moto?.stop();
  if (store) fs.rmSync(store, { recursive: true, force: true });
});

function env(endpoint: string): NodeJS.ProcessEnv {
  return { ...moto.env, AWS_ENDPOINT_URL: endpoint, AWS_EC2_METADATA_DISABLED: 'true', AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true', CI: 'true' };
}

/** Whether a request through the proxy changes something: every call but Describe/Get/List (and plain GETs). */
function mutating(req: ProxiedRequest): boolean {
  // AWS's JSON protocol (SQS, EventBridge) names the operation in a header, the query protocol in the body.
  const target = req.headers['x-amz-target'];
  if (typeof target === 'string') return !/\.(Describe|Get|List)/.test(target);
  return req.method !== 'GET' && !/Action=(Describe|Get|List)/.test(req.body);
}

async function newStoredCluster(name: string): Promise<void> {
  const planned = newCluster({ name, zones: ['us-east-1a'], topology: 'public', networking: 'calico', cloud: 'aws' });
  await saveCluster(openVfs(store), { cluster: planned.cluster, instanceGroups: planned.instanceGroups });
}

function lease(name: string): { holder: string; pid: number; command: string } | undefined {
  const file = path.join(store, name, 'kforge-lock.json');
  return fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : undefined;
}

async function until(condition: () => boolean, what: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`${what} did not happen`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

async function vpcsOf(name: string): Promise<number> {
  return (await ec2.send(new DescribeVpcsCommand({ Filters: [{ Name: 'tag:KubernetesCluster', Values: [name] }] }))).Vpcs?.length ?? 0;
}

/** Runs the built CLI in a new pid namespace (`unshare --pid --fork --mount-proc`): pids there are not this namespace's. */
function runUnshared(args: string[], environment: NodeJS.ProcessEnv): Promise<CliResult> {
  const child = spawn('unshare', ['--pid', '--fork', '--mount-proc', process.execPath, path.join(ROOT, 'bin', 'run.js'), ...args], { env: { ...process.env, NO_COLOR: '1', ...environment }, cwd: ROOT });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ status: code ?? -1, stdout, stderr })));
}

/** An editor that changes nothing and returns only when `release` exists, so its kforge process holds the lock meanwhile. */
function heldEditor(release: string): string {
  const file = path.join(tempDir(), 'held-editor.sh');
  fs.writeFileSync(file, `#!/bin/sh\ni=0\nwhile [ ! -f '${release}' ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i+1)); done\n`, { mode: 0o755 });
  return file;
}

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

it('a live update --yes keeps the lock against a second one started under unshare --pid --fork --mount-proc: the second exits non-zero naming the holder and mutates nothing', async () => {
  const name = 'pidns.example.com';
  await newStoredCluster(name);
  let firstMutating = 0;
  proxy.setRule((req) => (mutating(req) ? (firstMutating++, 'delay') : undefined));
  const first = startCli(['update', 'cluster', name, '--yes', '--state', store], env(proxy.endpoint));
  await until(() => firstMutating > 0 || first.finished(), 'the first update applying');
  expect(first.finished()).toBe(false);
  const holder = lease(name);
  expect(holder).toMatchObject({ pid: first.pid, command: `kforge update cluster ${name} --yes --state ${store}` });

  // The second has a proxy of its own: what it sends is told apart from the first's.
  const secondProxy = await startFaultProxy(moto.endpoint);
  const second: ProxiedRequest[] = [];
  secondProxy.setRule((req) => (mutating(req) && second.push(req), undefined));
  const r = await runUnshared(['update', 'cluster', name, '--yes', '--state', store], env(secondProxy.endpoint)).finally(() => secondProxy.stop());
  const leaseAfterSecond = lease(name);
  const done = await first.done;
  proxy.setRule(undefined);
  // Same user@host, a pid that does not exist in its namespace: still the holder's lease, waited for.
  expect(r.status).toBe(1);
  expect(r.stderr).toMatch(new RegExp(`^Error: cluster "${escape(name)}" is locked by ${escape(holder!.holder)} \\(pid ${first.pid}\\) running "kforge update cluster ${escape(name)} --yes`));
  expect(r.stderr).not.toMatch(/that process is no longer running on this host|taking over/);
  expect(second).toEqual([]);
  expect(leaseAfterSecond?.pid).toBe(first.pid);
  expect(done.stderr).not.toMatch(/Error|lost the cluster lock/);
  expect(done.status).toBe(0);
  expect(await vpcsOf(name)).toBe(1);
  expect(lease(name)).toBeUndefined();
}, 120_000);

it('an update --yes whose lock is taken by --force-unlock from another process starts nothing more, exits non-zero naming the new holder, and leaves its lease', async () => {
  const name = 'take-over.example.com'; // not 'takeover': kops's target-group name would hold '--', which moto refuses
  await newStoredCluster(name);
  // Each mutating call of the update, and whether it arrived after the takeover was seen in the store.
  const arrivals: boolean[] = [];
  let takenOver = false;
  proxy.setRule((req) => (mutating(req) ? (arrivals.push(takenOver), 'delay') : undefined));
  const update = startCli(['update', 'cluster', name, '--yes', '--state', store], { ...env(proxy.endpoint), KFORGE_LOCK_TTL_SECONDS: '10' });
  await until(() => arrivals.length >= 3 || update.finished(), 'the update applying');
  expect(update.finished()).toBe(false);

  const release = path.join(tempDir(), 'release');
  const edit = startCli(['edit', 'cluster', name, '--force-unlock', '--state', store], { EDITOR: heldEditor(release) });
  await until(() => lease(name)?.pid === edit.pid || edit.finished(), 'the takeover');
  takenOver = true;
  // What the update had sent and not had answered when the takeover was seen: all it may still do.
  const inFlight = proxy.inFlight().filter(mutating).length;
  const before = arrivals.length;

  const r = await update.done;
  if (process.env.KFORGE_TEST_REPORT) process.stderr.write(`mutating calls: ${before} before the takeover, ${inFlight} of them in flight, ${arrivals.filter((a) => a).length} after\n`);
  const after = arrivals.filter((a) => a).length;
  proxy.setRule(undefined);
  expect(r.status).toBe(1);
  const theirs = lease(name)!;
  expect(r.stderr).toMatch(
    new RegExp(`\\nError: lost the cluster lock of "${escape(name)}" to ${escape(theirs.holder)} \\(pid ${edit.pid}\\) running "kforge edit cluster ${escape(name)} --force-unlock --state ${escape(store)}" since \\d+s ago; this command stopped`),
  );
  expect(r.stderr).toMatch(/Warning: lost the cluster lock of .*: starting no new change/);
  expect(r.stderr).not.toMatch(/\n\s+at /);
  expect(before).toBeGreaterThan(0);
  expect(after).toBeLessThanOrEqual(inFlight);
  // The update neither released nor overwrote the new holder's lease.
  expect(theirs.pid).toBe(edit.pid);

  fs.writeFileSync(release, '');
  const e = await edit.done;
  expect(e.status).toBe(0);
  expect(e.stderr).toMatch(new RegExp(`^Warning: --force-unlock: taking the lock of cluster "${escape(name)}" from .* running "kforge update cluster ${escape(name)} --yes`));
  expect(lease(name)).toBeUndefined();
  // The stopped update is finished by the next one.
  const again = await startCli(['update', 'cluster', name, '--yes', '--state', store], env(proxy.endpoint)).done;
  expect(again.status).toBe(0);
  expect(await vpcsOf(name)).toBe(1);
}, 120_000);

it('a delete --yes whose lock is taken by --force-unlock deletes nothing more, keeps the state and exits non-zero naming the new holder', async () => {
  const name = 'delete-takeover.example.com';
  await newStoredCluster(name);
  proxy.setRule(undefined);
  expect((await startCli(['update', 'cluster', name, '--yes', '--state', store], env(proxy.endpoint)).done).status).toBe(0);
  const arrivals: boolean[] = [];
  let takenOver = false;
  proxy.setRule((req) => (mutating(req) ? (arrivals.push(takenOver), 'delay') : undefined));
  const del = startCli(['delete', 'cluster', name, '--yes', '--state', store], { ...env(proxy.endpoint), KFORGE_TEST_DELETE_PACE: '50/20' });
  await until(() => arrivals.length >= 2 || del.finished(), 'the delete deleting');
  expect(del.finished()).toBe(false);

  const release = path.join(tempDir(), 'release');
  const edit = startCli(['edit', 'cluster', name, '--force-unlock', '--state', store], { EDITOR: heldEditor(release) });
  await until(() => lease(name)?.pid === edit.pid || edit.finished(), 'the takeover');
  takenOver = true;
  const inFlight = proxy.inFlight().filter(mutating).length;
  const r = await del.done;
  const after = arrivals.filter((a) => a).length;
  proxy.setRule(undefined);
  expect(r.status).toBe(1);
  expect(r.stderr).toMatch(new RegExp(`\\nError: lost the cluster lock of "${escape(name)}" to .* \\(pid ${edit.pid}\\) running "kforge edit cluster ${escape(name)} --force-unlock`));
  expect(after).toBeLessThanOrEqual(inFlight);
  // The state is what a re-run needs: kept, as is the new holder's lease.
  expect(fs.existsSync(path.join(store, name, 'config'))).toBe(true);
  expect(lease(name)?.pid).toBe(edit.pid);

  fs.writeFileSync(release, '');
  expect((await edit.done).status).toBe(0);
  const again = await startCli(['delete', 'cluster', name, '--yes', '--state', store], { ...env(proxy.endpoint), KFORGE_TEST_DELETE_PACE: '50/20' }).done;
  expect(again.status).toBe(0);
  expect(await vpcsOf(name)).toBe(0);
  expect(fs.existsSync(path.join(store, name))).toBe(false);
}, 120_000);
