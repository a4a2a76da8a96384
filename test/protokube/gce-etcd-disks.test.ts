import { DisksClient, GlobalOperationsClient, InstanceGroupManagersClient, InstanceTemplatesClient, ZoneOperationsClient } from '@google-cloud/compute';
import { newCluster } from '../../src/create/new-cluster';
import { buildGceEtcdDiskTasks } from '../../src/model/gce/etcd-disk-model-builder';
import { GceNames } from '../../src/model/gce/gce-names';
import { completeCluster } from '../../src/ops/expand-cluster';
import { GceComputeRest } from '../../src/protokube/gce-compute-rest';
import { claimGceDisk, decodeGceLabel, listGceEtcdDisks } from '../../src/protokube/gce-etcd-disks';
import { FakeCompute, startFakeCompute } from '../fakes/gce/compute-fake';
import { fakeComputeClientOptions } from '../fakes/gce/fake-compute-client-options';
import { FakeGceMetadata, startFakeGceMetadata } from '../fakes/gce/fake-gce-metadata';

// protokube's GCE disk calls (its small REST client, with the fake metadata server's token) against the fake
// Compute API, set up through the real @google-cloud/compute client:
// the disks are the model's (kops's labels), two control-plane instances race for one disk, and the disk's
// answer decides: exactly one wins, the other is told who holds it.

const NAME = 'disks.example.com';
const PROJECT = 'p';
const ZONE = 'us-central1-a';
let fake: FakeCompute;
let metadata: FakeGceMetadata;
let scope: GceComputeRest;

beforeAll(async () => {
  fake = await startFakeCompute();
  const options = fakeComputeClientOptions(fake.port) as ConstructorParameters<typeof DisksClient>[0];
  metadata = await startFakeGceMetadata({ id: '1', name: 'cp', zone: ZONE, internalIp: '10.0.16.2', attributes: {}, serviceAccountEmail: 'cp@p.iam.gserviceaccount.com', scopes: [] }, { id: PROJECT, numericId: '1' });
  scope = new GceComputeRest(PROJECT, ZONE, { CLOUDSDK_API_ENDPOINT_OVERRIDES_COMPUTE: `${fake.endpoint}/compute/v1/`, GCE_METADATA_HOST: metadata.host });
  const made = newCluster({ name: NAME, zones: [ZONE], cloud: 'gce' });
  const completed = completeCluster(made.cluster, made.instanceGroups, 'memfs://t');
  const disks = new DisksClient(options);
  const zoneOps = new ZoneOperationsClient(options);
  for (const t of buildGceEtcdDiskTasks(completed, made.instanceGroups)) {
    const [op] = await disks.insert({ project: PROJECT, zone: t.desired.zone, diskResource: { name: t.name, sizeGb: String(t.desired.sizeGb), type: `zones/${t.desired.zone}/diskTypes/${t.desired.type}`, labels: t.desired.labels } });
    await zoneOps.wait({ project: PROJECT, zone: t.desired.zone, operation: op.name! });
  }
  // Two control-plane instances (a MIG of two), racing for the same member's disk.
  const [t] = await new InstanceTemplatesClient(options).insert({ project: PROJECT, instanceTemplateResource: { name: 'cp', properties: { machineType: 'e2-medium' } } });
  await new GlobalOperationsClient(options).wait({ project: PROJECT, operation: t.name! });
  const [m] = await new InstanceGroupManagersClient(options).insert({ project: PROJECT, zone: ZONE, instanceGroupManagerResource: { name: 'cp', baseInstanceName: 'cp', targetSize: 2, instanceTemplate: 'global/instanceTemplates/cp' } });
  await zoneOps.wait({ project: PROJECT, zone: ZONE, operation: m.name! });
});

afterAll(async () => {
  await metadata?.stop();
  await fake?.stop();
});

it('decodes kops label values', () => {
  expect(decodeGceLabel(GceNames.encodeLabel('us-central1-a/us-central1-a'))).toBe('us-central1-a/us-central1-a');
});

it('finds the zone\'s etcd disks by kops\'s labels, claims one per racer, and the disk decides', async () => {
  const found = await listGceEtcdDisks(scope, GceNames.safeClusterName(NAME));
  expect(found.map((d) => [d.etcdName, d.memberName, d.attachedTo])).toEqual([
    ['events', 'a', undefined],
    ['main', 'a', undefined],
  ]);
  // Another cluster's name finds nothing.
  expect(await listGceEtcdDisks(scope, 'other-example-com')).toEqual([]);

  const instances = fake.inventory().filter((r) => r.includes('/instances/')).map((r) => r.slice(r.lastIndexOf('/') + 1)).sort();
  expect(instances).toHaveLength(2);
  const main = found.find((d) => d.etcdName === 'main')!;
  const results = await Promise.all(instances.map((i) => claimGceDisk(scope, main, i)));
  const winners = results.map((r, i) => (r.won ? instances[i] : undefined)).filter(Boolean);
  expect(winners).toHaveLength(1);
  const loser = results.find((r) => !r.won);
  expect(loser).toEqual({ won: false, reason: expect.stringContaining(main.id) });
  expect(results.find((r) => r.won)).toEqual({ won: true, device: main.id });

  const after = await listGceEtcdDisks(scope, GceNames.safeClusterName(NAME));
  expect(after.find((d) => d.id === main.id)).toMatchObject({ attachedTo: winners[0], device: main.id });
  // A claim of a held disk by the holder's rival is lost at once, with the disk unchanged.
  const rival = instances.find((i) => i !== winners[0])!;
  expect(await claimGceDisk(scope, main, rival)).toEqual({ won: false, reason: expect.stringContaining(main.id) });
  expect((await listGceEtcdDisks(scope, GceNames.safeClusterName(NAME))).find((d) => d.id === main.id)?.attachedTo).toBe(winners[0]);
});
