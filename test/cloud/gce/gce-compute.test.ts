import { GceCloud } from '../../../src/cloud/gce/gce-cloud';
import { GCE_COLLECTIONS } from '../../../src/cloud/gce/gce-compute';
import { classifyGceError } from '../../../src/cloud/gce/gce-errors';
import { GceDiskTask } from '../../../src/cloud/gce/tasks/gce-disk-task';
import { GceNetworkTask } from '../../../src/cloud/gce/tasks/gce-network-task';
import { FakeCompute, startFakeCompute } from '../../fakes/gce/compute-fake';

// The Compute client and the tasks' apply against the fake: 409 is found and passed, a stale label
// fingerprint (412) is retryable, operation errors and lost connections are classified.

let fake: FakeCompute;

beforeEach(async () => {
  fake = await startFakeCompute();
});
afterEach(async () => {
  await fake.stop();
});

async function connect(): Promise<GceCloud> {
  const cloud = new GceCloud('c.example.com', 'p', 'us-central1', ['us-central1-a'], { CLOUDSDK_API_ENDPOINT_OVERRIDES_COMPUTE: `${fake.endpoint}/compute/v1/`, CLOUDSDK_API_ENDPOINT_OVERRIDES_IAM: `${fake.endpoint}/`,
    CLOUDSDK_API_ENDPOINT_OVERRIDES_CLOUDRESOURCEMANAGER: `${fake.endpoint}/`, CLOUDSDK_AUTH_ACCESS_TOKEN: 't' });
  await cloud.connectCompute();
  return cloud;
}

it('a create that finds the name taken (409) goes on: the resource exists once', async () => {
  const cloud = await connect();
  const net = new GceNetworkTask('c-example-com', { mode: 'custom', shared: false });
  expect(await net.find(cloud)).toBeUndefined();
  // Made by someone else between the plan and the apply.
  await new GceNetworkTask('c-example-com', { mode: 'custom', shared: false }).apply(cloud, undefined, []);
  await net.apply(cloud, undefined, []);
  expect(fake.inventory()).toEqual(['projects/p/global/networks/c-example-com']);
  expect(fake.requests.filter((r) => r.rpc === 'Networks.Insert')).toHaveLength(2);
  expect(await net.find(cloud)).toEqual({ mode: 'custom', shared: false });
});

it('labels are set with the current fingerprint; a stale one is 412, which the executor retries', async () => {
  const cloud = await connect();
  const disk = new GceDiskTask('a-etcd-main-c-example-com', { zone: 'us-central1-a', sizeGb: 20, type: 'pd-ssd', labels: { a: '1' }, provisionedIops: undefined, provisionedThroughput: undefined });
  await disk.apply(cloud, undefined, []);
  const changed = new GceDiskTask(disk.name, { ...disk.desired, labels: { a: '2' } });
  const actual = await changed.find(cloud);
  await changed.apply(cloud, actual, changed.diff(actual));
  expect(fake.store.get('projects/p/zones/us-central1-a/disks', disk.name).labels).toEqual({ a: '2' });
  const stale = await cloud.compute.method(GCE_COLLECTIONS.disks, 'us-central1-a', 'setLabels', disk.name, { resource: disk.name, zoneSetLabelsRequestResource: { labels: {}, labelFingerprint: 'stale' } }).catch((e: unknown) => e);
  expect(classifyGceError(stale)).toBe('precondition-failed');
});

it('an operation that fails is thrown with its error classified; a lost answer is retried under the same requestId', async () => {
  const cloud = await connect();
  const net = new GceNetworkTask('n', { mode: 'custom', shared: false });
  fake.loseAnswers(1);
  await net.apply(cloud, undefined, []);
  expect(fake.lostAnswers()).toBe(1);
  expect(fake.inventory()).toEqual(['projects/p/global/networks/n']);
  const inserts = fake.requests.filter((r) => r.rpc === 'Networks.Insert');
  expect(inserts).toHaveLength(2);
  expect(new URLSearchParams(inserts[1].query).get('requestId')).toBe(new URLSearchParams(inserts[0].query).get('requestId'));
  // Deleting a network its firewall rule uses: GCE refuses, in use.
  await cloud.compute.insert(GCE_COLLECTIONS.firewalls, undefined, { name: 'fw', network: 'global/networks/n', allowed: [{ IPProtocol: 'tcp' }] });
  const refused = await cloud.compute.delete(GCE_COLLECTIONS.networks, undefined, 'n').catch((e: unknown) => e);
  expect(classifyGceError(refused)).toBe('in-use');
  expect(cloud.calls.mutating).toBe(3);
});
