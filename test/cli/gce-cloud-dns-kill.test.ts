import * as fs from 'node:fs';
import * as path from 'node:path';
import { CliResult, runCliAsync, startCli, tempDir } from '../helpers/cli';
import { FakeCompute, startFakeCompute } from '../fakes/gce/compute-fake';
import { gceCliEnv } from '../helpers/gce-cli-env';
import { fakeCloudDnsEnv, FakeCloudDns, startFakeCloudDns } from '../fakes/gce/cloud-dns-fake';

// Cloud DNS writes under SIGKILL: `update --yes` of a cluster with `--dns public`, killed as its first
// Cloud DNS change reaches the API and again mid-way through the compute resources, while both fakes
// throttle a tenth of the calls, then run to the end, leaves each placeholder record once (Cloud DNS has no
// upsert: a second addition of a name is a 409 the task must take as "made"); a plain update then says
// "No changes", and delete removes the cluster's records and nothing else of the zone.

const PROJECT = 'p';
const NAME = 'dns-kill.example.com';
let home: string;
let store: string;
let compute: FakeCompute;
let dns: FakeCloudDns;

beforeAll(async () => {
  home = tempDir('kforge-gce-dns-kill-');
  store = `file://${path.join(home, 'store')}`;
  fs.mkdirSync(path.join(home, 'store'));
  compute = await startFakeCompute();
  dns = await startFakeCloudDns();
  dns.addZone(PROJECT, { name: 'example-com', dnsName: 'example.com.' });
});

afterAll(async () => {
  await dns?.stop();
  await compute?.stop();
  if (home) fs.rmSync(home, { recursive: true, force: true });
});

const env = (): NodeJS.ProcessEnv => ({ ...gceCliEnv(home, compute), ...fakeCloudDnsEnv(dns) });
const kforge = (args: string[]): Promise<CliResult> => runCliAsync([...args, '--state', store], env());
const dnsMutations = (): number => dns.requests.filter((r) => r.mutating).length;
const computeMutations = (): number => compute.requests.filter((r) => r.mutating).length;
const clusterRecords = (): string[] =>
  dns
    .records(PROJECT, 'example-com')
    .filter((r) => r.name.endsWith(`.${NAME}.`))
    .map((r) => `${r.name} ${r.type} ${r.rrdatas.join(',')}`);

jest.setTimeout(300_000);

it('update --yes killed at a Cloud DNS change and mid-way converges to each record once; delete removes them', async () => {
  const created = await kforge(['create', 'cluster', NAME, '--cloud', 'gce', '--project', PROJECT, '--zones', 'us-central1-a', '--dns', 'public']);
  expect({ status: created.status, stderr: created.stderr }).toEqual({ status: 0, stderr: expect.not.stringContaining('Error') });

  compute.setThrottleShare(0.1);
  dns.setThrottleShare(0.1);
  const kills: Array<() => boolean> = [() => dnsMutations() >= 1, () => computeMutations() >= 15];
  for (const killNow of kills) {
    const started = startCli(['update', 'cluster', NAME, '--yes', '--state', store], env());
    while (!started.finished() && !killNow()) await new Promise((r) => setTimeout(r, 2));
    const killed = !started.finished();
    if (killed) process.kill(started.pid, 'SIGKILL');
    const done = await started.done;
    // The kill point must have been reached while the run was alive, or the test would prove nothing.
    expect({ killed, status: done.status === 0 ? 0 : 'non-zero' }).toEqual({ killed: true, status: 'non-zero' });
  }
  expect(dnsMutations()).toBeGreaterThanOrEqual(1);
  const finished = await kforge(['update', 'cluster', NAME, '--yes']);
  compute.setThrottleShare(0);
  dns.setThrottleShare(0);
  expect({ status: finished.status, stderr: finished.stderr }).toEqual({ status: 0, stderr: expect.not.stringContaining('Error') });

  // kops's three placeholders, each once, with kops's placeholder address.
  expect(clusterRecords()).toEqual([`api.${NAME}. A 203.0.113.123`, `api.internal.${NAME}. A 203.0.113.123`, `kops-controller.internal.${NAME}. A 203.0.113.123`]);
  const plan = await kforge(['update', 'cluster', NAME]);
  expect({ status: plan.status, stdout: plan.stdout }).toEqual({ status: 0, stdout: expect.stringContaining('No changes') });

  const deleted = await kforge(['delete', 'cluster', NAME, '--yes']);
  expect({ status: deleted.status, stderr: deleted.stderr }).toEqual({ status: 0, stderr: expect.not.stringContaining('Error') });
  expect(clusterRecords()).toEqual([]);
  expect(dns.records(PROJECT, 'example-com').map((r) => `${r.name} ${r.type}`)).toEqual(['example.com. NS', 'example.com. SOA']);
  expect(compute.inventory()).toEqual([]);
});
