import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import * as yaml from 'js-yaml';
import { StopInstancesCommand, EC2Client } from '@aws-sdk/client-ec2';
import { validateCluster, ValidateClusterOptions } from '../../src/ops/validate-cluster';
import { issueKeypair } from '../../src/pki/issue-keypair';
import type { Keypair } from '../../src/pki/keypair';
import { adminSubject } from '../../src/pki/cluster-pki';
import { kubePod } from '../fakes/kube/kube-objects';
import { startBlackHole } from '../helpers/black-hole-listener';
import { tempDir } from '../helpers/cli';
import { MOTO_WITH_DEFAULT_IMAGE, MotoServer, startMotoServer } from '../helpers/moto-server';
import { CREDENTIALS, setUpValidateFixture, ValidateFixture } from '../helpers/validate-cluster-setup';

let moto: MotoServer;
let f: ValidateFixture;
const DAY = 24 * 3600 * 1000;

beforeAll(async () => {
  moto = await startMotoServer({ env: MOTO_WITH_DEFAULT_IMAGE });
  f = await setUpValidateFixture(moto.endpoint, 'v.example.com', 2);
});
afterAll(async () => {
  await f?.stop();
  await moto?.stop();
});
beforeEach(() => {
  f.healthy();
  f.api.resetRequests();
});

/** Options of a run against the fake with the state store's in-memory admin credential (no kubeconfig exists). */
const opts = (extra: Partial<ValidateClusterOptions> = {}): ValidateClusterOptions => ({
  cluster: f.name,
  server: `https://127.0.0.1:${f.api.port}`,
  env: { ...f.env, KUBECONFIG: path.join(tempDir(), 'none') },
  credentials: CREDENTIALS,
  timeoutMs: 5000,
  ...extra,
});

function kubeconfig(o: { server: string; ca: Keypair; client: Keypair }): string {
  const file = path.join(tempDir(), 'kubeconfig');
  const b64 = (s: string): string => Buffer.from(s).toString('base64');
  fs.writeFileSync(
    file,
    yaml.dump({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [{ name: f.name, cluster: { server: o.server, 'certificate-authority-data': b64(o.ca.certificatePem) } }],
      users: [{ name: 'u', user: { 'client-certificate-data': b64(o.client.certificatePem), 'client-key-data': b64(o.client.privateKeyPem as string) } }],
      contexts: [{ name: f.name, context: { cluster: f.name, user: 'u' } }],
      'current-context': f.name,
    }),
  );
  return file;
}

test('a healthy cluster is valid, with an admin credential issued in memory, in three Kubernetes API calls (nodes, pods, and the namespaces holding the addon versions)', async () => {
  const r = await validateCluster(f.vfs, opts());
  expect(r.result.failures).toEqual([]);
  expect(r.valid).toBe(true);
  expect(r.credentials).toBe('an admin certificate issued in memory from the state store');
  expect(r.result.nodes.map((n) => [n.role, n.ready])).toEqual([['control-plane', true], ['node', true], ['node', true]]);
  expect(f.api.requestCounts()).toEqual({ 'list /api/v1/namespaces': 1, 'list /api/v1/nodes': 1, 'list /api/v1/pods': 1 });
  expect(f.api.requests.every((q) => q.user?.startsWith('kubecfg-'))).toBe(true);
});

test("with a bootstrap channel in the store, each addon protokube has not recorded at the channel's version fails validation (one more call)", async () => {
  const dir = path.join(f.store, f.name, 'addons');
  const channel = { kind: 'Addons', metadata: { name: 'bootstrap' }, spec: { addons: [
    { name: 'coredns.addons.k8s.io', id: 'k8s-1.12', manifest: 'coredns.addons.k8s.io/k8s-1.12.yaml', manifestHash: 'a'.repeat(64), selector: { 'k8s-addon': 'coredns.addons.k8s.io' } },
    { name: 'limit-range.addons.k8s.io', manifest: 'limit-range.addons.k8s.io/v1.5.0.yaml', manifestHash: 'b'.repeat(64), selector: { 'k8s-addon': 'limit-range.addons.k8s.io' } },
  ] } };
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'bootstrap-channel.yaml'), yaml.dump(channel));
  try {
    // coredns recorded at an older hash (kops's JSON, as protokube writes it); limit-range not at all.
    const ns = f.api.store.get('namespaces', 'kube-system');
    f.api.store.put('namespaces', { ...ns, metadata: { ...ns.metadata, annotations: { 'addons.k8s.io/coredns.addons.k8s.io': JSON.stringify({ id: 'k8s-1.12', manifestHash: 'c'.repeat(64), systemGeneration: 1 }) } } });
    const r = await validateCluster(f.vfs, opts());
    expect(r.valid).toBe(false);
    expect(r.result.failures).toEqual([
      { kind: 'Addon', name: 'coredns.addons.k8s.io', message: "addon coredns.addons.k8s.io is not applied at the channel's version (manifest hash aaaaaaaaaaaa)", cause: 'the cluster has manifest hash cccccccccccc: protokube has not applied the change yet' },
      { kind: 'Addon', name: 'limit-range.addons.k8s.io', message: "addon limit-range.addons.k8s.io is not applied at the channel's version (manifest hash bbbbbbbbbbbb)", cause: 'not installed yet: protokube applies the bootstrap channel on the control plane' },
    ]);
    f.healthy();
    f.api.resetRequests();
    const ok = await validateCluster(f.vfs, opts());
    expect([ok.valid, ok.result.failures]).toEqual([true, []]);
    expect(f.api.requestCounts()).toEqual({ 'list /api/v1/namespaces': 1, 'list /api/v1/nodes': 1, 'list /api/v1/pods': 1 });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test("the current kubeconfig context is used when it is the cluster's; another cluster's is not", async () => {
  const admin = await issueKeypair({ subject: adminSubject('ctx'), usage: 'client', validityMs: DAY }, f.ca);
  const file = kubeconfig({ server: `https://localhost:${f.api.port}`, ca: f.ca, client: admin });
  const mine = await validateCluster(f.vfs, opts({ env: { ...f.env, KUBECONFIG: file } }));
  expect(mine).toMatchObject({ valid: true, credentials: `kubeconfig ${file} context ${f.name}` });
  expect(f.api.requests.every((q) => q.user === 'kubecfg-ctx')).toBe(true);
  const other = path.join(tempDir(), 'other');
  fs.writeFileSync(other, fs.readFileSync(file, 'utf8').replaceAll(f.name, 'other.example.com'));
  const issued = await validateCluster(f.vfs, opts({ env: { ...f.env, KUBECONFIG: other } }));
  expect(issued.credentials).toBe('an admin certificate issued in memory from the state store');
});

test('a machine that never joins is reported with its instance group and the cause found for it', async () => {
  const node = f.instances.find((i) => i.role === 'node') as ValidateFixture['instances'][number];
  f.api.store.delete('nodes', `node-${node.id}`, undefined);
  const r = await validateCluster(f.vfs, opts());
  expect(r.valid).toBe(false);
  expect(r.result.failures).toEqual([
    // moto's GetConsoleOutput is fixed text without a stage (the parser is tested on recorded consoles).
    { kind: 'Machine', name: node.id, instanceGroup: node.instanceGroup, message: `machine ${node.id} of instance group "${node.instanceGroup}" has not registered as a node`, cause: expect.stringMatching(/^no nodeup stage on the console yet/) },
  ]);
  expect(r.cloudCalls.GetConsoleOutput).toBe(1);
});

test('a stopped machine that never joined says so', async () => {
  const ec2 = new EC2Client({ region: 'us-east-1', endpoint: moto.endpoint, credentials: CREDENTIALS });
  const node = f.instances.filter((i) => i.role === 'node')[1];
  f.api.store.delete('nodes', `node-${node.id}`, undefined);
  await ec2.send(new StopInstancesCommand({ InstanceIds: [node.id] }));
  try {
    const r = await validateCluster(f.vfs, opts());
    const machine = r.result.failures.find((x) => x.kind === 'Machine');
    expect(machine).toMatchObject({ name: node.id, cause: expect.stringMatching(/^instance is stopped/) });
  } finally {
    const { StartInstancesCommand } = await import('@aws-sdk/client-ec2');
    await ec2.send(new StartInstancesCommand({ InstanceIds: [node.id] }));
    ec2.destroy();
  }
});

test('a NotReady node shows its condition reason and message', async () => {
  const node = f.instances.find((i) => i.role === 'node') as ValidateFixture['instances'][number];
  const n = f.api.store.get('nodes', `node-${node.id}`);
  n.status.conditions = n.status.conditions.map((c: { type: string }) => (c.type === 'Ready' ? { ...c, status: 'False', reason: 'KubeletNotReady', message: 'container runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: cni plugin not initialized' } : c));
  f.api.store.put('nodes', n);
  const r = await validateCluster(f.vfs, opts());
  expect(r.result.failures).toEqual([
    { kind: 'Node', name: `node-${node.id}`, instanceGroup: node.instanceGroup, message: expect.stringContaining('is not Ready: container runtime network not ready'), cause: 'KubeletNotReady' },
  ]);
});

test('a missing control-plane pod and an unready system-critical pod are named, with the waiting reason', async () => {
  const cp = f.instances.find((i) => i.role === 'control-plane') as ValidateFixture['instances'][number];
  f.api.store.delete('pods', `kube-scheduler-node-${cp.id}`, 'kube-system');
  f.api.store.put('pods', kubePod('coredns-abc', { namespace: 'kube-system', nodeName: `node-${cp.id}`, priorityClassName: 'system-cluster-critical', waiting: { reason: 'CrashLoopBackOff', message: 'back-off 5m0s restarting failed container', restartCount: 7 } }));
  f.api.store.put('pods', kubePod('cilium-operator-x', { namespace: 'kube-system', priorityClassName: 'system-cluster-critical', unschedulable: '0/3 nodes are available: 3 node(s) didn\'t match pod anti-affinity rules.' }));
  const r = await validateCluster(f.vfs, opts());
  expect(r.result.failures.map((x) => [x.kind, x.name, x.cause])).toEqual([
    ['ControlPlanePod', `kube-system/kube-scheduler-node-${cp.id}`, 'no pod'],
    ['Pod', 'kube-system/cilium-operator-x', 'Unschedulable'],
    ['Pod', 'kube-system/coredns-abc', 'CrashLoopBackOff'],
  ]);
  expect(r.result.failures[2].message).toContain('restarted 7 times');
  expect(r.result.failures[1].message).toContain("didn't match pod anti-affinity rules");
});

describe('an unreachable API says which step failed', () => {
  const apiFailure = async (o: Partial<ValidateClusterOptions>): Promise<{ cause?: string; message: string }> => {
    const r = await validateCluster(f.vfs, opts(o));
    expect(r.valid).toBe(false);
    const api = r.result.failures.filter((x) => x.kind === 'API');
    expect(api).toHaveLength(1);
    // Without the API no machine can be called unregistered.
    expect(r.result.failures.some((x) => x.kind === 'Machine')).toBe(false);
    return api[0];
  };

  test('the name does not resolve', async () => {
    // The system resolver's answer for a name with no record (getaddrinfo ENOTFOUND), without leaving loopback.
    const lookup = async (host: string): Promise<{ address: string }> => {
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND', syscall: 'getaddrinfo', hostname: host });
    };
    const a = await apiFailure({ server: `https://api.${f.name}`, lookup });
    expect(a.cause).toBe('dns');
    expect(a.message).toContain(`the API name api.${f.name} does not resolve`);
  });

  test('TCP gets no answer (dropped), or is refused', async () => {
    const hole = await startBlackHole();
    try {
      const a = await apiFailure({ server: `https://127.0.0.1:${hole.port}`, timeoutMs: 300 });
      expect(a.cause).toBe('tcp');
      expect(a.message).toContain('got no answer in 300 ms');
    } finally {
      await hole.stop();
    }
    const closed = await new Promise<number>((resolve) => {
      const s = net.createServer().listen(0, '127.0.0.1', () => {
        const port = (s.address() as net.AddressInfo).port;
        s.close(() => resolve(port));
      });
    });
    const refused = await apiFailure({ server: `https://127.0.0.1:${closed}` });
    expect(refused.cause).toBe('tcp');
    expect(refused.message).toContain('ECONNREFUSED');
  });

  test('TLS fails: wrong CA, and a serving certificate without the name (SAN)', async () => {
    const admin = await issueKeypair({ subject: adminSubject('t'), usage: 'client', validityMs: DAY }, f.ca);
    const otherCa = await issueKeypair({ subject: { commonName: 'kubernetes-ca' }, usage: 'ca', validityMs: DAY });
    const wrongCa = await apiFailure({ kubeconfig: kubeconfig({ server: `https://127.0.0.1:${f.api.port}`, ca: otherCa, client: admin }) });
    expect(wrongCa).toMatchObject({ cause: 'tls', message: expect.stringContaining('wrong CA') });
    // The fake's certificate names localhost, api.<cluster> and 127.0.0.1, not this name.
    const lookup = async (): Promise<{ address: string }> => ({ address: '127.0.0.1' });
    const wrongSan = await apiFailure({ kubeconfig: kubeconfig({ server: `https://elsewhere.example.com:${f.api.port}`, ca: f.ca, client: admin }), lookup });
    expect(wrongSan).toMatchObject({ cause: 'tls', message: expect.stringContaining('does not name elsewhere.example.com') });
  });

  test('401 for a client certificate from another CA, 403 for a user without rights', async () => {
    const otherCa = await issueKeypair({ subject: { commonName: 'kubernetes-ca' }, usage: 'ca', validityMs: DAY });
    const foreign = await issueKeypair({ subject: adminSubject('t'), usage: 'client', validityMs: DAY }, otherCa);
    const a401 = await apiFailure({ kubeconfig: kubeconfig({ server: `https://127.0.0.1:${f.api.port}`, ca: f.ca, client: foreign }) });
    expect(a401).toMatchObject({ cause: 'auth', message: expect.stringContaining('401 Unauthorized') });
    const nobody = await issueKeypair({ subject: { commonName: 'nobody' }, usage: 'client', validityMs: DAY }, f.ca);
    const a403 = await apiFailure({ kubeconfig: kubeconfig({ server: `https://127.0.0.1:${f.api.port}`, ca: f.ca, client: nobody }) });
    expect(a403).toMatchObject({ cause: 'auth', message: expect.stringContaining('User "nobody" cannot list resource "nodes"') });
  });
});

test('--count 3 with --wait: a failure after successes resets the count; the run ends valid after three in a row', async () => {
  const node = f.instances.find((i) => i.role === 'node') as ValidateFixture['instances'][number];
  let lists = 0;
  // Pass 3 sees the node NotReady (a flap); passes 1-2 and 4-6 see it Ready.
  f.api.onRequest = (q) => {
    if (q.verb !== 'list' || q.path !== '/api/v1/nodes') return;
    lists++;
    const n = f.api.store.get('nodes', `node-${node.id}`);
    const status = lists === 3 ? 'False' : 'True';
    n.status.conditions = n.status.conditions.map((c: { type: string }) => (c.type === 'Ready' ? { ...c, status } : c));
    f.api.store.put('nodes', n);
  };
  const seen: Array<[boolean, number]> = [];
  try {
    const r = await validateCluster(f.vfs, opts({ waitMs: 60_000, intervalMs: 1, count: 3, onPass: (p) => seen.push([p.result.valid, p.successes]) }));
    expect(seen).toEqual([[true, 1], [true, 2], [false, 0], [true, 1], [true, 2], [true, 3]]);
    expect(r).toMatchObject({ valid: true, passes: 6, timedOut: false });
    // Each pass lists nodes and pods once.
    expect(r.kubeCalls).toEqual({ 'list nodes': 6, 'list pods': 6 });
  } finally {
    f.api.onRequest = undefined;
  }
});

test('without --wait the first invalid pass is the verdict (as kops)', async () => {
  f.api.store.delete('pods', 'coredns-abc', 'kube-system');
  f.api.store.put('pods', kubePod('coredns-abc', { namespace: 'kube-system', priorityClassName: 'system-cluster-critical', phase: 'Pending' }));
  const r = await validateCluster(f.vfs, opts({ count: 3, intervalMs: 1 }));
  expect(r).toMatchObject({ valid: false, passes: 1, timedOut: false });
});

test('get instances: an instance from an older launch-template version, or a node annotated needs-update, needs an update', async () => {
  const { getInstances } = await import('../../src/ops/get-instances');
  const { CreateLaunchTemplateVersionCommand, DescribeLaunchTemplatesCommand } = await import('@aws-sdk/client-ec2');
  const base = { cluster: f.name, server: `https://127.0.0.1:${f.api.port}`, env: { ...f.env, KUBECONFIG: path.join(tempDir(), 'none') }, credentials: CREDENTIALS };
  const before = await getInstances(f.vfs, base);
  expect(before.apiProblem).toBeUndefined();
  expect(before.rows.every((r) => !r.needsUpdate && r.ready === true)).toBe(true);
  const node = f.instances.find((i) => i.role === 'node') as ValidateFixture['instances'][number];
  const n = f.api.store.get('nodes', `node-${node.id}`);
  n.metadata.annotations = { 'kops.k8s.io/needs-update': '' };
  f.api.store.put('nodes', n);
  const ec2 = new EC2Client({ region: 'us-east-1', endpoint: moto.endpoint, credentials: CREDENTIALS });
  try {
    const templates = await ec2.send(new DescribeLaunchTemplatesCommand({ Filters: [{ Name: 'tag:kops.k8s.io/instancegroup', Values: [node.instanceGroup] }] }));
    const name = templates.LaunchTemplates?.[0]?.LaunchTemplateName as string;
    await ec2.send(new CreateLaunchTemplateVersionCommand({ LaunchTemplateName: name, LaunchTemplateData: { InstanceType: 't3.large' } }));
  } finally {
    ec2.destroy();
  }
  const after = await getInstances(f.vfs, base);
  const row = after.rows.find((r) => r.id === node.id);
  expect(row?.needsUpdate).toBe(true);
  expect(row?.updateReasons).toEqual(expect.arrayContaining(['node annotated kops.k8s.io/needs-update']));
  const sameGroup = after.rows.filter((r) => r.instanceGroup === node.instanceGroup && r.id !== node.id);
  // Launched from version 1 while the group's $Latest is now 2.
  for (const r of sameGroup) expect(r.updateReasons).toEqual(['launch template version 1, group\'s is 2']);
  expect(after.rows.filter((r) => r.role === 'control-plane').every((r) => !r.needsUpdate)).toBe(true);
});
