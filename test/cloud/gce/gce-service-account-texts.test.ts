import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { newCluster } from '../../../src/create/new-cluster';
import { saveCluster } from '../../../src/ops/save-cluster';
import { updateCluster } from '../../../src/ops/update-cluster';
import { openVfs } from '../../../src/state/vfs/open-vfs';
import { FakeCompute, startFakeCompute } from '../../fakes/gce/compute-fake';
import { fakeGceEnv } from '../../fakes/gce/fake-gce-env';

// A service account whose texts were changed outside kforge (the console) is planned as a modification, and
// `update --yes` sends IAM's serviceAccounts.patch with a mask of exactly the changed fields; the account
// keeps its id and email, and the next plan finds nothing to do.

let fake: FakeCompute;
let dir: string;

beforeAll(async () => {
  fake = await startFakeCompute();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kforge-gce-sa-'));
});
afterAll(async () => {
  await fake.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

it('puts back a service account description changed outside kforge with one patch', async () => {
  const name = 'sa.example.com';
  const vfs = openVfs(dir);
  const planned = newCluster({ name, zones: ['us-central1-a'], cloud: 'gce', dns: 'none' });
  planned.cluster.spec.project = 'p';
  await saveCluster(vfs, { cluster: planned.cluster, instanceGroups: planned.instanceGroups });
  const env = { ...process.env, KFORGE_ALLOW_LOCAL_STATE_FOR_NODES: 'test-only', ...fakeGceEnv(fake), };
  const lock = { command: 'test', forceUnlock: false, ttlSeconds: 300 };
  expect((await updateCluster(vfs, name, { yes: true, lock, env })).applied).toBe(true);

  const account = [...fake.iam.accounts.values()].find((a) => a.email.startsWith('node-'))!;
  const want = { description: account.description, displayName: account.displayName };
  account.description = 'edited in the console';
  const uniqueId = account.uniqueId;

  const plan = await updateCluster(vfs, name, { yes: false, lock, env });
  expect(plan.cloudPlan.hasChanges).toBe(true);

  const from = fake.requests.length;
  await updateCluster(vfs, name, { yes: true, lock, env });
  const sent = fake.requests.slice(from).filter((r) => r.mutating).map((r) => `${r.method} ${r.path}`);
  expect(sent).toEqual([expect.stringMatching(/PATCH \/v1\/projects\/p\/serviceAccounts\/node-/)]);
  const after = fake.iam.accounts.get(account.email)!;
  expect({ description: after.description, displayName: after.displayName, uniqueId: after.uniqueId }).toEqual({ ...want, uniqueId });

  expect((await updateCluster(vfs, name, { yes: false, lock, env })).cloudPlan.hasChanges).toBe(false);
});
