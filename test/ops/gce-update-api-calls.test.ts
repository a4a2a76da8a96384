import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { newCluster } from '../../src/create/new-cluster';
import { saveCluster } from '../../src/ops/save-cluster';
import { updateCluster } from '../../src/ops/update-cluster';
import { openVfs } from '../../src/state/vfs/open-vfs';
import { FakeCompute, startFakeCompute } from '../fakes/gce/compute-fake';
import { fakeGceEnv } from '../fakes/gce/fake-gce-env';

// The GCE API calls of a no-op update (a plan that finds everything in place), for 1 and for 20 node
// instance groups: find reads one list per collection and scope, so the count is flat and within the
// AWS target of 30. bench/gce-update-api-calls.js prints the same figures with wall times.

let fake: FakeCompute;
const dirs: string[] = [];

beforeAll(async () => {
  fake = await startFakeCompute();
});
afterAll(async () => {
  await fake.stop();
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

async function noopCalls(groups: number): Promise<{ calls: number; mutating: number; byOperation: Record<string, number> }> {
  const name = `g${groups}.example.com`;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kforge-gce-calls-'));
  dirs.push(dir);
  const vfs = openVfs(dir);
  const planned = newCluster({ name, zones: ['us-central1-a'], cloud: 'gce', dns: 'none' });
  planned.cluster.spec.project = `p${groups}`;
  const template = planned.instanceGroups.find((ig) => ig.spec.role === 'Node')!;
  for (let i = 1; i < groups; i++) planned.instanceGroups.push({ ...template, metadata: { ...template.metadata, name: `extra-${String(i).padStart(2, '0')}` } });
  await saveCluster(vfs, { cluster: planned.cluster, instanceGroups: planned.instanceGroups });
  const env = { ...process.env, KFORGE_ALLOW_LOCAL_STATE_FOR_NODES: 'test-only', ...fakeGceEnv(fake), };
  const lock = { command: 'test', forceUnlock: false, ttlSeconds: 300 };
  const first = await updateCluster(vfs, name, { yes: true, lock, env });
  expect(first.applied).toBe(true);
  const noop = await updateCluster(vfs, name, { yes: false, lock, env });
  expect(noop.cloudPlan.hasChanges).toBe(false);
  expect(noop.orphans).toEqual([]);
  return { calls: noop.cloud.calls.calls, mutating: noop.cloud.calls.mutating, byOperation: noop.cloud.calls.snapshot() };
}

it('a no-op update makes the same few GCE calls for 1 and for 20 instance groups, none mutating', async () => {
  const one = await noopCalls(1);
  const twenty = await noopCalls(20);
  expect(one.mutating).toBe(0);
  expect(twenty.byOperation).toEqual(one.byOperation);
  expect(one.calls).toBeLessThanOrEqual(30);
  process.stdout.write(`GCE no-op update: 1 group ${one.calls} calls, 20 groups ${twenty.calls} calls ${JSON.stringify(one.byOperation)}\n`);
});
