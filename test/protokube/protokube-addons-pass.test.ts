import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as yaml from 'js-yaml';
import { KforgeError } from '../../src/errors/kforge-error';
import { nodeKubeconfig } from '../../src/nodeup/node-kubeconfig';
import { ProtokubeReport, runProtokube, summarizeReport } from '../../src/protokube/run-protokube';
import { FakeKubeApi, startFakeKubeApi } from '../fakes/kube/fake-kube-api-server';
import { makeKubeTestPki } from '../fakes/kube/kube-test-pki';
import { tempDir } from '../helpers/cli';
import { MotoServer, startMotoServer } from '../helpers/moto-server';
import { HaCluster, makeHaCluster } from './ha-cluster-fixture';
import { makeMotoControlPlane, MotoControlPlane } from './moto-etcd-volumes';
import { releaseMounts } from './release-mounts';

// A whole protokube pass (one control-plane machine against moto, image files as the etcd volumes) with
// the bootstrap channel in its state store and the applier's kubeconfig in its root, against the fake API
// server: the report says what was applied, and an addon the API server refuses fails the pass with
// ADDON_APPLY_FAILED naming the addon, the object and the reason, after the other addons were applied.

const NAME = 'addons.example.com';
const ZONE = 'us-east-1a';
const IP = '127.0.1.11';
let moto: MotoServer;
let api: FakeKubeApi;
let work: string;
let ha: HaCluster;
let cp: MotoControlPlane;
let conf: string;
let root: string;
const saved = new Map<string, string | undefined>();

jest.setTimeout(300_000);

function pass(): Promise<ProtokubeReport> {
  return runProtokube({ conf, root, identity: { instanceId: cp.instances.get(ZONE)?.id, zone: ZONE, internalIp: IP }, deviceDir: path.join(work, 'dev'), deviceTimeoutMs: 5000, dns: 'none', apiWaitMs: 2000 });
}

/** Writes a channel of `addons` (name → objects) and their manifests into the cluster's store. */
function writeChannel(addons: Record<string, unknown[]>): void {
  const dir = path.join(ha.configBase, 'addons');
  const entries = Object.entries(addons).map(([name, objects]) => {
    const manifest = objects.map((o) => yaml.dump(o)).join('---\n');
    fs.mkdirSync(path.join(dir, name), { recursive: true });
    fs.writeFileSync(path.join(dir, name, 'k8s-1.0.yaml'), manifest);
    return { id: 'k8s-1.0', manifest: `${name}/k8s-1.0.yaml`, manifestHash: createHash('sha256').update(manifest).digest('hex'), name, selector: { 'k8s-addon': name } };
  });
  fs.writeFileSync(path.join(dir, 'bootstrap-channel.yaml'), yaml.dump({ kind: 'Addons', metadata: { name: 'bootstrap' }, spec: { addons: entries } }));
}

const configMap = (name: string, data: Record<string, unknown>): unknown => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'kube-system' }, data });

beforeAll(async () => {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
  moto = await startMotoServer();
  for (const [k, v] of Object.entries(moto.env)) {
    saved.set(k, process.env[k]);
    process.env[k] = v;
  }
  work = tempDir('kforge-protokube-addons-');
  ha = await makeHaCluster(path.join(work, 'store'), NAME);
  cp = await makeMotoControlPlane(moto, ha, { [ZONE]: IP });
  conf = ha.bootConfig(work, ZONE);
  fs.mkdirSync(path.join(work, 'dev'));
  for (const id of cp.volumes.values()) {
    const image = path.join(work, 'dev', `nvme-Amazon_Elastic_Block_Store_${id.replace('-', '')}`);
    fs.writeFileSync(image, '');
    fs.truncateSync(image, 16 * 1024 * 1024);
  }
  const pki = await makeKubeTestPki();
  api = await startFakeKubeApi({ ca: pki.ca, serving: pki.serving });
  root = path.join(work, 'root');
  fs.mkdirSync(path.join(root, 'var/lib/kforge'), { recursive: true });
  fs.writeFileSync(path.join(root, 'var/lib/kforge/kubeconfig'), nodeKubeconfig('kforge', `https://localhost:${api.port}`, pki.ca.certificatePem, pki.admin), { mode: 0o600 });
});

afterAll(async () => {
  for (const [k, v] of saved) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  cp?.ec2.destroy();
  await api?.stop();
  await moto?.stop();
  if (work) {
    releaseMounts(work);
    fs.rmSync(work, { recursive: true, force: true });
  }
});

it('a refused addon fails the pass with ADDON_APPLY_FAILED naming the addon, the object and the reason; the other addons are applied', async () => {
  writeChannel({ 'good.addons.k8s.io': [configMap('good', { a: 'b' })], 'bad.addons.k8s.io': [configMap('bad', { count: 3 })] });
  let error: unknown;
  try {
    await pass();
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(KforgeError);
  expect((error as KforgeError).code).toBe('ADDON_APPLY_FAILED');
  expect((error as KforgeError).message).toBe('addon bad.addons.k8s.io: ConfigMap kube-system/bad: 422 Invalid: ConfigMap "bad" is invalid: data.count: Invalid value: 3: must be string');
  expect(api.store.get('configmaps', 'good', 'kube-system').data).toEqual({ a: 'b' });
  // The etcd part of the pass is done all the same.
  expect(fs.existsSync(path.join(root, 'etc/kubernetes/manifests/etcd-main.manifest'))).toBe(true);
});

it('with the addon fixed, the pass applies it alone and reports it; the next pass applies nothing', async () => {
  writeChannel({ 'good.addons.k8s.io': [configMap('good', { a: 'b' })], 'bad.addons.k8s.io': [configMap('bad', { count: '3' })] });
  const report = await pass();
  expect(report.addons).toMatchObject({ status: 'applied', server: `https://localhost:${api.port}` });
  expect(report.addons.addons.map((a) => [a.name, a.action])).toEqual([
    ['good.addons.k8s.io', 'unchanged'],
    ['bad.addons.k8s.io', 'applied'],
  ]);
  const text = summarizeReport(report);
  expect(text).toContain(`  addons (https://localhost:${api.port}): 1 applied, 1 unchanged, `);
  expect(text).toMatch(/\n {4}bad\.addons\.k8s\.io: [0-9a-f]{12}, 1 created, 0 configured/);
  api.resetRequests();
  const again = await pass();
  expect(again.addons.addons.every((a) => a.action === 'unchanged')).toBe(true);
  expect(api.requestCounts()).toEqual({ 'list /api/v1/namespaces': 1 });
});
