import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as yaml from 'js-yaml';
import { GceInstanceTemplateTask } from '../../src/cloud/gce/tasks/gce-instance-template-task';
import { buildGceTasks } from '../../src/model/gce/gce-model-builder';
import { createCluster } from '../../src/ops/create-cluster';
import { planManagedFiles, writeManagedFiles } from '../../src/ops/plan-managed-files';
import { KeysetYaml } from '../../src/pki/keyset-yaml';
import type { LockOptions } from '../../src/state/lock/cluster-lock';
import { ClusterRepository } from '../../src/state/cluster-repository';
import { StatePaths } from '../../src/state/state-paths';
import { openVfs } from '../../src/state/vfs/open-vfs';
import { listFiles, runCliAsync, tempDir } from '../helpers/cli';
import { FakeCompute, startFakeCompute } from '../fakes/gce/compute-fake';
import { FakeGceMetadata, startFakeGceMetadata } from '../fakes/gce/fake-gce-metadata';
import { fakeGoogleSigner, FakeGoogleJwks, FakeGoogleSigner, startFakeGoogleJwks } from '../fakes/gce/fake-google-identity';
import { opensslSubject, opensslVerify } from './node-identity-helpers';
import { KopsControllerProcess, startKopsController } from './kops-controller-process';

// The GCE path with real processes: a store made by the real pipeline for a GCE cluster, `kforge
// kops-controller` started from a GCE control plane's boot config (the Compute API and its own token from the
// fakes, Google's keys from the fake JWKS), and `kforge nodeup` on a worker whose boot config names only the
// service (as update stored its config): it gets its config and certificates with the identity token its
// metadata server hands it.

const LOCK: LockOptions = { command: 'kforge test', ttlSeconds: 60, warn: () => undefined };
const NAME = 'gni.k8s.local';
const PROJECT = 'kforge-test';
const ZONE = 'us-central1-a';
const GROUP = `nodes-${ZONE}`;
jest.setTimeout(180_000);

let store: string;
let compute: FakeCompute;
let jwks: FakeGoogleJwks;
let google: FakeGoogleSigner;
let cpMetadata: FakeGceMetadata;
let controller: KopsControllerProcess | undefined;
/** What the service printed so far. */
const log = (): string => controller?.output() ?? '';
let port: number;
let kubernetesCa: string;
let controllerCa: string;
let template: { labels: Record<string, string>; metadata: Record<string, string> };
const stops: Array<() => Promise<void>> = [];
const dirs: string[] = [];
let nextId = 8100000000000000001n;

beforeAll(async () => {
  store = tempDir('kforge-gni-store-');
  dirs.push(store);
  const vfs = openVfs(store);
  await createCluster(vfs, { name: NAME, zones: [ZONE], cloud: 'gce', project: PROJECT, networking: 'calico' }, [], undefined, LOCK);
  await writeManagedFiles(vfs, await planManagedFiles(vfs, NAME));
  const repo = new ClusterRepository(vfs);
  const completed = await repo.getCompleted(NAME);
  const groups = (await repo.get(NAME)).instanceGroups.map((g) => g.object);
  const t = buildGceTasks(completed, groups).find((x): x is GceInstanceTemplateTask => x instanceof GceInstanceTemplateTask && x.desired.labels['k8s-io-instance-group'] === GROUP);
  if (!t) throw new Error(`no template for ${GROUP}`);
  template = { labels: t.desired.labels, metadata: t.desired.metadata };
  kubernetesCa = KeysetYaml.parse(fs.readFileSync(path.join(store, StatePaths.issuedKeyset(NAME, 'kubernetes-ca'))), 'kubernetes-ca', 'kubernetes-ca').primary().certificatePem;
  controllerCa = KeysetYaml.parse(fs.readFileSync(path.join(store, StatePaths.issuedKeyset(NAME, 'kops-controller-ca'))), 'kops-controller-ca', 'kops-controller-ca').primary().certificatePem;

  compute = await startFakeCompute();
  google = fakeGoogleSigner();
  jwks = await startFakeGoogleJwks([google]);
  cpMetadata = await startFakeGceMetadata({ id: '1', name: `control-plane-${ZONE}-cp01`, zone: ZONE, internalIp: '10.0.16.2', attributes: {}, serviceAccountEmail: `control-plane@${PROJECT}.iam.gserviceaccount.com`, scopes: [] }, { id: PROJECT, numericId: '123456789' });
  const cpConfigBase = (yaml.load(fs.readFileSync(path.join(store, StatePaths.nodeupConfig(NAME, 'ControlPlane', `control-plane-${ZONE}`)), 'utf8')) as { ConfigBase: string }).ConfigBase;
  const boot = path.join(store, 'kube_env.yaml');
  fs.writeFileSync(boot, yaml.dump({ CloudProvider: 'gce', ClusterName: NAME, ConfigBase: cpConfigBase, InstanceGroupName: `control-plane-${ZONE}`, InstanceGroupRole: 'ControlPlane', NodeupConfigHash: '0'.repeat(64) }));
  controller = await startKopsController(boot, ['--google-jwks-url', jwks.url], { GCE_METADATA_HOST: cpMetadata.host, CLOUDSDK_API_ENDPOINT_OVERRIDES_COMPUTE: `${compute.endpoint}/compute/v1/` });
  port = controller.port;
});

afterAll(async () => {
  controller?.stop();
  for (const stop of stops) await stop();
  await cpMetadata?.stop();
  await jwks?.stop();
  await compute?.stop();
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

/** A RUNNING instance of the worker group in the fake Compute API, and its metadata server (signing with `signer`, Google's key by default). */
async function workerVm(name: string, signer: FakeGoogleSigner = google): Promise<{ id: string; metadata: FakeGceMetadata }> {
  const inst = compute.store.insert(`projects/${PROJECT}/zones/${ZONE}/instances`, 'Instance', {
    name,
    status: 'RUNNING',
    labels: template.labels,
    metadata: { items: Object.entries(template.metadata).map(([key, value]) => ({ key, value })) },
  });
  inst.id = String(nextId++);
  const attributes = { 'cluster-name': NAME, 'kops-k8s-io-instance-group-name': GROUP };
  const metadata = await startFakeGceMetadata({ id: inst.id as string, name, zone: ZONE, internalIp: '10.0.16.9', attributes, serviceAccountEmail: `node@${PROJECT}.iam.gserviceaccount.com`, scopes: [] }, { id: PROJECT, numericId: '123456789' }, { signer });
  stops.push(() => metadata.stop());
  return { id: inst.id as string, metadata };
}

/**
 * A boot config as the startup-script writes it for a worker: a ConfigServer (here at the service's loopback
 * address), no ConfigBase, the hash of the worker's config as update stored it.
 */
function workerBoot(): string {
  const text = fs.readFileSync(path.join(store, StatePaths.nodeupConfig(NAME, 'Node', GROUP)), 'utf8');
  const d = tempDir('kforge-gni-boot-');
  dirs.push(d);
  const boot = path.join(d, 'kube_env.yaml');
  const server = { CACertificates: controllerCa, Region: 'us-central1', Servers: [`https://127.0.0.1:${port}`] };
  fs.writeFileSync(boot, yaml.dump({ CloudProvider: 'gce', ClusterName: NAME, ConfigServer: server, InstanceGroupName: GROUP, InstanceGroupRole: 'Node', NodeupConfigHash: createHash('sha256').update(text).digest('hex') }));
  return boot;
}

function kubeconfigUser(file: string): { cert: string; key: string } {
  const doc = yaml.load(fs.readFileSync(file, 'utf8')) as { users: Array<{ user: Record<string, string> }> };
  const u = doc.users[0].user;
  return { cert: Buffer.from(u['client-certificate-data'], 'base64').toString(), key: Buffer.from(u['client-key-data'], 'base64').toString() };
}

async function serviceLog(re: RegExp): Promise<string> {
  const deadline = Date.now() + 10_000;
  while (!re.test(log()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  return log();
}

test("update stores a GCE worker's config with the ConfigServer: the service by its name, kops-controller-ca, no store, kubernetes-ca only", () => {
  const config = yaml.load(fs.readFileSync(path.join(store, StatePaths.nodeupConfig(NAME, 'Node', GROUP)), 'utf8')) as Record<string, unknown>;
  expect(config.ConfigServer).toEqual({ Servers: [`https://kops-controller.internal.${NAME}:3988`], CACertificates: controllerCa, Region: 'us-central1' });
  expect(config.ConfigBase).toBeUndefined();
  expect(config.channels).toEqual([]);
  expect(Object.keys(config.KeypairIDs as Record<string, string>)).toEqual(['kubernetes-ca']);
  // The control plane still reads the store.
  const cp = yaml.load(fs.readFileSync(path.join(store, StatePaths.nodeupConfig(NAME, 'ControlPlane', `control-plane-${ZONE}`)), 'utf8')) as Record<string, unknown>;
  expect(cp.ConfigBase).toEqual(expect.any(String));
  expect(cp.ConfigServer).toBeUndefined();
});

test('the service on a GCE control plane says what it verifies', () => {
  expect(log()).toContain(`kops-controller: cluster ${NAME}, project ${PROJECT}, listening on 127.0.0.1:${port} as kops-controller.internal.${NAME}; GCE instance identity tokens for https://kops-controller.internal.${NAME}:3988 of worker groups ${GROUP}`);
});

test('a GCE worker whose boot config names only the ConfigServer gets its nodeup config and its certificates with its identity token, for its instance name', async () => {
  const name = `${GROUP}-w1a2`;
  const w = await workerVm(name);
  const conf = workerBoot();
  expect(fs.readFileSync(conf, 'utf8')).not.toContain(store);
  const root = tempDir('kforge-gni-root-');
  dirs.push(root);
  // The worker's environment names its metadata server and nothing else: no store, no Compute API.
  const r = await runCliAsync(['nodeup', '--conf', conf, '--root', root], { GCE_METADATA_HOST: w.metadata.host, CLOUDSDK_API_ENDPOINT_OVERRIDES_COMPUTE: undefined });
  expect({ status: r.status, stderr: r.stderr }).toMatchObject({ status: 0 });
  expect(r.stderr).toContain('kforge-nodeup-stage: config-fetched');
  expect(r.stderr).toContain('kforge-nodeup-stage: certificates-issued');
  const identity = w.metadata.requests.filter((q) => q.includes('/service-accounts/default/identity'));
  expect(identity.length).toBeGreaterThanOrEqual(2);
  for (const q of identity) expect(q).toBe(`GET /computeMetadata/v1/instance/service-accounts/default/identity?audience=${encodeURIComponent(`https://kops-controller.internal.${NAME}:3988`)}&format=full`);
  const kubelet = kubeconfigUser(path.join(root, 'var/lib/kubelet/kubeconfig'));
  expect(opensslVerify(kubernetesCa, [kubelet.cert]).status).toBe(0);
  expect(opensslVerify(controllerCa, [kubelet.cert]).status).not.toBe(0);
  expect(opensslSubject(kubelet.cert)).toBe(`subject=CN=system:node:${name},O=system:nodes`);
  const proxy = kubeconfigUser(path.join(root, 'var/lib/kube-proxy/kubeconfig'));
  expect(opensslSubject(proxy.cert)).toBe('subject=CN=system:kube-proxy');
  expect(listFiles(root)).not.toContain('var/lib/kubelet/bootstrap-kubeconfig');
  const log = await serviceLog(/ 200 issued kube-proxy, kubelet for node /);
  expect(log).toContain(`POST /bootstrap 200 sent the nodeup config of group ${GROUP} for node ${name} (instance ${w.id}, group ${GROUP}`);
  expect(log).toContain(`POST /bootstrap 200 issued kube-proxy, kubelet for node ${name} (instance ${w.id}, group ${GROUP}`);
});

test('a worker whose token Google did not sign gets nothing: NODE_IDENTITY_FAILED, no files, one log line with the reason', async () => {
  const w = await workerVm(`${GROUP}-f0r9`, { ...fakeGoogleSigner(), kid: google.kid });
  const conf = workerBoot();
  const root = tempDir('kforge-gni-root-');
  dirs.push(root);
  const r = await runCliAsync(['nodeup', '--conf', conf, '--root', root], { GCE_METADATA_HOST: w.metadata.host });
  expect(r.status).toBe(1);
  expect(r.stderr).toContain('NODE_IDENTITY_FAILED');
  expect(r.stderr).toMatch(/answered HTTP 403/);
  expect(listFiles(root).filter((f) => !f.startsWith('var/lib/kforge/'))).toEqual([]);
  expect(await serviceLog(/403 denied: the identity token's signature is not Google's/)).toMatch(/POST \/bootstrap 403 denied: the identity token's signature is not Google's/);
});
