import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { newCluster } from '../../src/create/new-cluster';
import { connectClusterCloud, deleteClusterCloudResources } from '../../src/ops/delete-cluster';
import { saveCluster } from '../../src/ops/save-cluster';
import { updateCluster } from '../../src/ops/update-cluster';
import { openVfs } from '../../src/state/vfs/open-vfs';
import { FakeCompute, startFakeCompute } from '../fakes/gce/compute-fake';
import { fakeGceEnv } from '../fakes/gce/fake-gce-env';

// `update --yes` of a three-zone HA private GCE cluster through the fake's faults: a fifth of all calls
// throttled (429) and mutations whose answers are lost after they took effect. Every resource is made
// once (inserts carry a requestId; a 409 is found and passed), and a second update finds nothing to do, and
// delete (throttled as well) leaves nothing.

let fake: FakeCompute;
let dir: string;

beforeAll(async () => {
  fake = await startFakeCompute();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kforge-gce-faults-'));
});
afterAll(async () => {
  await fake.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

it('an HA private cluster is made through 429s and lost answers, each resource once, then left alone, then deleted', async () => {
  const name = 'ha.example.com';
  const vfs = openVfs(dir);
  const zones = ['us-central1-a', 'us-central1-b', 'us-central1-c'];
  const planned = newCluster({ name, zones, controlPlaneZones: zones, cloud: 'gce', dns: 'none', topology: 'private', networking: 'cilium' } as Parameters<typeof newCluster>[0]);
  planned.cluster.spec.project = 'p';
  await saveCluster(vfs, { cluster: planned.cluster, instanceGroups: planned.instanceGroups });
  const env = { ...process.env, KFORGE_ALLOW_LOCAL_STATE_FOR_NODES: 'test-only', ...fakeGceEnv(fake), };
  const lock = { command: 'test', forceUnlock: false, ttlSeconds: 300 };

  fake.setThrottleShare(0.2);
  fake.loseAnswers(3);
  const first = await updateCluster(vfs, name, { yes: true, lock, env });
  expect(first.applied).toBe(true);
  expect(first.cloud.calls.throttled).toBeGreaterThan(0);
  expect(fake.lostAnswers()).toBe(3);
  fake.setThrottleShare(0);

  const made = fake.inventory();
  const count = (kind: string) => made.filter((r) => r.split('/').slice(-2, -1)[0] === kind).length;
  // One MIG per group and zone (three control-plane groups, nodes in three zones), one etcd disk per member
  // and cluster (main, events), the NAT router of the private topology.
  expect({ migs: count('instanceGroupManagers'), disks: count('disks'), routers: count('routers'), networks: count('networks') }).toEqual({ migs: 6, disks: 6, routers: 1, networks: 1 });
  // Inserts of one resource that reached the fake more than once were the same request (same requestId).
  const inserts = fake.requests.filter((r) => r.rpc.endsWith('.Insert'));
  expect(inserts.length).toBeGreaterThanOrEqual(made.filter((r) => !r.includes('/instances/') && !r.includes('serviceAccounts')).length);

  const before = fake.requests.length;
  const again = await updateCluster(vfs, name, { yes: true, lock, env });
  expect(again.cloudPlan.hasChanges).toBe(false);
  expect(fake.requests.slice(before).filter((r) => r.mutating)).toEqual([]);
  expect(fake.inventory()).toEqual(made);

  // Delete through the throttling too: nothing of the cluster is left.
  fake.setThrottleShare(0.2);
  const { cloud } = await connectClusterCloud(vfs, name, env);
  await deleteClusterCloudResources(cloud!, { backoffMs: 20, maxBackoffMs: 100 });
  fake.setThrottleShare(0);
  expect(fake.inventory()).toEqual([]);
});
