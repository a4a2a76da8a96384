import * as fs from 'node:fs';
import * as path from 'node:path';
import * as yaml from 'js-yaml';
import { DisksClient, GlobalOperationsClient, InstanceGroupManagersClient, InstanceTemplatesClient, ZoneOperationsClient } from '@google-cloud/compute';
import type { Cluster } from '../../src/api/types';
import { newCluster } from '../../src/create/new-cluster';
import { buildGceEtcdDiskTasks } from '../../src/model/gce/etcd-disk-model-builder';
import { planManagedFiles, writeManagedFiles } from '../../src/ops/plan-managed-files';
import { saveCluster } from '../../src/ops/save-cluster';
import { runProtokube } from '../../src/protokube/run-protokube';
import { openVfs } from '../../src/state/vfs/open-vfs';
import { tempDir } from '../helpers/cli';
import { FakeCompute, startFakeCompute } from '../fakes/gce/compute-fake';
import { fakeComputeClientOptions } from '../fakes/gce/fake-compute-client-options';
import { FakeGceMetadata, startFakeGceMetadata } from '../fakes/gce/fake-gce-metadata';
import { releaseMounts } from './release-mounts';

// A whole protokube pass on a GCE control-plane machine: the identity from the fake metadata server, the
// cluster's etcd disks (the model's, with kops's labels, made through @google-cloud/compute) found and
// attached by protokube's REST calls against the fake Compute API, image files as the devices GCE's udev rules name (google-<device name>),
// formatted and mounted, the members written and the names in the hosts file. A second machine in the same
// zone finds every disk taken and claims nothing.

const NAME = 'pk.gce.example.com';
const ZONE = 'us-central1-a';
const PROJECT = 'p';
let compute: FakeCompute;
let metadata: FakeGceMetadata;
let work: string;
let conf: string;
let instances: string[];
let disks: string[];
let options: ConstructorParameters<typeof DisksClient>[0];

jest.setTimeout(300_000);

beforeAll(async () => {
  work = tempDir('kforge-protokube-gce-');
  const store = path.join(work, 'store');
  const vfs = openVfs(store);
  const planned = newCluster({ name: NAME, zones: [ZONE], cloud: 'gce' });
  planned.cluster.spec.project = PROJECT;
  await saveCluster(vfs, { cluster: planned.cluster, instanceGroups: planned.instanceGroups });
  const plan = await planManagedFiles(vfs, NAME);
  await writeManagedFiles(vfs, plan);
  const completed = yaml.load(fs.readFileSync(path.join(store, NAME, 'cluster-completed.spec'), 'utf8')) as Cluster;
  const group = `control-plane-${ZONE}`;
  conf = path.join(work, 'kube_env.yaml');
  fs.writeFileSync(conf, [`CloudProvider: gce`, `ClusterName: ${NAME}`, `ConfigBase: ${path.join(store, NAME)}`, `InstanceGroupName: ${group}`, `InstanceGroupRole: ControlPlane`, `NodeupConfigHash: ${plan.nodeupConfigHashes[group]}`, ''].join('\n'));

  compute = await startFakeCompute();
  options = fakeComputeClientOptions(compute.port) as typeof options;
  const zoneOps = new ZoneOperationsClient(options);
  disks = [];
  for (const t of buildGceEtcdDiskTasks(completed, planned.instanceGroups)) {
    const [op] = await new DisksClient(options).insert({ project: PROJECT, zone: t.desired.zone, diskResource: { name: t.name, sizeGb: String(t.desired.sizeGb), labels: t.desired.labels } });
    await zoneOps.wait({ project: PROJECT, zone: t.desired.zone, operation: op.name! });
    disks.push(t.name);
  }
  const [t] = await new InstanceTemplatesClient(options).insert({ project: PROJECT, instanceTemplateResource: { name: 'cp', properties: { machineType: 'e2-medium' } } });
  await new GlobalOperationsClient(options).wait({ project: PROJECT, operation: t.name! });
  const [m] = await new InstanceGroupManagersClient(options).insert({ project: PROJECT, zone: ZONE, instanceGroupManagerResource: { name: 'cp', baseInstanceName: 'cp', targetSize: 2, instanceTemplate: 'global/instanceTemplates/cp' } });
  await zoneOps.wait({ project: PROJECT, zone: ZONE, operation: m.name! });
  instances = compute.inventory().filter((r) => r.includes('/instances/')).map((r) => r.slice(r.lastIndexOf('/') + 1)).sort();

  metadata = await startFakeGceMetadata(
    { id: '77', name: instances[0], zone: ZONE, internalIp: '127.0.1.21', attributes: { 'cluster-name': NAME, 'kops-k8s-io-instance-group-name': group }, serviceAccountEmail: 'cp@p.iam.gserviceaccount.com', scopes: [] },
    { id: PROJECT, numericId: '123456789012' },
  );
  fs.mkdirSync(path.join(work, 'dev'));
  for (const d of disks) {
    const image = path.join(work, 'dev', `google-${d}`);
    fs.writeFileSync(image, '');
    fs.truncateSync(image, 16 * 1024 * 1024);
  }
});

afterAll(async () => {
  if (work) {
    releaseMounts(work);
    fs.rmSync(work, { recursive: true, force: true });
  }
  await metadata?.stop();
  await compute?.stop();
});

function pass(root: string) {
  return runProtokube({ conf, root, identity: {}, deviceDir: path.join(work, 'dev'), deviceTimeoutMs: 5000, apiWaitMs: 1000, env: { GCE_METADATA_HOST: metadata.host, CLOUDSDK_API_ENDPOINT_OVERRIDES_COMPUTE: `${compute.endpoint}/compute/v1/` } });
}

it('claims the zone\'s etcd disks by label, mounts them, writes the members, and publishes the names in the hosts file', async () => {
  const root = path.join(work, 'root-1');
  const report = await pass(root);
  expect(report.instanceId).toBe(instances[0]);
  expect(report.zone).toBe(ZONE);
  expect(report.dns).toBe('none');
  expect(report.members.map((m) => [m.etcd, m.member, m.volume, m.device, m.formatted])).toEqual(
    ['main', 'events'].map((e) => [e, 'a', disks.find((d) => d.includes(`etcd-${e}`)), path.join(work, 'dev', `google-${disks.find((d) => d.includes(`etcd-${e}`))}`), true]),
  );
  for (const d of disks) expect((compute.store.get(`projects/${PROJECT}/zones/${ZONE}/disks`, d).users as string[]).map((u) => u.slice(u.lastIndexOf('/') + 1))).toEqual([instances[0]]);
  expect(report.names.map((n) => [n.name, n.addresses])).toEqual([
    [`etcd-a.internal.${NAME}`, ['127.0.1.21']],
    [`etcd-events-a.internal.${NAME}`, ['127.0.1.21']],
  ]);
  expect(fs.readFileSync(path.join(root, 'etc/hosts'), 'utf8')).toContain(`127.0.1.21\tetcd-a.internal.${NAME}`);
  expect(fs.existsSync(path.join(root, 'etc/kubernetes/manifests/etcd-main.manifest'))).toBe(true);

  // The same machine again: it holds its disks already, formats nothing, changes nothing.
  const again = await pass(root);
  expect(again.members.map((m) => [m.volume, m.formatted])).toEqual(report.members.map((m) => [m.volume, false]));
});

it('a second machine of the zone finds every disk taken and claims nothing', async () => {
  metadata.instance.name = instances[1];
  try {
    const report = await pass(path.join(work, 'root-2'));
    expect(report.instanceId).toBe(instances[1]);
    expect(report.members.map((m) => m.member)).toEqual([undefined, undefined]);
    expect(report.members[0].waiting).toMatch(/attached to another instance/);
    for (const d of disks) expect((compute.store.get(`projects/${PROJECT}/zones/${ZONE}/disks`, d).users as string[]).length).toBe(1);
  } finally {
    metadata.instance.name = instances[0];
  }
});
