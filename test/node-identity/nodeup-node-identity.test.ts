import { createPrivateKey, X509Certificate } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as yaml from 'js-yaml';
import type { NodeupConfig } from '../../src/model/nodeup-config-builder';
import { nodeGroupIamName } from '../../src/model/aws/iam-names';
import { createCluster } from '../../src/ops/create-cluster';
import { planManagedFiles, writeManagedFiles } from '../../src/ops/plan-managed-files';
import { KeysetYaml } from '../../src/pki/keyset-yaml';
import type { LockOptions } from '../../src/state/lock/cluster-lock';
import { StatePaths } from '../../src/state/state-paths';
import { openVfs } from '../../src/state/vfs/open-vfs';
import { listFiles, runCli, tempDir } from '../helpers/cli';
import { MOTO_WITH_DEFAULT_IMAGE, MotoServer, startMotoServer } from '../helpers/moto-server';
import { createRole, instanceRoleCredentials, launchInstance, motoClients, opensslSubject, opensslVerify, post } from './node-identity-helpers';
import { KopsControllerProcess, startKopsController } from './kops-controller-process';

// The whole path with real processes: a store made by the real pipeline (create cluster, what update --yes
// writes), `kforge kops-controller` started from the control plane's boot config against moto (STS, EC2),
// and `kforge nodeup` on a worker whose config names the service (ConfigServer), signing with the
// credentials of its instance role (an AssumeRole session named after the instance, as EC2 hands them out).

const LOCK: LockOptions = { command: 'kforge test', ttlSeconds: 60, warn: () => undefined };
const NAME = 'ni.k8s.local';
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
let workerConfig: NodeupConfig;
let bootFile: string;
const dirs: string[] = [];

beforeAll(async () => {
  moto = await startMotoServer({ env: MOTO_WITH_DEFAULT_IMAGE });
  store = tempDir('kforge-ni-store-');
  dirs.push(store);
  const vfs = openVfs(store);
  // calico keeps kube-proxy, so the worker asks for both certificates.
  await createCluster(vfs, { name: NAME, zones: [ZONE], networking: 'calico' }, [], undefined, LOCK);
  await writeManagedFiles(vfs, await planManagedFiles(vfs, NAME));
  const cpConfig = yaml.load(fs.readFileSync(path.join(store, StatePaths.nodeupConfig(NAME, 'ControlPlane', `control-plane-${ZONE}`)), 'utf8')) as NodeupConfig;
  workerConfig = yaml.load(fs.readFileSync(path.join(store, StatePaths.nodeupConfig(NAME, 'Node', GROUP)), 'utf8')) as NodeupConfig;
  const boot = path.join(store, 'kube_env.yaml');
  bootFile = boot;
  fs.writeFileSync(boot, yaml.dump({ CloudProvider: 'aws', ClusterName: NAME, ConfigBase: cpConfig.ConfigBase, InstanceGroupName: `control-plane-${ZONE}`, InstanceGroupRole: 'ControlPlane', NodeupConfigHash: '0'.repeat(64) }));
  kubernetesCa = KeysetYaml.parse(fs.readFileSync(path.join(store, StatePaths.issuedKeyset(NAME, 'kubernetes-ca'))), 'kubernetes-ca', 'kubernetes-ca').primary().certificatePem;
  controller = await startKopsController(boot, ['--sts-endpoint', moto.endpoint], moto.env);
  port = controller.port;
});

afterAll(async () => {
  controller?.stop();
  await moto?.stop();
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

/** A worker's config naming the service at its loopback address, kubelet named `nodeName`. */
function workerConf(nodeName: string): string {
  const controllerCa = KeysetYaml.parse(fs.readFileSync(path.join(store, StatePaths.issuedKeyset(NAME, 'kops-controller-ca'))), 'kops-controller-ca', 'kops-controller-ca').primary().certificatePem;
  const config = {
    ...workerConfig,
    ConfigServer: { Servers: [`https://127.0.0.1:${port}`], CACertificates: controllerCa, Region: 'us-east-1' },
    // This machine's hostname is not the instance's; kubelet's --hostname-override names the node instead.
    ComponentFlags: { ...workerConfig.ComponentFlags, kubelet: [...workerConfig.ComponentFlags.kubelet, `--hostname-override=${nodeName}`] },
  };
  const d = tempDir('kforge-ni-conf-');
  dirs.push(d);
  const file = path.join(d, 'nodeupconfig.yaml');
  fs.writeFileSync(file, yaml.dump(config));
  return file;
}

async function worker(): Promise<{ id: string; privateDnsName: string; env: NodeJS.ProcessEnv }> {
  const { ec2, iam, sts } = motoClients(moto);
  const role = nodeGroupIamName(GROUP, NAME);
  const arn = (await createRole(iam, role).catch(() => `arn:aws:iam::123456789012:role/${role}`)) || `arn:aws:iam::123456789012:role/${role}`;
  const instance = await launchInstance(ec2, NAME, GROUP);
  const c = await instanceRoleCredentials(sts, arn, instance.id);
  // No endpoint but STS's: the worker reaches nothing of AWS but the STS endpoint it signs for.
  const env = { AWS_ACCESS_KEY_ID: c.accessKeyId, AWS_SECRET_ACCESS_KEY: c.secretAccessKey, AWS_SESSION_TOKEN: c.sessionToken, AWS_ENDPOINT_URL_STS: moto.endpoint, AWS_REGION: 'us-east-1', AWS_EC2_METADATA_DISABLED: 'true', AWS_ENDPOINT_URL: undefined };
  return { ...instance, env };
}

/** Waits until the service's output matches (runCli blocks this process's event loop, so its pipe is read afterwards). */
async function serviceLog(re: RegExp): Promise<string> {
  const deadline = Date.now() + 10_000;
  while (!re.test(log()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  return log();
}

function kubeconfigUser(file: string): { cert: string; key: string } {
  const doc = yaml.load(fs.readFileSync(file, 'utf8')) as { users: Array<{ user: Record<string, string> }> };
  const u = doc.users[0].user;
  return { cert: Buffer.from(u['client-certificate-data'], 'base64').toString(), key: Buffer.from(u['client-key-data'], 'base64').toString() };
}

test('a worker gets its kubelet and kube-proxy certificates from the service, for keys made on the node, and reads nothing from the store', async () => {
  const w = await worker();
  const root = tempDir('kforge-ni-root-');
  dirs.push(root);
  // The store is moved away: the worker must not need it.
  const conf = workerConf(w.privateDnsName);
  const hidden = `${store}-hidden`;
  fs.renameSync(store, hidden);
  let r;
  try {
    r = runCli(['nodeup', '--conf', conf, '--root', root], { env: w.env });
  } finally {
    fs.renameSync(hidden, store);
  }
  expect({ status: r.status, stderr: r.stderr }).toMatchObject({ status: 0 });
  expect(r.stderr).toContain('kforge-nodeup-stage: certificates-issued');
  const kubelet = kubeconfigUser(path.join(root, 'var/lib/kubelet/kubeconfig'));
  expect(opensslVerify(kubernetesCa, [kubelet.cert]).status).toBe(0);
  expect(opensslSubject(kubelet.cert)).toBe(`subject=CN=system:node:${w.privateDnsName},O=system:nodes`);
  expect(new X509Certificate(kubelet.cert).checkPrivateKey(createPrivateKey(kubelet.key))).toBe(true);
  const proxy = kubeconfigUser(path.join(root, 'var/lib/kube-proxy/kubeconfig'));
  expect(opensslSubject(proxy.cert)).toBe('subject=CN=system:kube-proxy');
  expect(opensslVerify(kubernetesCa, [proxy.cert]).status).toBe(0);
  expect(listFiles(root)).not.toContain('var/lib/kubelet/bootstrap-kubeconfig');
  expect(await serviceLog(/ 200 issued /)).toMatch(new RegExp(`200 issued kube-proxy, kubelet for node ${w.privateDnsName.replace(/\./g, '\\.')} \\(instance ${w.id}, group ${GROUP}`));

  // A second run keeps both certificates and asks the service nothing.
  const lines = log().split('\n').length;
  const again = runCli(['nodeup', '--conf', conf, '--root', root], { env: w.env });
  expect(again.status).toBe(0);
  expect(again.stdout).toMatch(/No changes: \d+ files up to date\./);
  // A probe the service logs after anything the second run could have sent: its line must come right after.
  const controllerCa = KeysetYaml.parse(fs.readFileSync(path.join(store, StatePaths.issuedKeyset(NAME, 'kops-controller-ca'))), 'kops-controller-ca', 'kops-controller-ca').primary().certificatePem;
  expect((await post(port, controllerCa, 'probe', undefined, `kops-controller.internal.${NAME}`)).status).toBe(400);
  const after = (await serviceLog(/ 400 denied: the body is not JSON/)).split('\n');
  expect(after.length).toBe(lines + 1);
  expect(after[after.length - 2]).toMatch(/ 400 denied: the body is not JSON/);
});

test("a worker claiming another node's name is refused: nodeup fails with NODE_IDENTITY_FAILED and writes no kubeconfig", async () => {
  const w = await worker();
  const root = tempDir('kforge-ni-root-');
  dirs.push(root);
  const r = runCli(['nodeup', '--conf', workerConf('ip-10-0-0-1.ec2.internal'), '--root', root], { env: w.env });
  expect(r.status).toBe(1);
  expect(r.stderr).toContain('kforge-nodeup-stage: failed: NODE_IDENTITY_FAILED');
  expect(r.stderr).toMatch(/answered HTTP 403/);
  expect(r.stderr).not.toMatch(/\n\s+at /);
  expect(fs.existsSync(path.join(root, 'var/lib/kubelet/kubeconfig'))).toBe(false);
  expect(await serviceLog(/ 403 denied/)).toMatch(new RegExp(`403 denied: instance ${w.id} \\(group ${GROUP}\\) claims node name ip-10-0-0-1\\.ec2\\.internal, but its node name is ${w.privateDnsName.replace(/\./g, '\\.')}`));
});

test('kops-controller refuses to start, naming the file, when the store has no kops-controller-ca (a cluster not updated since), and refuses a bad --listen', () => {
  const copy = tempDir('kforge-ni-old-');
  dirs.push(copy);
  fs.cpSync(store, copy, { recursive: true });
  fs.rmSync(path.join(copy, NAME, 'pki', 'private', 'kops-controller-ca'), { recursive: true });
  const boot = yaml.load(fs.readFileSync(bootFile, 'utf8')) as Record<string, string>;
  const oldBoot = path.join(copy, 'kube_env.yaml');
  fs.writeFileSync(oldBoot, yaml.dump({ ...boot, ConfigBase: boot.ConfigBase.replace(store, copy) }));
  const r = runCli(['kops-controller', '--conf', oldBoot, '--listen', '127.0.0.1:0', '--sts-endpoint', moto.endpoint], { env: moto.env });
  expect(r.status).toBe(1);
  expect(r.stderr).toMatch(/^Error: .*\/ni\.k8s\.local\/pki\/private\/kops-controller-ca\/keyset\.yaml does not exist; run "kforge update cluster ni\.k8s\.local --yes"/m);
  expect(r.stderr).not.toMatch(/\n\s+at /);
  const bad = runCli(['kops-controller', '--conf', bootFile, '--listen', 'nowhere']);
  expect(bad.status).toBe(1);
  expect(bad.stderr).toContain('--listen: "nowhere" is not ADDRESS:PORT');
});

/**
 * The worker's config as a ConfigServer cluster stores it: no ConfigBase, the service by its name (as the model
 * writes it; it resolves nowhere here). nodeup dials the boot config's Servers (without DNS: the API load
 * balancer's name), which stand here for it at its loopback address.
 */
function storeServedWorkerConfig(nodeName: string): string {
  const config: Record<string, unknown> = yaml.load(fs.readFileSync(workerConf(nodeName), 'utf8')) as Record<string, unknown>;
  delete config.ConfigBase;
  config.ConfigServer = { ...(config.ConfigServer as Record<string, unknown>), Servers: [`https://kops-controller.internal.${NAME}:3988`] };
  config.channels = [];
  const text = yaml.dump(config);
  fs.writeFileSync(path.join(store, StatePaths.nodeupConfig(NAME, 'Node', GROUP)), text);
  return text;
}

/** A boot config as user-data writes it for a worker: a ConfigServer, no ConfigBase. */
function workerBoot(hash: string): string {
  const controllerCa = KeysetYaml.parse(fs.readFileSync(path.join(store, StatePaths.issuedKeyset(NAME, 'kops-controller-ca'))), 'kops-controller-ca', 'kops-controller-ca').primary().certificatePem;
  const d = tempDir('kforge-ni-boot-');
  dirs.push(d);
  const file = path.join(d, 'kube_env.yaml');
  fs.writeFileSync(
    file,
    yaml.dump({
      CloudProvider: 'aws',
      ClusterName: NAME,
      ConfigServer: { CACertificates: controllerCa, Region: 'us-east-1', Servers: [`https://127.0.0.1:${port}`] },
      InstanceGroupName: GROUP,
      InstanceGroupRole: 'Node',
      NodeupConfigHash: hash,
    }),
  );
  return file;
}

test('a worker whose boot config names only the ConfigServer gets its nodeup config from the service (includeNodeConfig), checked against its hash, then its certificates', async () => {
  const w = await worker();
  const stored = storeServedWorkerConfig(w.privateDnsName);
  const { createHash } = await import('node:crypto');
  const conf = workerBoot(createHash('sha256').update(stored).digest('hex'));
  expect(fs.readFileSync(conf, 'utf8')).not.toContain(store);
  const root = tempDir('kforge-ni-root-');
  dirs.push(root);
  const r = runCli(['nodeup', '--conf', conf, '--root', root], { env: w.env });
  expect({ status: r.status, stderr: r.stderr }).toMatchObject({ status: 0 });
  expect(r.stderr).toContain('kforge-nodeup-stage: config-fetched');
  expect(r.stderr).toContain('kforge-nodeup-stage: certificates-issued');
  const kubelet = kubeconfigUser(path.join(root, 'var/lib/kubelet/kubeconfig'));
  expect(opensslSubject(kubelet.cert)).toBe(`subject=CN=system:node:${w.privateDnsName},O=system:nodes`);
  const log = await serviceLog(/ 200 sent the nodeup config of group /);
  expect(log).toMatch(new RegExp(`POST /bootstrap 200 sent the nodeup config of group ${GROUP} for node ${w.privateDnsName.replace(/\./g, '\\.')} \\(instance ${w.id}`));
});

test("a config the service sends that is not the one the worker's user-data names (hash) installs nothing: INVALID_NODEUP_CONFIG, no files", async () => {
  const w = await worker();
  storeServedWorkerConfig(w.privateDnsName);
  const root = tempDir('kforge-ni-root-');
  dirs.push(root);
  const r = runCli(['nodeup', '--conf', workerBoot('a'.repeat(64)), '--root', root], { env: w.env });
  expect(r.status).toBe(1);
  expect(r.stderr).toMatch(/the nodeup config from https:\/\/127\.0\.0\.1:\d+ has sha256 [0-9a-f]{64}, not the a{64} this machine was launched with/);
  expect(r.stderr).toContain('kforge-nodeup-stage: failed: INVALID_NODEUP_CONFIG');
  expect(listFiles(root).filter((f) => !f.startsWith('var/lib/kforge/'))).toEqual([]);
});

test('a request for the nodeup config without a valid identity is refused (403), and sends no config', async () => {
  const controllerCa = KeysetYaml.parse(fs.readFileSync(path.join(store, StatePaths.issuedKeyset(NAME, 'kops-controller-ca'))), 'kops-controller-ca', 'kops-controller-ca').primary().certificatePem;
  const body = JSON.stringify({ apiVersion: 'bootstrap.kops.k8s.io/v1alpha1', certs: {}, includeNodeConfig: true });
  const r = await post(port, controllerCa, body, undefined, `kops-controller.internal.${NAME}`);
  expect(r.status).toBe(403);
  expect(r.body).not.toContain('nodeupConfig');
});

test('the nodeup bundle is served by its sha256 over TLS pinned to kops-controller-ca, without authentication; an unknown hash is 404', async () => {
  const https = await import('node:https');
  const { createHash } = await import('node:crypto');
  const bundle = Buffer.from('#!/opt/kforge/node/bin/node\nconsole.log("nodeup");\n');
  const sha = createHash('sha256').update(bundle).digest('hex');
  fs.mkdirSync(path.dirname(path.join(store, StatePaths.nodeupArtifact(NAME, sha))), { recursive: true });
  fs.writeFileSync(path.join(store, StatePaths.nodeupArtifact(NAME, sha)), bundle);
  const ca = KeysetYaml.parse(fs.readFileSync(path.join(store, StatePaths.issuedKeyset(NAME, 'kops-controller-ca'))), 'kops-controller-ca', 'kops-controller-ca').primary().certificatePem;
  const get = (p: string): Promise<{ status: number; body: Buffer }> =>
    new Promise((resolve, reject) => {
      https
        .get({ host: '127.0.0.1', port, path: p, ca, servername: `kops-controller.internal.${NAME}`, agent: false }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) }));
        })
        .on('error', reject);
    });
  const ok = await get(`/nodeup/${sha}`);
  expect(ok.status).toBe(200);
  expect(ok.body.equals(bundle)).toBe(true);
  expect((await get(`/nodeup/${'b'.repeat(64)}`)).status).toBe(404);
  expect((await get('/nodeup/../../pki/private/kubernetes-ca/keyset.yaml')).status).toBe(404);
  expect(await serviceLog(/GET \/nodeup\/b{64} 404/)).toMatch(new RegExp(`GET /nodeup/${sha} 200 sent nodeup bundle ${sha}`));
});
