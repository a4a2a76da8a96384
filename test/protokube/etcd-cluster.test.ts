import { ChildProcess, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as yaml from 'js-yaml';
import { issueKeypair } from '../../src/pki/issue-keypair';
import { ensureAptTool } from '../helpers/apt-tool';
import { runCliAsync, tempDir } from '../helpers/cli';
import { MotoServer, startMotoServer } from '../helpers/moto-server';
import { HA_ZONES, HaCluster, makeHaCluster } from './ha-cluster-fixture';
import { makeMotoControlPlane, MotoControlPlane } from './moto-etcd-volumes';
import { releaseMounts } from './release-mounts';

// A real 3-member etcd cluster from kforge's own output. Three `kforge protokube --once` runs, one per
// control-plane zone, each with its own loopback address (127.0.1.11, 127.0.2.12, 127.0.3.13) and its instance and volumes on
// moto, claim the volumes, format and mount them (sparse image files standing in for the EBS devices, in
// a --device-dir; `mount` puts each on a loop device), and write the etcd manifests, certificates and the
// hosts file. Then Debian's etcd 3.4 runs each member with exactly the argv and files of its manifest,
// under `unshare -m` with the member's own hosts file bind-mounted on /etc/hosts so that the stable names
// (etcd-a.internal.<cluster>, …) resolve to the loopback addresses.
//
// How the manifest becomes an etcd process (each mapping is listed here; nothing else is changed):
//  1. argv[0] /usr/local/bin/etcd (the image's path) -> Debian's /usr/bin/etcd;
//  2. each flag value that is a path is read through the pod's volumes (container path -> hostPath),
//     under the member's --root, as kubelet would mount them;
//  3. the listen URLs' wildcard 0.0.0.0 -> the member's own loopback address: three members share one
//     host here, and the wildcard of one would take the port on every address. (Not a 3.4 gap.)
// The events members (ports 2381/4002, their own volumes) are started the same way, as a second cluster.
// etcd 3.4 accepts every other flag of the manifest as it is: no flag needed a 3.4 mapping.
//
// The client certificate is issued from etcd-clients-ca, as kube-apiserver's etcd client certificate is.

const NAME = 'etcd.example.com';
// One loopback address per member, each in its zone's subnet (moto checks an instance's address is in its subnet).
const IPS: Record<string, string> = { 'us-east-1a': '127.0.1.11', 'us-east-1b': '127.0.2.12', 'us-east-1c': '127.0.3.13' };
const MEMBER: Record<string, string> = { 'us-east-1a': 'a', 'us-east-1b': 'b', 'us-east-1c': 'c' };
let etcdBin: string;
let etcdctlBin: string;
let moto: MotoServer;
let work: string;
let ha: HaCluster;
let cp: MotoControlPlane;
let env: NodeJS.ProcessEnv;
const etcds = new Map<string, ChildProcess>();

jest.setTimeout(180_000);

beforeAll(async () => {
  etcdBin = ensureAptTool('etcd', 'etcd-server');
  etcdctlBin = ensureAptTool('etcdctl', 'etcd-client');
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
  moto = await startMotoServer();
  work = tempDir('kforge-protokube-etcd-');
  ha = await makeHaCluster(path.join(work, 'store'), NAME);
  cp = await makeMotoControlPlane(moto, ha, IPS);
  env = { ...moto.env, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' };
  // The "devices": one blank sparse image per volume (256 MiB: etcd preallocates 64 MiB of WAL), named as the by-id link of its NVMe device.
  fs.mkdirSync(path.join(work, 'dev'));
  for (const id of cp.volumes.values()) fs.writeFileSync(path.join(work, 'dev', `nvme-Amazon_Elastic_Block_Store_${id.replace('-', '')}`), '');
  for (const id of cp.volumes.values()) fs.truncateSync(path.join(work, 'dev', `nvme-Amazon_Elastic_Block_Store_${id.replace('-', '')}`), 256 * 1024 * 1024);
});

afterAll(async () => {
  for (const p of etcds.values()) p.kill('SIGKILL');
  cp?.ec2.destroy();
  await moto?.stop();
  if (work) {
    releaseMounts(work);
    fs.rmSync(work, { recursive: true, force: true });
  }
});

function protokube(zone: string): Promise<{ status: number; stdout: string; stderr: string }> {
  const root = path.join(work, `root-${MEMBER[zone]}`);
  const args = ['protokube', '--conf', ha.bootConfig(work, zone), '--once', '-o', 'json', '--root', root, '--device-dir', path.join(work, 'dev'), '--device-timeout', '5'];
  return runCliAsync([...args, '--instance-id', cp.instances.get(zone)?.id as string, '--zone', zone, '--internal-ip', IPS[zone]], env);
}

interface PodDoc {
  spec: { containers: { command: string[]; volumeMounts: { name: string; mountPath: string }[] }[]; volumes: { name: string; hostPath: { path: string } }[] };
}

/** The etcd argv of a member's manifest, with the three mappings of the header comment. */
function hostArgv(zone: string, etcdName: string): string[] {
  const root = path.join(work, `root-${MEMBER[zone]}`);
  const pod = yaml.load(fs.readFileSync(path.join(root, 'etc/kubernetes/manifests', `etcd-${etcdName}.manifest`), 'utf8')) as PodDoc;
  const c = pod.spec.containers[0];
  const hostPath = (p: string): string => {
    const m = c.volumeMounts.find((v) => p === v.mountPath || p.startsWith(`${v.mountPath}/`));
    const vol = m && pod.spec.volumes.find((v) => v.name === m.name);
    if (!m || !vol) throw new Error(`${p} is on no volume of the pod`);
    return path.join(root, vol.hostPath.path, p.slice(m.mountPath.length));
  };
  return c.command.slice(1).map((arg) => {
    const [flag, value] = [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)];
    if (value.startsWith('/')) return `${flag}=${hostPath(value)}`;
    if (flag.startsWith('--listen-')) return `${flag}=${value.replace('0.0.0.0', IPS[zone])}`;
    return arg;
  });
}

/** Runs `argv` in its own mount namespace where /etc/hosts is the member's hosts file. */
function inMemberNamespace(zone: string, argv: string[]): string[] {
  const hosts = path.join(work, `root-${MEMBER[zone]}`, 'etc', 'hosts');
  const quoted = argv.map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
  return ['unshare', '-m', 'sh', '-c', `mount --bind '${hosts}' /etc/hosts && exec ${quoted}`];
}

function etcdctl(zone: string, args: string[], etcdName = 'main'): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const client = path.join(work, 'client');
  const host = `${etcdName === 'main' ? 'etcd' : `etcd-${etcdName}`}-${MEMBER[zone]}.internal.${NAME}`;
  const argv = inMemberNamespace(zone, [
    etcdctlBin,
    `--endpoints=https://${host}:${etcdName === 'main' ? 4001 : 4002}`,
    `--cacert=${path.join(work, 'root-a/etc/kubernetes/pki/etcd-manager-main/etcd-clients-ca.crt')}`,
    `--cert=${client}.crt`,
    `--key=${client}.key`,
    '--dial-timeout=3s',
    '--command-timeout=5s',
    ...args,
  ]);
  return new Promise((resolve) => {
    const child = spawn(argv[0], argv.slice(1), { env: { ...process.env, ETCDCTL_API: '3' } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

/**
 * `endpoint health --cluster` until it passes for all three members (up to 60 s): a member that has just
 * joined has not published its client URL yet, and the command then checks only the others.
 */
async function clusterHealth(zone: string, etcdName: string): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const deadline = Date.now() + 60_000;
  const healthyCount = (r: { stdout: string; stderr: string }) => (r.stdout + r.stderr).split('\n').filter((l) => l.includes('is healthy')).length;
  let r = await etcdctl(zone, ['endpoint', 'health', '--cluster'], etcdName);
  while ((r.status !== 0 || healthyCount(r) < 3) && Date.now() < deadline) {
    await new Promise((done) => setTimeout(done, 1000));
    r = await etcdctl(zone, ['endpoint', 'health', '--cluster'], etcdName);
  }
  return r;
}

/** etcdctl, again up to 15 s while it fails (an election in progress); the last result either way. */
async function retried(zone: string, args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const deadline = Date.now() + 15_000;
  let r = await etcdctl(zone, args);
  while (r.status !== 0 && Date.now() < deadline) {
    await new Promise((done) => setTimeout(done, 500));
    r = await etcdctl(zone, args);
  }
  return r;
}

it('three protokube runs claim one member each, format and mount the volumes, and publish every name', async () => {
  const first = await Promise.all(HA_ZONES.map(protokube));
  for (const r of first) expect({ status: r.status, stderr: r.stderr }).toEqual({ status: 0, stderr: '' });
  const reports = first.map((r) => JSON.parse(r.stdout) as { members: { etcd: string; member: string; formatted: boolean }[] });
  for (const [i, zone] of HA_ZONES.entries()) {
    expect(reports[i].members.map((m) => [m.etcd, m.member, m.formatted])).toEqual([['main', MEMBER[zone], true], ['events', MEMBER[zone], true]]);
  }
  // A second pass sees every member attached: every hosts file names all of them; nothing is formatted again.
  const second = await Promise.all(HA_ZONES.map(protokube));
  for (const r of second) {
    expect(r.status).toBe(0);
    const report = JSON.parse(r.stdout) as { members: { formatted: boolean }[]; files: { action: string }[] };
    expect(report.members.map((m) => m.formatted)).toEqual([false, false]);
    expect(report.files.every((f) => f.action === 'unchanged')).toBe(true);
  }
  for (const zone of HA_ZONES) {
    const hosts = fs.readFileSync(path.join(work, `root-${MEMBER[zone]}`, 'etc', 'hosts'), 'utf8');
    for (const z of HA_ZONES) {
      expect(hosts).toContain(`${IPS[z]}\tetcd-${MEMBER[z]}.internal.${NAME}`);
      expect(hosts).toContain(`${IPS[z]}\tetcd-events-${MEMBER[z]}.internal.${NAME}`);
      // api.internal is nodeup's line in /etc/hosts without DNS, not protokube's.
      expect(hosts).not.toContain(`api.internal.${NAME}`);
      expect(hosts).not.toContain(`kops-controller.internal.${NAME}`);
    }
  }
});

it('etcd 3.4 started with the manifests’ argv forms one healthy cluster over TLS, and a write survives the loss of a member', async () => {
  const ca = ha.keyset('etcd-clients-ca').primary();
  const client = await issueKeypair({ subject: { commonName: 'kube-apiserver' }, usage: 'client', validityMs: 3600_000 }, ca);
  fs.writeFileSync(path.join(work, 'client.crt'), client.certificatePem);
  fs.writeFileSync(path.join(work, 'client.key'), client.privateKeyPem as string, { mode: 0o600 });
  for (const zone of HA_ZONES) {
    const log = fs.openSync(path.join(work, `etcd-${MEMBER[zone]}.log`), 'w');
    const argv = inMemberNamespace(zone, [etcdBin, ...hostArgv(zone, 'main')]);
    etcds.set(zone, spawn(argv[0], argv.slice(1), { stdio: ['ignore', log, log] }));
    fs.closeSync(log);
  }
  const logs = () => HA_ZONES.map((z) => `--- ${z}\n${fs.readFileSync(path.join(work, `etcd-${MEMBER[z]}.log`), 'utf8').slice(-1500)}`).join('\n');
  const health = await clusterHealth('us-east-1a', 'main');
  if (health.status !== 0) throw new Error(`cluster not healthy: ${health.stdout}${health.stderr}\n${logs()}`);
  // One line per member, each reached by its stable name on its own address.
  const healthy = (health.stdout + health.stderr).split('\n').filter((l) => l.includes('is healthy'));
  expect(healthy.map((l) => l.split(' ')[0]).sort()).toEqual(HA_ZONES.map((z) => `https://etcd-${MEMBER[z]}.internal.${NAME}:4001`));
  const members = await etcdctl('us-east-1b', ['member', 'list', '-w', 'simple']);
  expect(members.stdout.trim().split('\n')).toHaveLength(3);

  expect(await retried('us-east-1a', ['put', '/kforge/test', 'survives'])).toMatchObject({ status: 0 });
  const lost = etcds.get('us-east-1c') as ChildProcess;
  const exited = new Promise((r) => lost.once('exit', r));
  lost.kill('SIGKILL');
  await exited;
  // If the lost member led, the other two elect a new leader first (about a second): reads and writes retry.
  expect((await retried('us-east-1b', ['get', '/kforge/test', '--print-value-only'])).stdout.trim()).toBe('survives');
  // Two of three members are a quorum: writes still succeed.
  expect(await retried('us-east-1a', ['put', '/kforge/after', 'loss'])).toMatchObject({ status: 0 });
  expect((await retried('us-east-1b', ['get', '/kforge/after', '--print-value-only'])).stdout.trim()).toBe('loss');
});

it('the events members, on their own ports and volumes, form a second healthy cluster', async () => {
  for (const zone of HA_ZONES) {
    const log = fs.openSync(path.join(work, `etcd-events-${MEMBER[zone]}.log`), 'w');
    const argv = inMemberNamespace(zone, [etcdBin, ...hostArgv(zone, 'events')]);
    etcds.set(`events-${zone}`, spawn(argv[0], argv.slice(1), { stdio: ['ignore', log, log] }));
    fs.closeSync(log);
  }
  const health = await clusterHealth('us-east-1b', 'events');
  const logs = HA_ZONES.map((z) => `--- ${z}\n${fs.readFileSync(path.join(work, `etcd-events-${MEMBER[z]}.log`), 'utf8').slice(-1500)}`).join('\n');
  if (health.status !== 0) throw new Error(`events cluster not healthy: ${health.stdout}${health.stderr}\n${logs}`);
  const healthy = (health.stdout + health.stderr).split('\n').filter((l) => l.includes('is healthy'));
  expect(healthy.map((l) => l.split(' ')[0]).sort()).toEqual(HA_ZONES.map((z) => `https://etcd-events-${MEMBER[z]}.internal.${NAME}:4002`));
  // A separate cluster: main's key is not there.
  expect((await etcdctl('us-east-1b', ['get', '/kforge/test', '--print-value-only'], 'events')).stdout.trim()).toBe('');
});
