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

it('creates the accounts, binds the role and patches a text once each when every IAM answer is lost', async () => {
  const name = 'sa-lost.example.com';
  const vfs = openVfs(dir);
  const planned = newCluster({ name, zones: ['us-central1-a'], cloud: 'gce', dns: 'none' });
  planned.cluster.spec.project = 'q';
  await saveCluster(vfs, { cluster: planned.cluster, instanceGroups: planned.instanceGroups });
  const env = { ...process.env, KFORGE_ALLOW_LOCAL_STATE_FOR_NODES: 'test-only', ...fakeGceEnv(fake) };
  const lock = { command: 'test', forceUnlock: false, ttlSeconds: 300 };
  const iamWrites = (): string[] => fake.requests.filter((r) => r.rpc === 'IAM' && r.mutating && r.path.includes('/projects/q')).map((r) => `${r.method} ${r.path}`);

  // Every IAM write (the two creates, the policy write) is applied and its answer lost; each is asked again
  // and found done.
  fake.loseAnswers(3, (p) => p.startsWith('/v1/projects/q'));
  expect((await updateCluster(vfs, name, { yes: true, lock, env, backoffMs: 5 })).applied).toBe(true);
  fake.loseAnswers(0);
  const writes = iamWrites();
  const creates = writes.filter((w) => w === 'POST /v1/projects/q/serviceAccounts');
  const policySets = writes.filter((w) => w === 'POST /v1/projects/q:setIamPolicy');
  // Both creates were sent again after a lost answer (4 sends for 2 accounts), and so was the policy write.
  expect({ creates: creates.length >= 4, policySets: policySets.length >= 2 }).toEqual({ creates: true, policySets: true });
  const accounts = [...fake.iam.accounts.values()].filter((a) => a.projectId === 'q');
  expect(accounts.map((a) => a.email.split('-')[0]).sort()).toEqual(['control', 'node']);
  const cp = accounts.find((a) => a.email.startsWith('control-plane-'))!;
  expect(fake.iam.policies.get('q')?.bindings).toEqual([{ role: 'roles/container.serviceAgent', members: [`serviceAccount:${cp.email}`] }]);
  expect((await updateCluster(vfs, name, { yes: false, lock, env })).cloudPlan.hasChanges).toBe(false);

  // A text changed outside kforge, patched back with its answer lost: the retry patches the same text again.
  cp.description = 'edited';
  const want = 'kubernetes control-plane instances';
  fake.loseAnswers(1, (p) => p.startsWith('/v1/projects/q/serviceAccounts/'));
  await updateCluster(vfs, name, { yes: true, lock, env, backoffMs: 5 });
  expect(fake.lostAnswers()).toBeGreaterThanOrEqual(4);
  expect(iamWrites().filter((w) => w.startsWith('PATCH ')).length).toBe(2);
  expect(fake.iam.accounts.get(cp.email)?.description).toBe(want);
  expect((await updateCluster(vfs, name, { yes: false, lock, env })).cloudPlan.hasChanges).toBe(false);
});

