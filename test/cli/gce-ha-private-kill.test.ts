import * as fs from 'node:fs';
import * as path from 'node:path';
import { CliResult, runCliAsync, startCli, tempDir } from '../helpers/cli';
import { FakeCompute, startFakeCompute } from '../fakes/gce/compute-fake';
import { gceCliEnv } from '../helpers/gce-cli-env';

// Issue 21's acceptance for the three-zone HA private cluster through the CLI: `update --yes` killed
// (SIGKILL) at three points while the fake throttles a tenth of the calls and loses answers, then run to
// the end, makes each resource once; a plain update then says "No changes", a second --yes makes no
// mutating call, a machine-type edit leaves one template per group with the MIGs on the new ones, and
// delete leaves nothing of the cluster and no state.

const NAME = 'ha-kill.example.com';
const ZONES = 'us-central1-a,us-central1-b,us-central1-c';
let home: string;
let store: string;
let fake: FakeCompute;

beforeAll(async () => {
  home = tempDir('kforge-gce-ha-kill-');
  store = `file://${path.join(home, 'store')}`;
  fs.mkdirSync(path.join(home, 'store'));
  fake = await startFakeCompute();
});

afterAll(async () => {
  await fake?.stop();
  if (home) fs.rmSync(home, { recursive: true, force: true });
});

const env = (): NodeJS.ProcessEnv => gceCliEnv(home, fake);
const kforge = (args: string[]): Promise<CliResult> => runCliAsync([...args, '--state', store], env());
const mutating = (): number => fake.requests.filter((r) => r.mutating).length;
const kinds = (): Record<string, number> =>
  fake.inventory().reduce<Record<string, number>>((acc, r) => {
    const kind = r.split('/').slice(-2, -1)[0];
    return { ...acc, [kind]: (acc[kind] ?? 0) + 1 };
  }, {});

jest.setTimeout(300_000);

it('an HA private cluster survives SIGKILLs, throttling and lost answers: each resource once, then nothing to do, then a new template per group, then nothing left', async () => {
  const created = await kforge(['create', 'cluster', NAME, '--cloud', 'gce', '--project', 'p', '--zones', ZONES, '--control-plane-zones', ZONES, '--topology', 'private', '--networking', 'cilium', '--dns', 'none']);
  expect({ status: created.status, stderr: created.stderr }).toEqual({ status: 0, stderr: expect.anything() });

  fake.setThrottleShare(0.1);
  fake.loseAnswers(4);
  for (const after of [1, 20, 45]) {
    const started = startCli(['update', 'cluster', NAME, '--yes', '--state', store], env());
    // Killed once the fake has received that many mutations in all (the run may have more in flight).
    while (!started.finished() && mutating() < after) await new Promise((r) => setTimeout(r, 5));
    if (!started.finished()) process.kill(started.pid, 'SIGKILL');
    expect((await started.done).status).not.toBe(0);
  }
  const finished = await kforge(['update', 'cluster', NAME, '--yes']);
  expect({ status: finished.status, stderr: finished.stderr }).toEqual({ status: 0, stderr: expect.not.stringContaining('Error') });
  fake.setThrottleShare(0);

  // Three control-plane groups and three node groups (one per zone): a MIG and a template each, an etcd disk
  // per member and cluster, one NAT router for the private subnetwork, two service accounts.
  const made = kinds();
  expect(made).toEqual(expect.objectContaining({ networks: 1, subnetworks: 1, routers: 1, instanceGroupManagers: 6, instanceTemplates: 6, disks: 6, serviceAccounts: 2 }));

  const plan = await kforge(['update', 'cluster', NAME]);
  expect({ status: plan.status, stdout: plan.stdout }).toEqual({ status: 0, stdout: expect.stringContaining('No changes') });
  const before = mutating();
  expect((await kforge(['update', 'cluster', NAME, '--yes'])).status).toBe(0);
  expect(mutating()).toBe(before);

  // The nodes' machine type: a new template for that group only, its MIGs on it, the old one gone.
  const templatesBefore = fake.store.list('projects/p/global/instanceTemplates').map((t) => String(t.name));
  const set = await kforge(['set', 'instancegroup', 'nodes-us-central1-a', '--name', NAME, 'spec.machineType=e2-standard-4']);
  expect(set.status).toBe(0);
  fake.setThrottleShare(0.1);
  const changed = await kforge(['update', 'cluster', NAME, '--yes']);
  fake.setThrottleShare(0);
  expect({ status: changed.status, stderr: changed.stderr }).toEqual({ status: 0, stderr: expect.not.stringContaining('Error') });
  const templates = fake.store.list('projects/p/global/instanceTemplates');
  expect(templates).toHaveLength(6);
  const fresh = templates.filter((t) => !templatesBefore.includes(String(t.name)));
  expect(fresh.map((t) => (t.properties as { machineType: string }).machineType)).toEqual(['e2-standard-4']);
  const migs = fake.store.list('projects/p/zones/us-central1-a/instanceGroupManagers').filter((m) => String(m.instanceTemplate).endsWith(`/${String(fresh[0].name)}`));
  expect(migs.map((m) => m.name)).toEqual([expect.stringMatching(/^a-nodes-us-central1-a-/)]);

  const deleted = await kforge(['delete', 'cluster', NAME, '--yes']);
  expect({ status: deleted.status, stderr: deleted.stderr }).toEqual({ status: 0, stderr: expect.not.stringContaining('Error') });
  expect(fake.inventory()).toEqual([]);
  expect(fs.readdirSync(path.join(home, 'store'))).not.toContain(NAME);
});
