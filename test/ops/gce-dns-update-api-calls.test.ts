import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { newCluster } from '../../src/create/new-cluster';
import { saveCluster } from '../../src/ops/save-cluster';
import { updateCluster } from '../../src/ops/update-cluster';
import { openVfs } from '../../src/state/vfs/open-vfs';
import { FakeCompute, startFakeCompute } from '../fakes/gce/compute-fake';
import { fakeCloudDnsEnv, FakeCloudDns, FakeZone, startFakeCloudDns } from '../fakes/gce/cloud-dns-fake';
import { fakeGceEnv } from '../fakes/gce/fake-gce-env';

// The Cloud DNS calls of a no-op update of a GCE cluster with DNS: the zone is resolved once per run and each
// of kops's three placeholder names read once (rrsets list by name and type), whatever the number of
// instance groups; nothing mutating.

let compute: FakeCompute;
let dns: FakeCloudDns;
let zone: FakeZone;
const dirs: string[] = [];

beforeAll(async () => {
  compute = await startFakeCompute();
  dns = await startFakeCloudDns();
  zone = dns.addZone('p', { name: 'example-com', dnsName: 'example.com.' });
});
afterAll(async () => {
  await dns.stop();
  await compute.stop();
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

async function noopDnsCalls(groups: number): Promise<{ mutating: number; dns: Record<string, number> }> {
  const name = `d${groups}.example.com`;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kforge-gce-dns-calls-'));
  dirs.push(dir);
  const vfs = openVfs(dir);
  const planned = newCluster({ name, zones: ['us-central1-a'], cloud: 'gce', dns: 'public', dnsZone: zone.id });
  planned.cluster.spec.project = 'p';
  const template = planned.instanceGroups.find((ig) => ig.spec.role === 'Node')!;
  for (let i = 1; i < groups; i++) planned.instanceGroups.push({ ...template, metadata: { ...template.metadata, name: `extra-${String(i).padStart(2, '0')}` } });
  await saveCluster(vfs, { cluster: planned.cluster, instanceGroups: planned.instanceGroups });
  const env = { ...process.env, KFORGE_ALLOW_LOCAL_STATE_FOR_NODES: 'test-only', ...fakeGceEnv(compute), ...fakeCloudDnsEnv(dns) };
  const lock = { command: 'test', forceUnlock: false, ttlSeconds: 300 };
  expect((await updateCluster(vfs, name, { yes: true, lock, env })).applied).toBe(true);
  const noop = await updateCluster(vfs, name, { yes: false, lock, env });
  expect(noop.cloudPlan.hasChanges).toBe(false);
  const byOperation = noop.cloud.calls.snapshot();
  return { mutating: noop.cloud.calls.mutating, dns: Object.fromEntries(Object.entries(byOperation).filter(([k]) => k.startsWith('dns.'))) };
}

it('a no-op update reads the zone once and each placeholder once, for 1 and for 20 instance groups', async () => {
  const one = await noopDnsCalls(1);
  const twenty = await noopDnsCalls(20);
  expect(one).toEqual({ mutating: 0, dns: { 'dns.managedZones.get': 1, 'dns.resourceRecordSets.list': 3 } });
  expect(twenty).toEqual(one);
});
