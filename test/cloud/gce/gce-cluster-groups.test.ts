import type { Cluster, InstanceGroup } from '../../../src/api/types';
import { GceCloud } from '../../../src/cloud/gce/gce-cloud';
import { gceCloudProvider } from '../../../src/cloud/gce/gce-cloud-provider';
import { GCE_COLLECTIONS } from '../../../src/cloud/gce/gce-compute';
import { gceRollingUpdateCloud } from '../../../src/cloud/gce/gce-rolling-update-cloud';
import { checkInstanceGroups } from '../../../src/cluster-validation/cloud-checks';
import { FakeCompute, startFakeCompute } from '../../fakes/gce/compute-fake';
import { fakeGceEnv } from '../../fakes/gce/fake-gce-env';

// The GCE readers against the fake Compute API, in process: an instance group over two zones read as one
// group in two calls, a MIG with a recreate in progress (one more call, the member not InService), the API
// address (external before internal), and delete instancegroup over both zones, twice.

const NAME = 'two.example.com';
const SAFE = 'two-example-com';
let fake: FakeCompute;
let cloud: GceCloud;

beforeEach(async () => {
  fake = await startFakeCompute({ actionRequests: 10 });
  cloud = new GceCloud(NAME, 'p', 'us-central1', ['us-central1-a', 'us-central1-b'], fakeGceEnv(fake));
  const compute = await cloud.connectCompute();
  const labels = { 'k8s-io-cluster-name': SAFE, 'k8s-io-instance-group': 'nodes', 'k8s-io-role-node': 'node' };
  // Another cluster's template and MIG in the same project: never read as this cluster's.
  for (const [name, l] of [['nodes-two-example-com-0123abcd', labels], ['nodes-other-example-com-0123abcd', { ...labels, 'k8s-io-cluster-name': 'other-example-com' }]] as const) {
    await compute.insert(GCE_COLLECTIONS.instanceTemplates, undefined, { name, properties: { machineType: 'e2-medium', labels: l } });
  }
  await compute.insert(GCE_COLLECTIONS.instanceGroupManagers, 'us-central1-a', { name: `a-nodes-${SAFE}`, baseInstanceName: 'nodes', targetSize: 2, instanceTemplate: 'global/instanceTemplates/nodes-two-example-com-0123abcd' });
  await compute.insert(GCE_COLLECTIONS.instanceGroupManagers, 'us-central1-b', { name: `b-nodes-${SAFE}`, baseInstanceName: 'nodes', targetSize: 1, instanceTemplate: 'global/instanceTemplates/nodes-two-example-com-0123abcd' });
  await compute.insert(GCE_COLLECTIONS.instanceGroupManagers, 'us-central1-a', { name: 'a-nodes-other-example-com', baseInstanceName: 'nodes', targetSize: 1, instanceTemplate: 'global/instanceTemplates/nodes-other-example-com-0123abcd' });
});
afterEach(async () => {
  await cloud.compute.close();
  await fake.stop();
});

const readCalls = (): Record<string, number> => Object.fromEntries(Object.entries(cloud.calls.snapshot()).filter(([k]) => !/insert|operations/.test(k)));

it('an instance group over two zones is one group of its MIGs, read in two calls; a recreate in progress costs one more', async () => {
  const machines = gceCloudProvider.machines(cloud);
  const found = await machines.instances();
  expect(found.groups.map((g) => [g.name, g.instanceGroup, g.role, g.desired, g.members.map((m) => m.lifecycleState)])).toEqual([[`a-nodes-${SAFE},b-nodes-${SAFE}`, 'nodes', 'node', 3, ['InService', 'InService', 'InService']]]);
  expect(found.instances.map((i) => [i.zone, i.state, i.privateDnsName === i.instanceId])).toEqual(expect.arrayContaining([['us-central1-a', 'running', true], ['us-central1-b', 'running', true]]));
  expect(found.instances).toHaveLength(3);
  expect(readCalls()).toEqual({ 'instanceGroupManagers.aggregatedList': 1, 'instances.aggregatedList': 1 });
  // validate's check 2: the spec's minSize against the MIGs' summed target sizes (a MIG has no min and max).
  const ig = (minSize: number, maxSize = 10) => ({ apiVersion: 'kops.k8s.io/v1alpha2', kind: 'InstanceGroup', metadata: { name: 'nodes' }, spec: { role: 'Node', minSize, maxSize } }) as InstanceGroup;
  expect(checkInstanceGroups([ig(3)], found)).toEqual([]);
  expect(checkInstanceGroups([ig(4)], found).map((f) => f.message)).toEqual([`instance group "nodes" wants size 4, its managed instance group a-nodes-${SAFE},b-nodes-${SAFE} has 3`]);

  const inB = found.instances.find((i) => i.zone === 'us-central1-b')!.instanceId;
  await cloud.compute.method(GCE_COLLECTIONS.instanceGroupManagers, 'us-central1-b', 'recreateInstances', `b-nodes-${SAFE}`, { instanceGroupManagersRecreateInstancesRequestResource: { instances: [`zones/us-central1-b/instances/${inB}`] } });
  const during = await machines.instances();
  expect(during.groups[0].members.find((m) => m.instanceId === inB)?.lifecycleState).toBe('RECREATING');
  expect(during.instances.find((i) => i.instanceId === inB)?.stateReason).toBe(`its MIG b-nodes-${SAFE} is recreating it`);
  expect(readCalls()['instanceGroupManagers.listManagedInstances']).toBe(1);
  expect(checkInstanceGroups([ig(3)], during).map((f) => [f.message, f.cause])).toEqual([['instance group "nodes" has 2 of 3 instances InService', `${inB} RECREATING`]]);

  fake.setSerialPortOutput(`projects/p/zones/us-central1-b/instances/${inB}`, 'kforge-nodeup-stage: done\n');
  expect(await machines.consoleOutput(inB)).toBe('kforge-nodeup-stage: done\n');
});

it('reading 31 instances costs the same two calls as reading 3', async () => {
  await cloud.compute.method(GCE_COLLECTIONS.instanceGroupManagers, 'us-central1-a', 'resize', `a-nodes-${SAFE}`, { size: 30 });
  const before = cloud.calls.snapshot();
  const found = await gceCloudProvider.machines(cloud).instances();
  const after = cloud.calls.snapshot();
  expect(found.instances).toHaveLength(31);
  expect(Object.fromEntries(Object.keys(after).filter((k) => after[k] !== (before[k] ?? 0)).map((k) => [k, after[k] - (before[k] ?? 0)]))).toEqual({ 'instanceGroupManagers.aggregatedList': 1, 'instances.aggregatedList': 1 });
});

it('the API address is the external api rule\'s IP, else an internal one\'s; none before the load balancer exists', async () => {
  expect(await gceCloudProvider.apiLoadBalancerDnsName(cloud, NAME)).toBeUndefined();
  const compute = cloud.compute;
  await compute.insert(GCE_COLLECTIONS.forwardingRules, 'us-central1', { name: `api-us-central1-${SAFE}`, IPAddress: '10.0.16.5', loadBalancingScheme: 'INTERNAL', labels: { 'k8s-io-cluster-name': SAFE } });
  // Another cluster's rule with a lower address.
  await compute.insert(GCE_COLLECTIONS.forwardingRules, 'us-central1', { name: 'api-other-example-com', IPAddress: '1.1.1.1', loadBalancingScheme: 'EXTERNAL', labels: { 'k8s-io-cluster-name': 'other-example-com' } });
  expect(await gceCloudProvider.apiLoadBalancerDnsName(cloud, NAME)).toBe('10.0.16.5');
  await compute.insert(GCE_COLLECTIONS.forwardingRules, 'us-central1', { name: `api-${SAFE}`, IPAddress: '34.9.9.9', loadBalancingScheme: 'EXTERNAL', labels: { 'k8s-io-cluster-name': SAFE } });
  expect(await gceCloudProvider.apiLoadBalancerDnsName(cloud, NAME)).toBe('34.9.9.9');
});

it('delete instancegroup deletes its MIG in each zone, then its template, leaving another cluster\'s; a re-run deletes nothing', async () => {
  const cluster = { apiVersion: 'kops.k8s.io/v1alpha2', kind: 'Cluster', metadata: { name: NAME }, spec: {} } as Cluster;
  const group = { apiVersion: 'kops.k8s.io/v1alpha2', kind: 'InstanceGroup', metadata: { name: 'nodes' }, spec: { role: 'Node', zones: ['us-central1-a', 'us-central1-b'] } } as InstanceGroup;
  const deleted = await gceCloudProvider.deleteInstanceGroup(cloud, cluster, group, 'nodes');
  expect(deleted).toEqual([`InstanceGroupManager a-nodes-${SAFE}`, `InstanceGroupManager b-nodes-${SAFE}`, 'InstanceTemplate nodes-two-example-com-0123abcd']);
  expect(fake.inventory().filter((r) => !r.includes('/instances/'))).toEqual(['projects/p/global/instanceTemplates/nodes-other-example-com-0123abcd', 'projects/p/zones/us-central1-a/instanceGroupManagers/a-nodes-other-example-com']);
  expect(fake.inventory().filter((r) => r.includes('/instances/'))).toHaveLength(1);
  // The MIGs went before the template (GCE refuses to delete a template a MIG uses).
  const order = fake.requests.filter((r) => r.rpc.endsWith('.Delete')).map((r) => r.rpc);
  expect(order).toEqual(['InstanceGroupManagers.Delete', 'InstanceGroupManagers.Delete', 'InstanceTemplates.Delete']);
  expect(await gceCloudProvider.deleteInstanceGroup(cloud, cluster, group, 'nodes')).toEqual([]);
});

it('a recreateInstances whose answer was lost is sent again with its requestId: the instance is recreated once', async () => {
  const [instance] = (await gceCloudProvider.machines(cloud).instances()).instances.filter((i) => i.zone === 'us-central1-b');
  const before = fake.requests.length;
  fake.loseAnswers(1, (p) => p.endsWith('/recreateInstances'));
  await gceRollingUpdateCloud(cloud).terminate(instance.instanceId);
  expect(fake.lostAnswers()).toBe(1);
  const sent = fake.requests.slice(before).filter((r) => r.rpc.endsWith('.RecreateInstances'));
  // Asked twice (the answer was lost), the same request both times: GCE acts on the first only.
  expect(sent).toHaveLength(2);
  // (a repeated requestId returns the first operation: test/fakes/gce/compute-fake.test.ts).
  const ids = sent.map((r) => new URLSearchParams(r.query).get('requestId'));
  expect(ids[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4/);
  expect(ids[1]).toBe(ids[0]);
  // A later recreate of another instance is a new request.
  const [other] = (await gceCloudProvider.machines(cloud).instances()).instances.filter((i) => i.zone === 'us-central1-a');
  const mark = fake.requests.length;
  await gceRollingUpdateCloud(cloud).terminate(other.instanceId);
  const next = fake.requests.slice(mark).filter((r) => r.rpc.endsWith('.RecreateInstances')).map((r) => new URLSearchParams(r.query).get('requestId'));
  expect(next).toHaveLength(1);
  expect(next[0]).not.toBe(ids[0]);
});
