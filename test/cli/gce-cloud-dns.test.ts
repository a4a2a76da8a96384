import * as fs from 'node:fs';
import * as path from 'node:path';
import * as yaml from 'js-yaml';
import { CliResult, runCliAsync, tempDir } from '../helpers/cli';
import { FakeCompute, startFakeCompute } from '../fakes/gce/compute-fake';
import { gceCliEnv } from '../helpers/gce-cli-env';
import { fakeCloudDnsEnv, FakeCloudDns, FakeZone, startFakeCloudDns } from '../fakes/gce/cloud-dns-fake';

// Cloud DNS on GCE through the real CLI, against the fake Compute and Cloud DNS APIs: `create cluster --dns
// public|private` finds the managed zone by walking up the name (kops's minimal_gce case), `update --yes`
// pre-creates kops's placeholder records once and never overwrites what protokube wrote, and `delete`
// removes the cluster's records and leaves the zone.

const PROJECT = 'p';
let home: string;
let store: string;
let compute: FakeCompute;
let dns: FakeCloudDns;
const zones: Record<string, FakeZone> = {};

beforeAll(async () => {
  home = tempDir('kforge-gce-dns-');
  store = path.join(home, 'store');
  fs.mkdirSync(store);
  compute = await startFakeCompute();
  dns = await startFakeCloudDns();
  zones.public = dns.addZone(PROJECT, { name: 'example-com', dnsName: 'example.com.' });
  zones.private = dns.addZone(PROJECT, { name: 'example-com-private', dnsName: 'example.com.', visibility: 'private', networks: [`https://www.googleapis.com/compute/v1/projects/${PROJECT}/global/networks/default`] });
  zones.other = dns.addZone(PROJECT, { name: 'other-org', dnsName: 'other.org.' });
  zones.twinA = dns.addZone(PROJECT, { name: 'twin-a', dnsName: 'twin.org.' });
  zones.twinB = dns.addZone(PROJECT, { name: 'twin-b', dnsName: 'twin.org.' });
});

afterAll(async () => {
  await dns?.stop();
  await compute?.stop();
  if (home) fs.rmSync(home, { recursive: true, force: true });
});

const env = (): NodeJS.ProcessEnv => ({ ...gceCliEnv(home, compute), ...fakeCloudDnsEnv(dns) });
const kforge = (args: string[]): Promise<CliResult> => runCliAsync([...args, '--state', `file://${store}`], env());
const create = (name: string, extra: string[]): Promise<CliResult> => kforge(['create', 'cluster', name, '--cloud', 'gce', '--project', PROJECT, '--zones', 'us-central1-a', ...extra]);
const storedZone = (name: string): string | undefined => (yaml.load(fs.readFileSync(path.join(store, name, 'config'), 'utf8')) as { spec: { dnsZone?: string } }).spec.dnsZone;
const dnsMutations = (from: number): string[] => dns.requests.slice(from).filter((r) => r.mutating).map((r) => `${r.method} ${r.path}`);
const aRecords = (zone: string, cluster: string): Array<[string, string[]]> =>
  dns.records(PROJECT, zone).filter((r) => r.type === 'A' && r.name.endsWith(`.${cluster}.`)).map((r) => [r.name, r.rrdatas]);

it('--dns public finds the public zone by walking up the name; --dns private the private one', async () => {
  const pub = await create('minimal-gce.example.com', ['--dns', 'public']);
  expect({ status: pub.status, stderr: pub.stderr }).toEqual({ status: 0, stderr: expect.not.stringContaining('Error') });
  expect(storedZone('minimal-gce.example.com')).toBe(zones.public.id);
  const priv = await create('private.example.com', ['--dns', 'private', '--topology', 'private']);
  expect({ status: priv.status, stderr: priv.stderr }).toEqual({ status: 0, stderr: expect.not.stringContaining('Error') });
  expect(storedZone('private.example.com')).toBe(zones.private.id);
  // The lookup lists zones; nothing else is asked of Cloud DNS at create.
  expect(dns.requests.every((r) => r.method === 'GET' && r.path === `/dns/v1/projects/${PROJECT}/managedZones`)).toBe(true);
});

it('no matching zone, or two, is an error naming --dns-zone, and nothing is written', async () => {
  const none = await create('a.nowhere.test', ['--dns', 'public']);
  expect(none.status).not.toBe(0);
  expect(none.stderr).toMatch(/--dns-zone/);
  expect(none.stderr).toMatch(/no public Cloud DNS managed zone/);
  expect(none.stderr).not.toMatch(/\n\s+at /);
  const privateOnlyPublic = await create('b.other.org', ['--dns', 'private', '--topology', 'private']);
  expect(privateOnlyPublic.status).not.toBe(0);
  expect(privateOnlyPublic.stderr).toMatch(/no private Cloud DNS managed zone/);
  const twins = await create('c.twin.org', ['--dns', 'public']);
  expect(twins.status).not.toBe(0);
  expect(twins.stderr).toMatch(/twin-a, twin-b/);
  // Without credentials (a missing credentials file: no metadata-server probe): CLOUD_ACCESS naming what to do.
  const noCreds = await runCliAsync(['create', 'cluster', 'd.example.com', '--cloud', 'gce', '--project', PROJECT, '--zones', 'us-central1-a', '--dns', 'public', '--state', `file://${store}`], {
    ...env(),
    CLOUDSDK_AUTH_ACCESS_TOKEN: '',
    GOOGLE_APPLICATION_CREDENTIALS: path.join(home, 'missing.json'),
  });
  expect(noCreds.status).not.toBe(0);
  expect(noCreds.stderr).toMatch(/no Google Cloud credentials for Cloud DNS in project p/);
  expect(fs.readdirSync(store).sort()).toEqual(['minimal-gce.example.com', 'private.example.com']);
});

it('update --yes creates the placeholders once, keeps what protokube wrote, and delete removes the records but not the zone', async () => {
  const name = 'minimal-gce.example.com';
  // The first two changes are made but their answers lost: the retries meet 409 and find the records made.
  dns.loseAnswers(2);
  const applied = await kforge(['update', 'cluster', name, '--yes']);
  expect(dns.requests.filter((r) => r.mutating).map((r) => r.status).slice(0, 4)).toEqual([0, 0, expect.any(Number), expect.any(Number)]);
  expect(dns.requests.filter((r) => r.mutating && r.status === 409)).toHaveLength(2);
  expect({ status: applied.status, stderr: applied.stderr }).toEqual({ status: 0, stderr: expect.not.stringContaining('Error') });
  expect(aRecords('example-com', name)).toEqual([
    [`api.internal.${name}.`, ['203.0.113.123']],
    [`api.${name}.`, ['203.0.113.123']],
    [`kops-controller.internal.${name}.`, ['203.0.113.123']],
  ]);

  const plan = await kforge(['update', 'cluster', name]);
  expect(plan.status).toBe(0);
  expect(plan.stdout).toContain('No changes');

  // protokube has published the control plane's address: update leaves it.
  dns.putRecord(PROJECT, 'example-com', { name: `api.${name}.`, type: 'A', ttl: 60, rrdatas: ['34.1.2.3'] });
  const before = dns.requests.length;
  const again = await kforge(['update', 'cluster', name, '--yes']);
  expect(again.status).toBe(0);
  expect(dnsMutations(before)).toEqual([]);
  expect(aRecords('example-com', name)).toContainEqual([`api.${name}.`, ['34.1.2.3']]);

  // An etcd member's name protokube wrote goes with the cluster; another cluster's and the zone's own stay.
  dns.putRecord(PROJECT, 'example-com', { name: `etcd-a.internal.${name}.`, type: 'A', ttl: 60, rrdatas: ['10.0.0.2'] });
  dns.putRecord(PROJECT, 'example-com', { name: 'api.other.example.com.', type: 'A', ttl: 60, rrdatas: ['10.9.9.9'] });
  const listed = await kforge(['delete', 'cluster', name]);
  expect(listed.status).toBe(0);
  expect(listed.stdout).toMatch(new RegExp(`^dns-record\\s+api\\.${name.replace(/\./g, '\\.')} A`, 'm'));
  const deleted = await kforge(['delete', 'cluster', name, '--yes']);
  expect({ status: deleted.status, stderr: deleted.stderr }).toEqual({ status: 0, stderr: expect.not.stringContaining('Error') });
  expect(aRecords('example-com', name)).toEqual([]);
  expect(dns.records(PROJECT, 'example-com').map((r) => `${r.name} ${r.type}`)).toEqual(['api.other.example.com. A', 'example.com. NS', 'example.com. SOA']);
  expect(dns.zones(PROJECT).map((z) => z.name)).toContain('example-com');
});

it('with a public API load balancer, api.<cluster> points at its address (through throttling), and a re-run changes nothing', async () => {
  const name = 'lb.example.com';
  const created = await create(name, ['--dns', 'public', '--api-loadbalancer-type', 'public']);
  expect({ status: created.status, stderr: created.stderr }).toEqual({ status: 0, stderr: expect.not.stringContaining('Error') });
  dns.setThrottleShare(0.3);
  let applied: CliResult;
  try {
    applied = await kforge(['update', 'cluster', name, '--yes']);
  } finally {
    dns.setThrottleShare(0);
  }
  expect({ status: applied.status, stderr: applied.stderr }).toEqual({ status: 0, stderr: expect.not.stringContaining('Error') });
  expect(dns.requests.some((r) => r.status === 429)).toBe(true);
  const address = compute.store.list(`projects/${PROJECT}/regions/us-central1/addresses`).find((a) => a.name === 'api-lb-example-com');
  expect(address?.address).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
  expect(aRecords('example-com', name)).toEqual([
    [`api.internal.${name}.`, ['203.0.113.123']],
    [`api.${name}.`, [address?.address]],
    [`kops-controller.internal.${name}.`, ['203.0.113.123']],
  ]);
  const before = dns.requests.length;
  const plan = await kforge(['update', 'cluster', name]);
  expect(plan.stdout).toContain('No changes');
  expect(dnsMutations(before)).toEqual([]);
});
