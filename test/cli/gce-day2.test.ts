import * as fs from 'node:fs';
import * as path from 'node:path';
import * as yaml from 'js-yaml';
import { KUBERNETES_CA } from '../../src/pki/cluster-pki';
import { issueKeypair } from '../../src/pki/issue-keypair';
import { Keystore } from '../../src/state/keystore';
import { openVfs } from '../../src/state/vfs/open-vfs';
import { startFakeKubeApi } from '../fakes/kube/fake-kube-api-server';
import { CliResult, runCliAsync, tempDir } from '../helpers/cli';
import { GceKube, startGceKube } from '../helpers/gce-kube';
import { FakeCompute, startFakeCompute } from '../fakes/gce/compute-fake';
import { gceCliEnv } from '../helpers/gce-cli-env';
import type { Resource } from '../fakes/gce/compute-store';
import type { Cluster } from '../../src/api/types';
import { GceCloud } from '../../src/cloud/gce/gce-cloud';
import { gceCloudProvider } from '../../src/cloud/gce/gce-cloud-provider';

// The day-2 commands on a GCE cluster (`--dns none`), through the CLI against the fake Compute API and a fake
// Kubernetes API whose Nodes are the fake's instances: get instances, validate cluster (with a machine's serial
// console), export kubeconfig (the API forwarding rule's IP), rolling-update cluster after a machine-type
// change (recreateInstances, then nothing to do), and delete instancegroup (its MIG and template, nothing else).

const NAME = 'ops.example.com';
const NODES = 'nodes-us-central1-a';
const ZONE = 'projects/p/zones/us-central1-a';
let home: string;
let storeDir: string;
let store: string;
let fake: FakeCompute;
let kube: GceKube;

const env = (): NodeJS.ProcessEnv => ({ ...gceCliEnv(home, fake), KUBECONFIG: path.join(home, 'none'), KFORGE_ROLLING_UPDATE_TICK: '30ms' });
const kforge = (args: string[]): Promise<CliResult> => runCliAsync([...args, '--state', store], env());
const ok = (r: CliResult): void => expect({ status: r.status, stderr: r.stderr }).toEqual({ status: 0, stderr: expect.not.stringContaining('Error') });

const instances = (): Resource[] => fake.store.list(`${ZONE}/instances`);
const templateOf = (i: Resource): string | undefined => ((i.metadata as { items: Array<{ key: string; value: string }> }).items.find((x) => x.key === 'instance-template')?.value ?? '').split('/').pop();
const nodeInstances = (): Resource[] => instances().filter((i) => String(i.name).startsWith(`${NODES}-`));
const mutations = (from: number): string[] => fake.requests.slice(from).filter((r) => r.mutating).map((r) => r.rpc);

beforeAll(async () => {
  home = tempDir('kforge-gce-day2-');
  storeDir = path.join(home, 'store');
  fs.mkdirSync(storeDir);
  store = `file://${storeDir}`;
  // A recreate shows as RECREATING for a few requests, so the rolling update has to wait for it.
  fake = await startFakeCompute({ actionRequests: 4 });
  ok(await kforge(['create', 'cluster', NAME, '--cloud', 'gce', '--project', 'p', '--zones', 'us-central1-a', '--dns', 'none', '--node-count', '2']));
  ok(await kforge(['update', 'cluster', NAME, '--yes']));
  kube = await startGceKube(openVfs(store), storeDir, fake, NAME, 'p', home);
  kube.register();
}, 60_000);

afterAll(async () => {
  await kube?.stop();
  await fake?.stop();
  if (home) fs.rmSync(home, { recursive: true, force: true });
});

test('get instances -o json lists the MIGs\' instances with their Nodes', async () => {
  const r = await kforge(['get', 'instances', NAME, '--kubeconfig', kube.kubeconfig, '-o', 'json']);
  ok(r);
  const rows = JSON.parse(r.stdout) as Array<{ id: string; instanceGroup: string; role: string; state: string; nodeName: string; ready: boolean; needsUpdate: boolean }>;
  expect(rows.map((x) => [x.instanceGroup, x.role, x.state, x.nodeName === x.id, x.ready, x.needsUpdate])).toEqual([
    ['control-plane-us-central1-a', 'control-plane', 'running', true, true, false],
    [NODES, 'node', 'running', true, true, false],
    [NODES, 'node', 'running', true, true, false],
  ]);
  expect(rows.map((x) => x.id).sort()).toEqual(instances().map((i) => String(i.name)).sort());
});

test('validate cluster: valid, then a machine without a Node is reported with its serial console\'s nodeup stage', async () => {
  const valid = await kforge(['validate', 'cluster', NAME, '--kubeconfig', kube.kubeconfig, '-o', 'json', '--verbose']);
  expect({ status: valid.status, failures: JSON.parse(valid.stdout).failures }).toEqual({ status: 0, failures: [] });
  // The cloud side is two aggregated lists, however many instances (MIGs are stable: no listManagedInstances).
  expect(valid.stderr).toContain('cloud API calls {"instanceGroupManagers.aggregatedList":1,"instances.aggregatedList":1}');
  const missing = nodeInstances()[0];
  kube.api.store.delete('nodes', String(missing.name), undefined);
  fake.setSerialPortOutput(`${ZONE}/instances/${String(missing.name)}`, 'Booting\r\nkforge-nodeup-stage: config-fetched\r\nkforge-nodeup-stage: files-written\r\n');
  const invalid = await kforge(['validate', 'cluster', NAME, '--kubeconfig', kube.kubeconfig, '-o', 'json']);
  expect(invalid.status).toBe(2);
  const out = JSON.parse(invalid.stdout) as { failures: Array<{ kind: string; name: string; cause?: string }> };
  expect(out.failures.map((f) => [f.kind, f.name, f.cause])).toEqual([['Machine', String(missing.name), "nodeup wrote the node's files; kubelet has not registered the node"]]);
  // Its kubelet comes back (a new boot registers the Node again).
  kube.restart(String(missing.name));
  expect((await kforge(['validate', 'cluster', NAME, '--kubeconfig', kube.kubeconfig])).status).toBe(0);
});

test('export kubeconfig names the API forwarding rule\'s address, with TLS checked for the internal name', async () => {
  const file = path.join(home, 'exported.kubeconfig');
  ok(await kforge(['export', 'kubeconfig', NAME, '--admin', '--kubeconfig', file]));
  const rule = fake.store.list('projects/p/regions/us-central1/forwardingRules').find((f) => f.name === 'api-ops-example-com');
  expect(rule?.IPAddress).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
  const config = yaml.load(fs.readFileSync(file, 'utf8')) as { clusters: Array<{ name: string; cluster: Record<string, string> }> };
  expect(config.clusters.find((c) => c.name === NAME)?.cluster).toEqual(expect.objectContaining({ server: `https://${String(rule?.IPAddress)}`, 'tls-server-name': `api.internal.${NAME}` }));

  // The API at an IP whose certificate names only the internal name (kforge's API certificate names no
  // forwarding rule IP): reachable with the exported file's tls-server-name, a TLS failure without it.
  const ca = (await new Keystore(openVfs(store), NAME).getPrivate(KUBERNETES_CA)).keyset.primary();
  const serving = await issueKeypair({ subject: { commonName: 'kubernetes-master' }, usage: 'server', validityMs: 3600_000, dnsNames: [`api.internal.${NAME}`] }, ca);
  const byIp = await startFakeKubeApi({ ca, serving });
  try {
    const entry = config.clusters.find((c) => c.name === NAME)!;
    entry.cluster.server = byIp.url;
    fs.writeFileSync(file, yaml.dump(config));
    const reached = await kforge(['validate', 'cluster', NAME, '--kubeconfig', file, '-o', 'json']);
    expect((JSON.parse(reached.stdout) as { failures: Array<{ kind: string }> }).failures.filter((f) => f.kind === 'API')).toEqual([]);
    delete entry.cluster['tls-server-name'];
    fs.writeFileSync(file, yaml.dump(config));
    const refused = await kforge(['validate', 'cluster', NAME, '--kubeconfig', file, '-o', 'json']);
    expect((JSON.parse(refused.stdout) as { failures: Array<{ kind: string; cause?: string }> }).failures.filter((f) => f.kind === 'API').map((f) => f.cause)).toEqual(['tls']);
  } finally {
    await byIp.stop();
  }
});

test('rolling-update cluster replaces each instance on an old template by recreateInstances, then has nothing to do', async () => {
  ok(await kforge(['set', 'instancegroup', NODES, '--name', NAME, 'spec.machineType=e2-standard-4']));
  ok(await kforge(['update', 'cluster', NAME, '--yes']));
  const newTemplate = String(fake.store.list(`${ZONE}/instanceGroupManagers`).find((m) => m.baseInstanceName === NODES)?.instanceTemplate).split('/').pop();
  const old = nodeInstances().map((i) => ({ name: String(i.name), id: String(i.id) }));
  const controlPlane = instances().filter((i) => !String(i.name).startsWith(`${NODES}-`)).map((i) => String(i.id));
  expect(nodeInstances().map(templateOf)).not.toContain(newTemplate);

  const listed = await kforge(['get', 'instances', NAME, '--kubeconfig', kube.kubeconfig, '-o', 'json']);
  const rows = JSON.parse(listed.stdout) as Array<{ instanceGroup: string; needsUpdate: boolean; updateReasons: string[] }>;
  expect(rows.filter((x) => x.needsUpdate).map((x) => [x.instanceGroup, x.updateReasons[0]])).toEqual(old.map(() => [NODES, expect.stringMatching(new RegExp(`^instance template nodes-us-central1-a-ops-e-htnspl-[0-9a-f]{8}, its MIG's is ${newTemplate}$`))]));

  const plan = await kforge(['rolling-update', 'cluster', NAME, '--kubeconfig', kube.kubeconfig]);
  ok(plan);
  expect(plan.stdout).toMatch(new RegExp(`^${NODES} +NeedsUpdate +2 +0 +2 +2 +2 +2$`, 'm'));

  // A surge is refused before anything changes: GCE cannot detach an instance from its MIG.
  ok(await kforge(['set', 'cluster', NAME, 'spec.rollingUpdate.maxSurge=1']));
  ok(await kforge(['update', 'cluster', NAME, '--yes']));
  const before = fake.requests.length;
  const surge = await kforge(['rolling-update', 'cluster', NAME, '--yes', '--kubeconfig', kube.kubeconfig]);
  expect(surge.status).toBe(1);
  expect(surge.stderr).toContain(`instance group "${NODES}" has maxSurge 1, but gce cannot surge`);
  expect(mutations(before)).toEqual([]);
  ok(await kforge(['unset', 'cluster', NAME, 'spec.rollingUpdate.maxSurge']));
  ok(await kforge(['update', 'cluster', NAME, '--yes']));

  kube.startKubelets();
  const start = fake.requests.length;
  const rolled = await kforge(['rolling-update', 'cluster', NAME, '--yes', '--kubeconfig', kube.kubeconfig, '--node-interval', '0s', '--post-drain-delay', '0s', '--validation-timeout', '60s']);
  ok(rolled);
  // Each old instance drained and recreated once, one at a time (maxUnavailable 1), waiting for its replacement.
  expect(mutations(start)).toEqual(['InstanceGroupManagers.RecreateInstances', 'InstanceGroupManagers.RecreateInstances']);
  for (const o of old) expect(rolled.stderr).toContain(o.name);
  expect(fake.requests.slice(start).some((r) => r.rpc === 'InstanceGroupManagers.ListManagedInstances')).toBe(true);
  // Same names (GCE recreates under the name), new machines on the new template; the control plane untouched.
  const now = nodeInstances();
  expect(now.map((i) => String(i.name)).sort()).toEqual(old.map((o) => o.name).sort());
  expect(now.filter((i) => old.some((o) => o.id === String(i.id)))).toEqual([]);
  expect(now.map(templateOf)).toEqual([newTemplate, newTemplate]);
  expect(instances().filter((i) => !String(i.name).startsWith(`${NODES}-`)).map((i) => String(i.id))).toEqual(controlPlane);
  expect(kube.api.store.list('nodes').filter((n) => n.spec?.unschedulable)).toEqual([]);

  const again = await kforge(['rolling-update', 'cluster', NAME, '--yes', '--kubeconfig', kube.kubeconfig]);
  ok(again);
  expect(again.stdout).toContain('No rolling-update required.');
}, 120_000);

test('--cloudonly --force recreates the control plane\'s instance without the Kubernetes API, waiting on the MIG only', async () => {
  const cp = instances().filter((i) => !String(i.name).startsWith(`${NODES}-`));
  const start = fake.requests.length;
  const kubeRequests = kube.api.requests.length;
  const r = await kforge(['rolling-update', 'cluster', NAME, '--yes', '--cloudonly', '--force', '--instance-group', 'control-plane-us-central1-a', '--control-plane-interval', '0s', '--validation-timeout', '60s']);
  ok(r);
  expect(mutations(start)).toEqual(['InstanceGroupManagers.RecreateInstances']);
  const after = instances().filter((i) => !String(i.name).startsWith(`${NODES}-`));
  expect(after.map((i) => String(i.name))).toEqual(cp.map((i) => String(i.name)));
  expect(after.map((i) => String(i.id))).not.toEqual(cp.map((i) => String(i.id)));
  // Cloud only: not one request to the Kubernetes API (no cordon, drain, Node deletion or validation).
  expect(kube.api.requests.length).toBe(kubeRequests);
  expect(r.stderr).not.toContain('cordoning');
  expect(r.stderr).not.toContain('validated');
});

test('delete instancegroup removes its MIG, its instances and its template, nothing else; a second delete finds nothing', async () => {
  const before = fake.inventory();
  const nodes = nodeInstances().map((i) => `${ZONE}/instances/${String(i.name)}`);
  const template = before.find((x) => /\/instanceTemplates\/nodes-us-central1-a-ops-e-htnspl-[0-9a-f]{8}$/.test(x));
  const r = await kforge(['delete', 'instancegroup', NODES, '--name', NAME, '--yes']);
  ok(r);
  expect(r.stdout).toContain('Deleted InstanceGroupManager a-nodes-us-central1-a-ops-example-com');
  expect(r.stdout).toContain(`Deleted InstanceTemplate ${String(template?.split('/').pop())}`);
  const after = fake.inventory();
  expect(before.filter((x) => !after.includes(x)).sort()).toEqual([...nodes, `${ZONE}/instanceGroupManagers/a-nodes-us-central1-a-ops-example-com`, String(template)].sort());
  expect(after.filter((x) => !before.includes(x))).toEqual([]);
  const groups = await kforge(['get', 'instancegroups', '--name', NAME, '-o', 'json']);
  expect(groups.stdout).not.toContain(NODES);
  // Idempotent: what is gone already is skipped (a re-run after an interruption).
  const cloud = new GceCloud(NAME, 'p', 'us-central1', ['us-central1-a'], env());
  const cluster = { apiVersion: 'kops.k8s.io/v1alpha2', kind: 'Cluster', metadata: { name: NAME }, spec: {} } as Cluster;
  expect(await gceCloudProvider.deleteInstanceGroup(cloud, cluster, undefined, NODES)).toEqual([]);
  await cloud.compute.close();
});
