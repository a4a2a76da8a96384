import * as fs from 'node:fs';
import * as path from 'node:path';
import * as yaml from 'js-yaml';
import { DisksClient, GlobalOperationsClient, InstanceGroupManagersClient, InstanceTemplatesClient, ZoneOperationsClient } from '@google-cloud/compute';
import type { Cluster } from '../../src/api/types';
import { newCluster } from '../../src/create/new-cluster';
import { buildGceEtcdDiskTasks } from '../../src/model/gce/etcd-disk-model-builder';
import { planManagedFiles, writeManagedFiles } from '../../src/ops/plan-managed-files';
import { saveCluster } from '../../src/ops/save-cluster';
import { gceApiRecord } from '../../src/protokube/gce-cloud-dns-publish';
import { runProtokube, summarizeReport } from '../../src/protokube/run-protokube';
import { openVfs } from '../../src/state/vfs/open-vfs';
import { tempDir } from '../helpers/cli';
import { FakeCompute, startFakeCompute } from '../fakes/gce/compute-fake';
import { fakeCloudDnsEnv, FakeCloudDns, startFakeCloudDns } from '../fakes/gce/cloud-dns-fake';
import { fakeComputeClientOptions } from '../fakes/gce/fake-compute-client-options';
import { FakeGceMetadata, startFakeGceMetadata } from '../fakes/gce/fake-gce-metadata';
import { releaseMounts } from './release-mounts';

// protokube on a GCE control-plane machine of a cluster with public DNS (kops's minimal_gce: the API by DNS,
// no load balancer): after claiming its etcd disks it publishes api.<cluster> at the instance's external IP,
// api.internal, kops-controller.internal and the etcd names at its internal IP, in the Cloud DNS zone,
// replacing update's placeholders with the service account's token from the metadata server. A second
// pass changes nothing; a record someone changes between protokube's read and its change (412) is read
// again and the change remade.

const NAME = 'minimal-gce.example.com';
const ZONE = 'us-central1-a';
const PROJECT = 'p';
const PLACEHOLDER = '203.0.113.123';
let compute: FakeCompute;
let dns: FakeCloudDns;
let metadata: FakeGceMetadata;
let work: string;
let conf: string;
let instance: string;

jest.setTimeout(300_000);

beforeAll(async () => {
  work = tempDir('kforge-protokube-gce-dns-');
  const store = path.join(work, 'store');
  const vfs = openVfs(store);
  const planned = newCluster({ name: NAME, zones: [ZONE], cloud: 'gce', dns: 'public', dnsZone: 'example.com' });
  planned.cluster.spec.project = PROJECT;
  await saveCluster(vfs, { cluster: planned.cluster, instanceGroups: planned.instanceGroups });
  const plan = await planManagedFiles(vfs, NAME);
  await writeManagedFiles(vfs, plan);
  const completed = yaml.load(fs.readFileSync(path.join(store, NAME, 'cluster-completed.spec'), 'utf8')) as Cluster;
  expect(completed.spec.api?.loadBalancer).toBeUndefined();
  const group = `control-plane-${ZONE}`;
  conf = path.join(work, 'kube_env.yaml');
  fs.writeFileSync(conf, [`CloudProvider: gce`, `ClusterName: ${NAME}`, `ConfigBase: ${path.join(store, NAME)}`, `InstanceGroupName: ${group}`, `InstanceGroupRole: ControlPlane`, `NodeupConfigHash: ${plan.nodeupConfigHashes[group]}`, ''].join('\n'));

  compute = await startFakeCompute();
  const options = fakeComputeClientOptions(compute.port) as ConstructorParameters<typeof DisksClient>[0];
  const zoneOps = new ZoneOperationsClient(options);
  fs.mkdirSync(path.join(work, 'dev'));
  for (const t of buildGceEtcdDiskTasks(completed, planned.instanceGroups)) {
    const [op] = await new DisksClient(options).insert({ project: PROJECT, zone: t.desired.zone, diskResource: { name: t.name, sizeGb: String(t.desired.sizeGb), labels: t.desired.labels } });
    await zoneOps.wait({ project: PROJECT, zone: t.desired.zone, operation: op.name! });
    const image = path.join(work, 'dev', `google-${t.name}`);
    fs.writeFileSync(image, '');
    fs.truncateSync(image, 16 * 1024 * 1024);
  }
  const [t] = await new InstanceTemplatesClient(options).insert({ project: PROJECT, instanceTemplateResource: { name: 'cp', properties: { machineType: 'e2-medium' } } });
  await new GlobalOperationsClient(options).wait({ project: PROJECT, operation: t.name! });
  const [m] = await new InstanceGroupManagersClient(options).insert({ project: PROJECT, zone: ZONE, instanceGroupManagerResource: { name: 'cp', baseInstanceName: 'cp', targetSize: 1, instanceTemplate: 'global/instanceTemplates/cp' } });
  await zoneOps.wait({ project: PROJECT, zone: ZONE, operation: m.name! });
  instance = compute.inventory().filter((r) => r.includes('/instances/')).map((r) => r.slice(r.lastIndexOf('/') + 1))[0];
  // The instance's interface as GCE reports it: an internal IP and a one-to-one NAT (external) address.
  compute.store.get(`projects/${PROJECT}/zones/${ZONE}/instances`, instance).networkInterfaces = [{ networkIP: '127.0.1.21', accessConfigs: [{ type: 'ONE_TO_ONE_NAT', natIP: '198.51.100.7' }] }];

  metadata = await startFakeGceMetadata(
    { id: '77', name: instance, zone: ZONE, internalIp: '127.0.1.21', attributes: { 'cluster-name': NAME, 'kops-k8s-io-instance-group-name': group }, serviceAccountEmail: 'cp@p.iam.gserviceaccount.com', scopes: ['https://www.googleapis.com/auth/ndev.clouddns.readwrite'] },
    { id: PROJECT, numericId: '123456789012' },
  );
  dns = await startFakeCloudDns();
  dns.requireBearer((token) => metadata.issued(token));
  dns.addZone(PROJECT, { name: 'example-com', dnsName: 'example.com.' });
  // update's placeholders.
  for (const n of ['api', 'api.internal', 'kops-controller.internal']) dns.putRecord(PROJECT, 'example-com', { name: `${n}.${NAME}.`, type: 'A', ttl: 60, rrdatas: [PLACEHOLDER] });
});

afterAll(async () => {
  if (work) {
    releaseMounts(work);
    fs.rmSync(work, { recursive: true, force: true });
  }
  await dns?.stop();
  await metadata?.stop();
  await compute?.stop();
});

function pass() {
  return runProtokube({
    conf,
    root: path.join(work, 'root'),
    identity: {},
    deviceDir: path.join(work, 'dev'),
    deviceTimeoutMs: 5000,
    apiWaitMs: 1000,
    // No fixed token: protokube takes the service account's from the metadata server.
    env: { GCE_METADATA_HOST: metadata.host, CLOUDSDK_API_ENDPOINT_OVERRIDES_COMPUTE: `${compute.endpoint}/compute/v1/`, ...fakeCloudDnsEnv(dns) },
  });
}

const aRecords = (): Array<[string, string[]]> => dns.records(PROJECT, 'example-com').filter((r) => r.type === 'A').map((r) => [r.name, r.rrdatas]);
const mutations = (from: number) => dns.requests.slice(from).filter((r) => r.mutating).length;

it('publishes the control plane in Cloud DNS, replacing the placeholders, and a second pass changes nothing', async () => {
  const report = await pass();
  expect(report.dns).toBe('public');
  expect(report.members.map((m) => m.member)).toEqual(['a', 'a']);
  expect(aRecords()).toEqual([
    [`api.internal.${NAME}.`, ['127.0.1.21']],
    [`api.${NAME}.`, ['198.51.100.7']],
    [`etcd-a.internal.${NAME}.`, ['127.0.1.21']],
    [`etcd-events-a.internal.${NAME}.`, ['127.0.1.21']],
    [`kops-controller.internal.${NAME}.`, ['127.0.1.21']],
  ]);
  expect(summarizeReport(report)).toContain('names (Cloud DNS, public)');
  // Nothing in the hosts file: the names are in DNS.
  expect(fs.existsSync(path.join(work, 'root', 'etc/hosts'))).toBe(false);

  const before = dns.requests.length;
  await pass();
  expect(mutations(before)).toBe(0);
});

it('a record changed between the read and the change (412) is read again and the change remade', async () => {
  // The machine's external address changed (a stop and start): protokube must move api.<cluster>.
  compute.store.get(`projects/${PROJECT}/zones/${ZONE}/instances`, instance).networkInterfaces = [{ networkIP: '127.0.1.21', accessConfigs: [{ type: 'ONE_TO_ONE_NAT', natIP: '198.51.100.8' }] }];
  // Someone else rewrites api.<cluster> just before protokube's change arrives: its deletion no longer matches.
  dns.beforeNextChange(() => dns.putRecord(PROJECT, 'example-com', { name: `api.${NAME}.`, type: 'A', ttl: 300, rrdatas: ['192.0.2.1'] }));
  const before = dns.requests.length;
  await pass();
  // The refused change (412) and the remade one.
  expect(dns.requests.slice(before).filter((r) => r.mutating).map((r) => r.status)).toEqual([412, 200]);
  expect(aRecords()).toEqual([
    [`api.internal.${NAME}.`, ['127.0.1.21']],
    [`api.${NAME}.`, ['198.51.100.8']],
    [`etcd-a.internal.${NAME}.`, ['127.0.1.21']],
    [`etcd-events-a.internal.${NAME}.`, ['127.0.1.21']],
    [`kops-controller.internal.${NAME}.`, ['127.0.1.21']],
  ]);
});

it('api.<cluster> is at the internal IPs with a private topology, and not published with an API load balancer', async () => {
  const env = { CLOUDSDK_API_ENDPOINT_OVERRIDES_COMPUTE: `${compute.endpoint}/compute/v1/`, GCE_METADATA_HOST: metadata.host };
  const volumes = [{ id: 'd', etcdName: 'main', memberName: 'a', zone: ZONE, attachedTo: instance }];
  expect(await gceApiRecord({ subnets: [{ type: 'Private' }] }, NAME, PROJECT, volumes, env)).toEqual({ name: `api.${NAME}`, addresses: ['127.0.1.21'] });
  expect(await gceApiRecord({ subnets: [{ type: 'Public' }], api: { publicName: `k8s.${NAME}` } }, NAME, PROJECT, volumes, env)).toEqual({ name: `k8s.${NAME}`, addresses: ['198.51.100.8'] });
  expect(await gceApiRecord({ subnets: [{ type: 'Public' }], api: { loadBalancer: { type: 'Public' } } }, NAME, PROJECT, volumes, env)).toBeUndefined();
});
