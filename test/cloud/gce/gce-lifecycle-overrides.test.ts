import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { newCluster } from '../../../src/create/new-cluster';
import { UsageError } from '../../../src/errors/usage-error';
import { saveCluster } from '../../../src/ops/save-cluster';
import { updateCluster, UpdateClusterOptions } from '../../../src/ops/update-cluster';
import { openVfs } from '../../../src/state/vfs/open-vfs';
import { FakeCompute, startFakeCompute } from '../../fakes/gce/compute-fake';
import { fakeGceEnv } from '../../fakes/gce/fake-gce-env';

// `--lifecycle-overrides` on GCE takes kops's gcetasks names (FirewallRule, Subnet…), parsed against the
// cluster's cloud: an AWS kind on a GCE cluster is a usage error listing GCE's kinds, with nothing written
// or called; `FirewallRule=Ignore` creates everything but the firewall rules.

let fake: FakeCompute;
let dir: string;

beforeAll(async () => {
  fake = await startFakeCompute();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kforge-gce-lifecycle-'));
});
afterAll(async () => {
  await fake.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

const NAME = 'lc.example.com';
const lock = { command: 'test', forceUnlock: false, ttlSeconds: 300 };
const run = (o: Partial<UpdateClusterOptions>): ReturnType<typeof updateCluster> =>
  updateCluster(openVfs(dir), NAME, {
    yes: false,
    lock,
    env: { ...process.env, KFORGE_ALLOW_LOCAL_STATE_FOR_NODES: 'test-only', ...fakeGceEnv(fake), },
    ...o,
  });

const files = (): string[] => (fs.readdirSync(dir, { recursive: true }) as string[]).sort();

it('refuses an AWS kind on a GCE cluster, naming GCE kinds, before any call or write', async () => {
  const planned = newCluster({ name: NAME, zones: ['us-central1-a'], cloud: 'gce', dns: 'none' });
  planned.cluster.spec.project = 'p';
  await saveCluster(openVfs(dir), { cluster: planned.cluster, instanceGroups: planned.instanceGroups });
  const before = files();
  const calls = fake.requests.length;
  const err = await run({ yes: true, lifecycleOverrides: ['IAMRole=Ignore'] }).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(UsageError);
  expect((err as Error).message).toMatch(/^--lifecycle-overrides: unknown task kind "IAMRole" in "IAMRole=Ignore"; valid kinds: Address, BackendService, DNSRecord, Disk, FirewallRule, /);
  expect(fake.requests.length).toBe(calls);
  expect(files()).toEqual(before);
});

it('with FirewallRule=Ignore creates everything but the firewall rules, held back in the plan', async () => {
  const r = await run({ yes: true, lifecycleOverrides: ['FirewallRule=Ignore'] });
  expect(r.applied).toBe(true);
  expect(fake.store.list('projects/p/global/firewalls')).toEqual([]);
  expect(fake.store.list('projects/p/global/networks')).toHaveLength(1);
  // The plan holds the rules back (Ignore: missing, not created), which the report prints.
  const held = r.cloudPlan.entries.filter((e) => e.task.kind === 'FirewallRule');
  expect(held.length).toBeGreaterThan(5);
  expect(held.every((e) => e.action === 'none' && e.held === 'create' && e.lifecycle === 'Ignore')).toBe(true);
  // Without the override the rules are planned.
  const plan = await run({});
  expect(plan.cloudPlan.entries.filter((e) => e.task.kind === 'FirewallRule' && e.action === 'create').length).toBeGreaterThan(5);
});
