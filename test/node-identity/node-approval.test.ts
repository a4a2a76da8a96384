import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as yaml from 'js-yaml';
import type { NodeupConfig } from '../../src/model/nodeup-config-builder';
import { nodeRequestPrefix } from '../../src/node-identity/node-request-record';
import { createCluster } from '../../src/ops/create-cluster';
import { planManagedFiles, writeManagedFiles } from '../../src/ops/plan-managed-files';
import { KeysetYaml } from '../../src/pki/keyset-yaml';
import { LockOptions, withClusterLocks } from '../../src/state/lock/cluster-lock';
import { StatePaths } from '../../src/state/state-paths';
import { openVfs } from '../../src/state/vfs/open-vfs';
import { expectCleanFailure, runCli, runCliAsync, startCli, tempDir, treeDigest } from '../helpers/cli';
import { MOTO_WITH_DEFAULT_IMAGE, MotoServer, startMotoServer } from '../helpers/moto-server';
import { bootstrapBody, opensslSubject, opensslVerify, post } from './node-identity-helpers';
import { KopsControllerProcess, startKopsController } from './kops-controller-process';

// The approval queue with real processes: a store made by the real pipeline with spec.nodeIdentity.mode
// Approval, `kforge kops-controller` started from the control plane's boot config (moto answers the one STS
// call it makes at start, for its own account), `kforge nodeup` on a worker with the config `update`
// wrote for it (no cloud credentials at all: a bare-metal machine), and the operator's commands.

const LOCK: LockOptions = { command: 'kforge test', ttlSeconds: 60, warn: () => undefined };
const NAME = 'approve.k8s.local';
const ZONE = 'us-east-1a';
const GROUP = `nodes-${ZONE}`;
jest.setTimeout(180_000);

let moto: MotoServer;
let store: string;
let controller: KopsControllerProcess | undefined;
/** What the service printed so far. */
const log = (): string => controller?.output() ?? '';
let port: number;
let kubernetesCa: string;
let controllerCa: string;
let workerConfig: NodeupConfig;
const dirs: string[] = [];
const servername = `kops-controller.internal.${NAME}`;

beforeAll(async () => {
  moto = await startMotoServer({ env: MOTO_WITH_DEFAULT_IMAGE });
  store = tempDir('kforge-na-store-');
  dirs.push(store);
  const vfs = openVfs(store);
  await createCluster(vfs, { name: NAME, zones: [ZONE], networking: 'calico' }, ['spec.nodeIdentity.mode=Approval'], undefined, LOCK);
  await writeManagedFiles(vfs, await planManagedFiles(vfs, NAME));
  const cpConfig = yaml.load(fs.readFileSync(path.join(store, StatePaths.nodeupConfig(NAME, 'ControlPlane', `control-plane-${ZONE}`)), 'utf8')) as NodeupConfig;
  workerConfig = yaml.load(fs.readFileSync(path.join(store, StatePaths.nodeupConfig(NAME, 'Node', GROUP)), 'utf8')) as NodeupConfig;
  const boot = path.join(store, 'kube_env.yaml');
  fs.writeFileSync(boot, yaml.dump({ CloudProvider: 'aws', ClusterName: NAME, ConfigBase: cpConfig.ConfigBase, InstanceGroupName: `control-plane-${ZONE}`, InstanceGroupRole: 'ControlPlane', NodeupConfigHash: '0'.repeat(64) }));
  kubernetesCa = KeysetYaml.parse(fs.readFileSync(path.join(store, StatePaths.issuedKeyset(NAME, 'kubernetes-ca'))), 'kubernetes-ca', 'kubernetes-ca').primary().certificatePem;
  controllerCa = KeysetYaml.parse(fs.readFileSync(path.join(store, StatePaths.issuedKeyset(NAME, 'kops-controller-ca'))), 'kops-controller-ca', 'kops-controller-ca').primary().certificatePem;
  controller = await startKopsController(boot, ['--sts-endpoint', moto.endpoint], moto.env);
  port = controller.port;
});

afterAll(async () => {
  controller?.stop();
  await moto?.stop();
  for (const d of dirs) {
    fs.rmSync(d, { recursive: true, force: true });
    fs.rmSync(`${d}.console`, { force: true });
  }
});

const cli = (args: string[]) => runCli([...args, '--state', store]);
const cliAsync = (args: string[]) => runCliAsync([...args, '--state', store]);

/** The worker's stored config, pointed at the service's loopback address, kubelet named `nodeName`. */
function workerConf(nodeName: string): string {
  const config = {
    ...workerConfig,
    ConfigServer: { ...workerConfig.ConfigServer, Servers: [`https://127.0.0.1:${port}`] },
    ComponentFlags: { ...workerConfig.ComponentFlags, kubelet: [...workerConfig.ComponentFlags.kubelet, `--hostname-override=${nodeName}`] },
  };
  const d = tempDir('kforge-na-conf-');
  dirs.push(d);
  const file = path.join(d, 'nodeupconfig.yaml');
  fs.writeFileSync(file, yaml.dump(config));
  return file;
}

/** nodeup on a machine with no cloud identity (no AWS credentials, no metadata service), polling every 200 ms. */
function startNodeup(nodeName: string): { root: string; run: ReturnType<typeof startCli> } {
  const root = tempDir('kforge-na-root-');
  dirs.push(root);
  const run = startCli(['nodeup', '--conf', workerConf(nodeName), '--root', root], {
    KFORGE_TEST_APPROVAL_POLL_MS: '200',
    // The machine's console (EC2's GetConsoleOutput shows it), outside the root.
    KFORGE_NODEUP_CONSOLE: `${root}.console`,
    AWS_EC2_METADATA_DISABLED: 'true',
    AWS_ACCESS_KEY_ID: '',
    AWS_SECRET_ACCESS_KEY: '',
    AWS_PROFILE: '',
    AWS_ENDPOINT_URL: '',
  });
  return { root, run };
}

async function until(what: () => boolean, label: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!what() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  if (!what()) throw new Error(`timed out waiting for ${label}; service log:\n${log()}`);
}

interface Row {
  name: string;
  nodeName: string;
  status: string;
  fingerprints: Record<string, string>;
  source: string;
  created: string;
}

async function pendingFor(nodeName: string): Promise<Row> {
  await until(() => log().includes(`for node ${nodeName} (`) && / 202 pending: /.test(log()), `${nodeName} pending`);
  const r = await cliAsync(['get', 'node-requests', NAME, '-o', 'json']);
  expect(r.status).toBe(0);
  const row = (JSON.parse(r.stdout) as Row[]).find((x) => x.nodeName === nodeName);
  if (!row) throw new Error(`${nodeName} not listed: ${r.stdout}`);
  return row;
}

function kubeconfigCert(file: string): string {
  const doc = yaml.load(fs.readFileSync(file, 'utf8')) as { users: Array<{ user: Record<string, string> }> };
  return Buffer.from(doc.users[0].user['client-certificate-data'], 'base64').toString();
}

/** openssl's sha256 of a certificate's DER public key: what `get node-requests` calls its fingerprint. */
function opensslFingerprint(certPem: string): string {
  const pub = execFileSync('openssl', ['x509', '-pubkey', '-noout'], { input: certPem });
  const der = execFileSync('openssl', ['pkey', '-pubin', '-outform', 'DER'], { input: pub });
  return `sha256:${/([0-9a-f]{64})/.exec(execFileSync('openssl', ['dgst', '-sha256'], { input: der, encoding: 'utf8' }))?.[1]}`;
}

test('update writes the workers a ConfigServer in Approval mode, and get nodeup-config (the bare-metal path) prints it', () => {
  expect(workerConfig.ConfigServer).toEqual({ Servers: [`https://kops-controller.internal.${NAME}:3988`], CACertificates: controllerCa, Region: 'us-east-1', Approval: true });
  const r = cli(['get', 'nodeup-config', NAME, '--instance-group', GROUP, '-o', 'json']);
  expect(r.status).toBe(0);
  expect((JSON.parse(r.stdout) as NodeupConfig).ConfigServer?.Approval).toBe(true);
  const cp = yaml.load(fs.readFileSync(path.join(store, StatePaths.nodeupConfig(NAME, 'ControlPlane', `control-plane-${ZONE}`)), 'utf8')) as NodeupConfig;
  expect(cp.ConfigServer).toBeUndefined();
});

test('pending, listed with its fingerprints, approved: the node gets certificates for exactly its claimed name', async () => {
  const node = 'metal-1.example.com';
  const { root, run } = startNodeup(node);
  const row = await pendingFor(node);
  expect(row).toMatchObject({ status: 'Pending', source: '127.0.0.1' });
  expect(log()).toContain(`mode Approval: requests wait in file://${store}/${NAME}/node-requests/`);
  expect(row.name).toMatch(/^metal-1\.example\.com-[0-9a-f]{16}$/);
  expect(Object.keys(row.fingerprints)).toEqual(['kube-proxy', 'kubelet']);
  // The node prints the same fingerprints and the command to run; the table shows name, node, fingerprints, source, age.
  const table = await cliAsync(['get', 'node-requests', NAME]);
  expect(table.stdout.split('\n')[0]).toMatch(/^NAME\s+NODE\s+FINGERPRINTS\s+SOURCE\s+AGE$/);
  expect(table.stdout).toContain(`kubelet=${row.fingerprints.kubelet}`);
  // Nothing secret in the queue.
  const recorded = fs.readFileSync(path.join(store, nodeRequestPrefix(NAME), row.name), 'utf8');
  expect(recorded).not.toMatch(/PRIVATE KEY/);

  const approve = await cliAsync(['approve', 'node-request', row.name, '--name', NAME]);
  expect({ status: approve.status, stderr: approve.stderr }).toMatchObject({ status: 0 });
  expect(approve.stdout).toContain(`Node request ${row.name} (node ${node}) approved`);
  const r = await run.done;
  expect({ status: r.status, stderr: r.stderr }).toMatchObject({ status: 0 });
  expect(r.stderr).toContain(`kforge-nodeup: node request ${row.name} for node ${node} (kube-proxy ${row.fingerprints['kube-proxy']}, kubelet ${row.fingerprints.kubelet}) is pending`);
  expect(r.stderr).toContain(`"kforge approve node-request ${row.name}"`);
  expect(fs.readFileSync(`${root}.console`, 'utf8')).toContain(`kforge-nodeup: node request ${row.name} for node ${node} (kube-proxy ${row.fingerprints['kube-proxy']}, kubelet ${row.fingerprints.kubelet}) is pending`);
  const kubelet = kubeconfigCert(path.join(root, 'var/lib/kubelet/kubeconfig'));
  expect(opensslVerify(kubernetesCa, [kubelet]).status).toBe(0);
  expect(opensslSubject(kubelet)).toBe(`subject=CN=system:node:${node},O=system:nodes`);
  expect(opensslFingerprint(kubelet)).toBe(row.fingerprints.kubelet);
  const proxy = kubeconfigCert(path.join(root, 'var/lib/kube-proxy/kubeconfig'));
  expect(opensslSubject(proxy)).toBe('subject=CN=system:kube-proxy');
  expect(opensslFingerprint(proxy)).toBe(row.fingerprints['kube-proxy']);
  await until(() => log().includes(`200 issued kube-proxy, kubelet for node ${node} (request ${row.name}, approved by `), 'the issue line');
  // Approved requests leave the default listing; --all shows them.
  expect(JSON.parse((await cliAsync(['get', 'node-requests', NAME, '-o', 'json'])).stdout)).toEqual([]);
  const all = JSON.parse((await cliAsync(['get', 'node-requests', NAME, '--all', '-o', 'json'])).stdout) as Row[];
  expect(all.find((x) => x.name === row.name)?.status).toBe('Approved');

  // The approved name with other keys, and the approved keys under another name: refused, one log line each.
  const other = bootstrapBody(node, ['kubelet']);
  const again = await post(port, controllerCa, other.body, undefined, servername);
  expect(again).toEqual({ status: 403, body: JSON.stringify({ error: 'failed to verify the request' }) });
  await until(() => log().includes(`403 denied: node name ${node} is already approved for request ${row.name}, with other keys`), 'name refusal');
  const pem = execFileSync('openssl', ['x509', '-pubkey', '-noout'], { input: kubelet, encoding: 'utf8' });
  const stolen = JSON.stringify({ apiVersion: 'bootstrap.kops.k8s.io/v1alpha1', nodeName: 'metal-9.example.com', certs: { kubelet: pem } });
  expect((await post(port, controllerCa, stolen, undefined, servername)).status).toBe(403);
  await until(() => log().includes(`403 denied: a key of this request (${row.fingerprints.kubelet}) is already approved for node ${node}`), 'key refusal');
  expect(fs.readdirSync(path.join(store, nodeRequestPrefix(NAME))).filter((f) => f.startsWith('metal-9'))).toEqual([]);
});

test('pending, denied: nodeup fails with NODE_REQUEST_DENIED and writes no kubeconfig; approving it later is refused', async () => {
  const node = 'metal-2.example.com';
  const { root, run } = startNodeup(node);
  const row = await pendingFor(node);
  const deny = await cliAsync(['deny', 'node-request', row.name, '--name', NAME]);
  expect(deny.status).toBe(0);
  const r = await run.done;
  expect(r.status).toBe(1);
  expect(r.stderr).toContain('kforge-nodeup-stage: failed: NODE_REQUEST_DENIED');
  expect(r.stderr).toMatch(/^Error: https:\/\/127\.0\.0\.1:\d+ says node metal-2\.example\.com's request was denied by an operator/m);
  expect(r.stderr).not.toMatch(/\n\s+at /);
  expect(fs.existsSync(path.join(root, 'var/lib/kubelet/kubeconfig'))).toBe(false);
  expect(log()).toMatch(new RegExp(`403 denied: request ${row.name.replace(/\./g, '\\.')} for node metal-2\\.example\\.com was denied by \\S+@\\S+ at `));
  const before = treeDigest(store);
  const late = cli(['approve', 'node-request', row.name, '--name', NAME]);
  expectCleanFailure(late);
  expect(late.stderr).toContain(`node request "${row.name}" was denied`);
  expect(treeDigest(store)).toBe(before);
});

test('approving or denying an unknown request is NOT_FOUND, a malformed name a usage error; the store is unchanged', () => {
  const before = treeDigest(store);
  for (const verb of ['approve', 'deny']) {
    const r = cli([verb, 'node-request', 'metal-7.example.com-0123456789abcdef', '--name', NAME]);
    expectCleanFailure(r);
    expect(r.stderr).toContain('Error: node request "metal-7.example.com-0123456789abcdef" not found in cluster "approve.k8s.local"');
  }
  const bad = cli(['approve', 'node-request', '../config', '--name', NAME]);
  expectCleanFailure(bad);
  expect(bad.stderr).toContain('"../config" is not a node request name');
  const cluster = cli(['approve', 'node-request', 'metal-7.example.com-0123456789abcdef', '--name', 'nope.k8s.local']);
  expectCleanFailure(cluster);
  expect(cluster.stderr).toContain('cluster "nope.k8s.local" not found');
  expect(treeDigest(store)).toBe(before);
});

test('approve takes the cluster lock: while another command holds it, approving is LOCKED and changes nothing', async () => {
  const node = 'metal-4.example.com';
  const request = bootstrapBody(node, ['kubelet']).body;
  const name = (JSON.parse((await post(port, controllerCa, request, undefined, servername)).body) as { name: string }).name;
  await withClusterLocks(openVfs(store), [NAME], LOCK, async () => {
    const before = treeDigest(store);
    const r = cli(['approve', 'node-request', name, '--name', NAME]);
    expectCleanFailure(r);
    expect(r.stderr).toContain(`cluster "${NAME}" is locked by `);
    expect(treeDigest(store)).toBe(before);
  });
  expect((await post(port, controllerCa, request, undefined, servername)).status).toBe(202);
});

test('concurrent requests: 20 nodes at once are all pending, each once; 10 copies of one request make one record', async () => {
  const bodies = Array.from({ length: 20 }, (_, i) => bootstrapBody(`burst-${i}.example.com`, ['kubelet']).body);
  const answers = await Promise.all(bodies.map((b) => post(port, controllerCa, b, undefined, servername)));
  expect(answers.map((a) => a.status)).toEqual(Array(20).fill(202));
  const one = bootstrapBody('twin.example.com', ['kubelet']).body;
  const copies = await Promise.all(Array.from({ length: 10 }, () => post(port, controllerCa, one, undefined, servername)));
  expect(copies.map((a) => a.status)).toEqual(Array(10).fill(202));
  expect(new Set(copies.map((a) => (JSON.parse(a.body) as { name: string }).name)).size).toBe(1);
  const rows = JSON.parse((await cliAsync(['get', 'node-requests', NAME, '-o', 'json'])).stdout) as Row[];
  expect(rows.filter((r) => r.nodeName.startsWith('burst-')).map((r) => r.nodeName).sort()).toEqual(Array.from({ length: 20 }, (_, i) => `burst-${i}.example.com`).sort());
  expect(rows.filter((r) => r.nodeName === 'twin.example.com')).toHaveLength(1);
  // Sorted by name, the shape stable.
  expect(rows.map((r) => r.name)).toEqual([...rows.map((r) => r.name)].sort());
  expect(Object.keys(rows[0]).sort()).toEqual(['created', 'fingerprints', 'name', 'nodeName', 'source', 'status']);
});

test('a bad mode is refused with its field path', () => {
  const r = cli(['set', 'cluster', NAME, 'spec.nodeIdentity.mode=Sometimes']);
  expectCleanFailure(r);
  expect(r.stderr).toMatch(/spec\.nodeIdentity\.mode/);
  expect(r.stderr).toMatch(/Automatic, Approval|Automatic.*Approval/);
});
