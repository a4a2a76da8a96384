import * as fs from 'node:fs';
import * as path from 'node:path';
import { CliResult, runCliAsync, startCli, tempDir } from '../helpers/cli';
import { FakeCompute, startFakeCompute } from '../fakes/gce/compute-fake';
import { gceCliEnv } from '../helpers/gce-cli-env';

// `create cluster --cloud gce … --dns none` then `update cluster --yes` against the fake Compute API (driven
// by the real @google-cloud/compute client in the CLI process): everything the model has is created once, a
// second run finds it all and changes nothing, and a machine-type edit makes a new template, points the MIG
// at it and deletes the old one.

const NAME = 'gce.example.com';
let home: string;
let store: string;
let fake: FakeCompute;

beforeAll(async () => {
  home = tempDir('kforge-gce-direct-');
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

/** Mutating requests the fake received since `from` (operations polls are reads). */
const mutations = (from: number): string[] => fake.requests.slice(from).filter((r) => r.mutating).map((r) => `${r.rpc} ${r.path}`);

const kinds = (): Record<string, number> => {
  const counts: Record<string, number> = {};
  for (const r of fake.inventory()) {
    const kind = r.split('/').slice(-2, -1)[0];
    counts[kind] = (counts[kind] ?? 0) + 1;
  }
  return counts;
};

it('creates the cluster, then finds it unchanged, then replaces a changed template', async () => {
  const created = await kforge(['create', 'cluster', NAME, '--cloud', 'gce', '--project', 'p', '--zones', 'us-central1-a', '--dns', 'none']);
  expect({ status: created.status, stderr: created.stderr }).toEqual({ status: 0, stderr: expect.anything() });

  const applied = await kforge(['update', 'cluster', NAME, '--yes']);
  expect({ status: applied.status, stderr: applied.stderr }).toEqual({ status: 0, stderr: expect.not.stringContaining('Error') });
  const made = kinds();
  // kops's dns-none shape: the public API pool (HTTP check, pool, address, rule) and the internal
  // load balancer (regional TCP check, backend service, address, API and kops-controller rules).
  expect(made).toEqual(expect.objectContaining({ networks: 1, subnetworks: 1, instanceTemplates: 2, instanceGroupManagers: 2, disks: 2, addresses: 2, forwardingRules: 3, targetPools: 1, httpHealthChecks: 1, healthChecks: 1, backendServices: 1, serviceAccounts: 2 }));
  expect(made.firewalls).toBeGreaterThanOrEqual(6);
  // The control plane's account holds kops's one project role; the nodes' none.
  expect(fake.iam.policies.get('p')?.bindings).toEqual([{ role: 'roles/container.serviceAgent', members: [expect.stringMatching(/^serviceAccount:control-plane-gce-example-com@p\.iam\.gserviceaccount\.com$/)] }]);
  // The MIGs run their target sizes (kops's defaults: one control plane, one node).
  expect(made.instances).toBe(2);

  const plan = await kforge(['update', 'cluster', NAME]);
  expect(plan.status).toBe(0);
  expect(plan.stdout).toContain('No changes');
  expect(plan.stderr).toMatch(/GCE API: 14 calls/);

  const before = fake.requests.length;
  const again = await kforge(['update', 'cluster', NAME, '--yes']);
  expect(again.status).toBe(0);
  expect(mutations(before)).toEqual([]);
  expect(fake.inventory().length).toBe(Object.values(made).reduce((a, b) => a + b, 0));

  // Edit the nodes' machine type: a new template, the MIG pointed at it, the old template deleted.
  const templatesBefore = fake.store.list('projects/p/global/instanceTemplates').map((t) => t.name);
  const set = await kforge(['set', 'instancegroup', 'nodes-us-central1-a', '--name', NAME, 'spec.machineType=e2-standard-4']);
  expect({ status: set.status, stderr: set.stderr }).toEqual({ status: 0, stderr: expect.anything() });
  const changed = await kforge(['update', 'cluster', NAME, '--yes']);
  expect({ status: changed.status, stderr: changed.stderr }).toEqual({ status: 0, stderr: expect.not.stringContaining('Error') });
  const templates = fake.store.list('projects/p/global/instanceTemplates');
  expect(templates).toHaveLength(2);
  const nodes = templates.find((t) => (t.properties as { machineType: string }).machineType === 'e2-standard-4');
  expect(nodes).toBeDefined();
  expect(templatesBefore).not.toContain(nodes?.name);
  const mig = fake.store.list('projects/p/zones/us-central1-a/instanceGroupManagers').find((m) => String(m.instanceTemplate).endsWith(`/${String(nodes?.name)}`));
  expect(mig).toBeDefined();

  // A disk attached to a running instance (as protokube does) does not stop delete: the MIG goes first.
  const instance = fake.store.list('projects/p/zones/us-central1-a/instances')[0];
  const disk = fake.store.list('projects/p/zones/us-central1-a/disks')[0];
  disk.users = [instance.selfLink];

  // Without --yes, delete lists what it would delete.
  const listed = await kforge(['delete', 'cluster', NAME]);
  expect(listed.status).toBe(0);
  for (const type of ['network', 'subnetwork', 'firewall', 'instance-group-manager', 'instance-template', 'disk', 'forwarding-rule', 'target-pool', 'service-account']) expect(listed.stdout).toMatch(new RegExp(`^${type}\\s`, 'm'));
  expect(fake.inventory().length).toBeGreaterThan(0);

  const deleted = await kforge(['delete', 'cluster', NAME, '--yes']);
  expect({ status: deleted.status, stderr: deleted.stderr }).toEqual({ status: 0, stderr: expect.not.stringContaining('Error') });
  expect(fake.inventory()).toEqual([]);
  expect(fake.iam.policies.get('p')?.bindings).toEqual([]);
  expect(fs.readdirSync(path.join(home, 'store'))).not.toContain(NAME);
});

it('update --yes killed (SIGKILL) at three points and run again makes each resource once, then nothing to do', async () => {
  const name = 'kill.example.com';
  const created = await kforge(['create', 'cluster', name, '--cloud', 'gce', '--project', 'q', '--zones', 'us-central1-a', '--dns', 'none']);
  expect(created.status).toBe(0);
  const mutating = () => fake.requests.filter((r) => r.mutating && r.path.includes('/projects/q')).length;
  for (const after of [1, 12, 25]) {
    const started = startCli(['update', 'cluster', name, '--yes', '--state', store], env());
    // Killed once the fake has received that many mutations in all (the run may have more in flight).
    while (!started.finished() && mutating() < after) await new Promise((r) => setTimeout(r, 5));
    if (!started.finished()) process.kill(started.pid, 'SIGKILL');
    const killed = await started.done;
    expect(killed.status).not.toBe(0);
  }
  const finished = await kforge(['update', 'cluster', name, '--yes']);
  expect({ status: finished.status, stderr: finished.stderr }).toEqual({ status: 0, stderr: expect.not.stringContaining('Error') });
  const mine = fake.inventory().filter((r) => r.startsWith('projects/q/'));
  const kindsOf = (rs: string[]) => rs.reduce<Record<string, number>>((acc, r) => ({ ...acc, [r.split('/').slice(-2, -1)[0]]: (acc[r.split('/').slice(-2, -1)[0]] ?? 0) + 1 }), {});
  expect(kindsOf(mine)).toEqual(expect.objectContaining({ networks: 1, subnetworks: 1, instanceTemplates: 2, instanceGroupManagers: 2, disks: 2, addresses: 2, forwardingRules: 3, serviceAccounts: 2, instances: 2 }));
  const before = mutating();
  const again = await kforge(['update', 'cluster', name, '--yes']);
  expect(again.status).toBe(0);
  expect(mutating()).toBe(before);
});
