import { ChildProcess, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import * as yaml from 'js-yaml';
import { remapFileUrl } from '../../src/expand/components/images';
import { NODE_RUNTIME_VERSION } from '../../src/model/nodeup-artifacts';
import { StatePaths } from '../../src/state/state-paths';
import { GcsVfs } from '../../src/state/vfs/gcs-vfs';
import { runCliAsync, tempDir } from '../helpers/cli';
import { execCommands } from '../helpers/systemd-unit';
import { FakeGcs, startFakeGcs } from '../fakes/fake-gcs-server';
import { FakeCompute, startFakeCompute } from '../fakes/gce/compute-fake';
import { fakeGceEnv } from '../fakes/gce/fake-gce-env';
import { FakeGceMetadata, startFakeGceMetadata } from '../fakes/gce/fake-gce-metadata';
import { fakeGoogleSigner, FakeGoogleJwks, startFakeGoogleJwks } from '../fakes/gce/fake-google-identity';
import { KeysetYaml } from '../../src/pki/keyset-yaml';
import { opensslSubject, opensslVerify } from '../node-identity/node-identity-helpers';
import { cachedDebianRoot, WritableRoot, writableRoot } from './debian-root';
import { sha256 } from './bootstrap-harness';
import { testAssetTable } from './test-asset-table';

// The GCE node bootstrap end to end, in a real Debian 12 root (the cached one of node-bootstrap.test.ts):
// `create cluster --cloud gce` with a gs:// state store (the fake GCS) and `update cluster --yes` against the
// fake Compute API, then the ACTUAL startup-script of the instance template each group's MIG runs, as the
// API holds it (cloudConfig.gceUseStartupScript so the key is startup-script),
// runs in a fresh copy of the root with chroot, as Google's guest agent runs it. It reads the nodeup bundle
// that update uploaded into the gs:// store with the service account's token from the fake metadata server
// (the fake GCS accepts no other bearer), writes the boot config, and nodeup reads its identity from the
// metadata server and (control plane) its config and keysets from the store with that token, downloads and checks the
// assets and installs the node's files. On the control plane, the command of the kforge-protokube.service
// nodeup wrote then runs once (in a mount namespace with the host's /dev and a /proc): it finds the model's
// etcd disks by kops's labels in the fake Compute API, attaches them to the instance the metadata server
// names, and mounts them (blank sparse images named google-<disk> in --device-dir, on loop devices). Test-only
// protokube flags: --once -o json, --device-dir, --device-timeout 10, --api-wait 0 (no API server runs).
// The worker names no store: its startup-script reaches the node-identity service (kops-controller, run in the
// control plane's root as its unit runs it) at the internal API address; the test points that address at the
// service's loopback port (the fake Compute API's addresses route nowhere). The worker's nodeup proves itself
// with the identity token the metadata server signs (a test key, served by a fake of Google's JWKS).
// The test-only asset table is node-bootstrap's (bootstrap-harness.ts):
// the stored configs' amd64 assets are moved onto a local server, and the script's NodeupConfigHash follows.

const CLUSTER = 'gce-e2e.example.com';
const BUCKET = 'kforge-gce-e2e';
const PROJECT = 'kforge-e2e';
const ZONE = 'us-central1-a';
const GROUPS = [
  ['control-plane-us-central1-a', 'ControlPlane'],
  ['nodes-us-central1-a', 'Node'],
] as const;

let work: string;
let gcs: FakeGcs;
let metadata: FakeGceMetadata;
let server: http.Server;
let compute: FakeCompute;
let jwks: FakeGoogleJwks;
const google = fakeGoogleSigner();
let controlPlaneRoot: string | undefined;
let controller: ChildProcess | undefined;
let controllerLog = '';
let kubernetesCa = '';
const disks: string[] = [];
const scripts = new Map<string, string>();
const roots: WritableRoot[] = [];

jest.setTimeout(900_000);

beforeAll(async () => {
  if (process.getuid?.() !== 0) throw new Error('the node bootstrap runs the startup-script with chroot, which needs root');
  work = tempDir('kforge-gce-e2e-');
  const table = testAssetTable();
  server = http.createServer((req, res) => {
    const body = table.find(([re]) => re.test(req.url ?? ''))?.[1];
    if (!body) res.writeHead(404).end();
    else res.writeHead(200, { 'content-length': body.length }).end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const served = (url: string): Buffer => table.find(([re]) => re.test(new URL(url).pathname))?.[1] ?? Buffer.alloc(0);

  gcs = await startFakeGcs();
  const storeEnv = { STORAGE_EMULATOR_HOST: gcs.endpoint, GOOGLE_CLOUD_PROJECT: PROJECT };
  await new GcsVfs(`gs://${BUCKET}`, storeEnv).createStore();
  const runtimeUrl = `${base}/dist/v${NODE_RUNTIME_VERSION}/node-v${NODE_RUNTIME_VERSION}-linux-x64.tar.xz`;
  const env = { ...storeEnv, HOME: work, KFORGE_NODE_RUNTIME_AMD64: `${sha256(served(runtimeUrl))}@${runtimeUrl}` };
  // The cloud: the fake Compute API, which `update --yes` fills (network, disks, templates, MIGs and their
  // instances) and the control plane's protokube reads.
  compute = await startFakeCompute();
  for (const args of [
    ['create', 'cluster', CLUSTER, '--cloud', 'gce', '--zones', ZONE, '--dns', 'none', '--set', `spec.project=${PROJECT}`, '--set', 'spec.cloudConfig.gceUseStartupScript=true'],
    ['update', 'cluster', CLUSTER, '--yes'],
  ]) {
    const r = await runCliAsync([...args, '--state', `gs://${BUCKET}`], { ...env, ...fakeGceEnv(compute) });
    if (r.status !== 0) throw new Error(`kforge ${args.join(' ')} failed (status ${r.status}):\n${r.stderr}`);
  }
  const store = new GcsVfs(`gs://${BUCKET}`, storeEnv);
  for (const [group, role] of GROUPS) {
    const script = startupScript(group);
    const key = StatePaths.nodeupConfig(CLUSTER, role, group);
    const stored = (await store.read(key))?.data.toString('utf8') ?? '';
    if (!script.includes(`NodeupConfigHash: ${sha256(stored)}\n`)) throw new Error(`${group}: the startup-script does not carry the stored config's hash`);
    const conf = yaml.load(stored) as { Assets: Record<string, string[]> };
    conf.Assets.amd64 = conf.Assets.amd64.map((e) => {
      const url = remapFileUrl(e.slice(e.indexOf('@') + 1), base);
      return `${sha256(served(url))}@${url}`;
    });
    const rewritten = yaml.dump(conf, { sortKeys: true, lineWidth: -1 });
    await store.write(key, rewritten);
    scripts.set(group, script.replace(/^NodeupConfigHash: [0-9a-f]{64}$/m, `NodeupConfigHash: ${sha256(rewritten)}`));
  }
  kubernetesCa = KeysetYaml.parse((await store.read(StatePaths.issuedKeyset(CLUSTER, 'kubernetes-ca')))?.data ?? '', 'kubernetes-ca', 'kubernetes-ca').primary().certificatePem;
  jwks = await startFakeGoogleJwks([google]);
  metadata = await startFakeGceMetadata(
    { id: '1001', name: 'x', zone: ZONE, internalIp: '10.0.16.2', attributes: { 'cluster-name': CLUSTER }, serviceAccountEmail: `sa@${PROJECT}.iam.gserviceaccount.com`, scopes: [] },
    { id: PROJECT, numericId: '123456789012' },
    { signer: google },
  );
  // The control plane's protokube finds the model's etcd disks, which update created.
  disks.push(...compute.store.list(`projects/${PROJECT}/zones/${ZONE}/disks`).map((d) => String(d.name)));
  if (disks.length !== 2) throw new Error(`update made ${disks.length} etcd disks, not main and events`);
  // From here on, as on GCE: only the metadata server's tokens are accepted.
  gcs.requireBearer((t) => metadata.issued(t));
}, 900_000);

afterAll(async () => {
  // The service must be gone before its root is removed.
  if (controller && controller.exitCode === null && controller.signalCode === null) {
    const exited = new Promise((r) => controller?.once('close', r));
    controller.kill('SIGTERM');
    await exited;
  }
  await jwks?.stop();
  for (const r of roots) r.remove();
  await metadata?.stop();
  await gcs?.stop();
  await compute?.stop();
  await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

/** Runs the group's startup-script in a fresh root with chroot, as the guest agent would (root, bash). */
async function boot(group: string, instance: string, script = scripts.get(group) ?? ''): Promise<{ root: string; status: number; out: string }> {
  const made = writableRoot(cachedDebianRoot(), path.join(work, group));
  roots.push(made);
  const root = made.path;
  if (group === GROUPS[0][0]) controlPlaneRoot = root;
  fs.mkdirSync(path.join(root, 'sys/class/dmi/id'), { recursive: true });
  // What a GCE VM's firmware says (Google's auth library looks here before asking the metadata server).
  fs.writeFileSync(path.join(root, 'sys/class/dmi/id/sys_vendor'), 'Google\n');
  fs.writeFileSync(path.join(root, 'sys/class/dmi/id/bios_vendor'), 'Google\n');
  fs.writeFileSync(path.join(root, 'startup-script'), script, { mode: 0o700 });
  // The metadata server now plays this instance: its name and Compute's id for it (the identity token names both).
  const id = compute.store.find(`projects/${PROJECT}/zones/${ZONE}/instances`, instance)?.id;
  Object.assign(metadata.instance, { name: instance, ...(id ? { id: String(id) } : {}), attributes: { 'cluster-name': CLUSTER, 'kops-k8s-io-instance-group-name': group, 'startup-script': script } });
  return { root, ...(await inRoot(root, ['/bin/bash', '/startup-script'])) };
}

/** Runs argv in the root with chroot and only the endpoint overrides; with `devices`, in a mount namespace with the host's /dev and a /proc. */
async function inRoot(root: string, argv: string[], devices = false): Promise<{ status: number; out: string }> {
  const env = ['PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin', `GCE_METADATA_HOST=${metadata.host}`, `STORAGE_EMULATOR_HOST=${gcs.endpoint}`, `CLOUDSDK_API_ENDPOINT_OVERRIDES_COMPUTE=${compute.endpoint}/compute/v1/`];
  const chroot = ['chroot', root, '/usr/bin/env', '-i', ...env, ...argv];
  const command = devices ? ['unshare', '--mount', '--propagation', 'private', 'sh', '-c', 'mount -t proc proc "$1/proc" && mount --rbind /dev "$1/dev" && shift && exec "$@"', 'sh', root, ...chroot] : chroot;
  const child = spawn(command[0] as string, command.slice(1), { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  const status = await new Promise<number>((resolve) => child.on('close', (code) => resolve(code ?? -1)));
  return { status, out };
}

describe.each(GROUPS)('the startup-script of %s in a Debian 12 root', (group, role) => {
  it('installs the runtime and nodeup (the control plane from the gs:// store with the metadata token, a worker from the node-identity service), nodeup installs the node, and (control plane) protokube claims the etcd disks', async () => {
    const instance = instanceOf(group);
    // A worker's boot config names the API's internal address, which update learnt from the Compute API once
    // it made it (kops's BootConfig.APIServerIPs); with no DNS, nodeup maps the API's internal name to it.
    const ilb = String(compute.store.list(`projects/${PROJECT}/regions/us-central1/addresses`).find((a) => a.addressType === 'INTERNAL')?.address);
    expect(ilb).toMatch(/^10\.0\.\d+\.\d+$/);
    let script = scripts.get(group) ?? '';
    if (role === 'Node') {
      // The worker reaches the service at the internal API address's 3988 rule, which routes nowhere here: the
      // service in the control plane's root listens on loopback instead, and the script is pointed there.
      expect(script).toContain(`  Servers:\n  - https://${ilb}:3988\n`);
      expect(script).toContain(`CONFIG_SERVER_CONNECT_TO="kops-controller.internal.${CLUSTER}:3988:${ilb}:3988"`);
      script = script.split(`${ilb}:3988`).join(`127.0.0.1:${await startService()}`);
    }
    const r = await boot(group, instance, script);
    expect([r.status, r.out.slice(-3000)]).toEqual([0, expect.stringContaining('== kforge node bootstrap done ==')]);
    for (const f of ['opt/kforge/node/bin/node', 'opt/kforge/bin/nodeup', 'usr/local/bin/kubelet', 'usr/local/bin/containerd', 'etc/systemd/system/kubelet.service', 'etc/systemd/system/kforge-nodeup.service']) {
      expect([f, fs.existsSync(path.join(r.root, f))]).toEqual([f, true]);
    }
    const kubeEnv = fs.readFileSync(path.join(r.root, 'opt/kforge/conf/kube_env.yaml'), 'utf8');
    const source = role === 'Node' ? `APIServerIPs:\n- ${ilb}\nConfigServer:\n` : `ConfigBase: gs://${BUCKET}/${CLUSTER}\n`;
    expect(kubeEnv).toContain(`CloudProvider: gce\nClusterName: ${CLUSTER}\n${source}`);
    expect(kubeEnv).toContain(`InstanceGroupName: ${group}\nInstanceGroupRole: ${role}\n`);
    const hosts = fs.readFileSync(path.join(r.root, 'etc/hosts'), 'utf8');
    expect(hosts).toContain(role === 'Node' ? `${ilb}\tapi.internal.${CLUSTER}\n` : `127.0.0.1\tapi.internal.${CLUSTER}\n`);
    if (role === 'Node') {
      expect(hosts).toContain(`${ilb}\tkops-controller.internal.${CLUSTER}\n`);
      // The worker's boot config names no store, and its nodeup bundle came from the service.
      expect(kubeEnv).not.toMatch(/ConfigBase|gs:\/\/|PRIVATE KEY/);
      expect(r.out).toContain(`== Downloading https://kops-controller.internal.${CLUSTER}:3988/nodeup/`);
      // Its kubelet's certificate is for exactly its instance name, from kubernetes-ca, issued by the service.
      const kc = yaml.load(fs.readFileSync(path.join(r.root, 'var/lib/kubelet/kubeconfig'), 'utf8')) as { users: Array<{ user: Record<string, string> }> };
      const cert = Buffer.from(kc.users[0]?.user['client-certificate-data'] ?? '', 'base64').toString();
      expect(opensslVerify(kubernetesCa, [cert]).status).toBe(0);
      expect(opensslSubject(cert)).toBe(`subject=CN=system:node:${instance},O=system:nodes`);
      expect(fs.existsSync(path.join(r.root, 'var/lib/kubelet/bootstrap-kubeconfig'))).toBe(false);
      const id = String(compute.store.get(`projects/${PROJECT}/zones/${ZONE}/instances`, instance).id);
      const deadline = Date.now() + 10_000;
      while (!/ 200 issued /.test(controllerLog) && Date.now() < deadline) await new Promise((res) => setTimeout(res, 50));
      expect(controllerLog).toContain(`200 sent nodeup bundle `);
      expect(controllerLog).toContain(`200 sent the nodeup config of group ${group} for node ${instance} (instance ${id}, group ${group}`);
      // cilium (the default) replaces kube-proxy, so only kubelet's certificate is asked for.
      expect(controllerLog).toMatch(new RegExp(`POST /bootstrap 200 issued (kube-proxy, )?kubelet for node ${instance} \\(instance ${id}, group ${group}, `));
      expect(metadata.requests).toContain(`GET /computeMetadata/v1/instance/service-accounts/default/identity?audience=${encodeURIComponent(`https://kops-controller.internal.${CLUSTER}:3988`)}&format=full`);
    }
    expect(metadata.requests).toContain('GET /computeMetadata/v1/instance/service-accounts/default/token');
    expect(fs.existsSync(path.join(r.root, 'etc/kubernetes/manifests/kube-apiserver.manifest'))).toBe(role === 'ControlPlane');
    expect(fs.existsSync(path.join(r.root, 'etc/systemd/system/kforge-protokube.service'))).toBe(role === 'ControlPlane');
    // The GCP cloud-controller-manager's --cloud-config: written on the control plane only, as kops's nodeup does.
    expect(fs.existsSync(path.join(r.root, 'etc/kubernetes/cloud.config'))).toBe(role === 'ControlPlane');
    if (role !== 'ControlPlane') return;

    // protokube, as kforge-protokube.service runs it, once: the disks are claimed through the Compute API.
    const unit = fs.readFileSync(path.join(r.root, 'etc/systemd/system/kforge-protokube.service'), 'utf8');
    const [exec] = execCommands(unit) as [string[]];
    const deviceDir = '/var/lib/kforge-e2e/devices';
    fs.mkdirSync(path.join(r.root, deviceDir), { recursive: true });
    for (const d of disks) {
      const image = path.join(r.root, deviceDir, `google-${d}`);
      fs.writeFileSync(image, '');
      fs.truncateSync(image, 64 * 1024 * 1024);
    }
    const p = await inRoot(r.root, [...exec, '--once', '-o', 'json', '--device-dir', deviceDir, '--device-timeout', '10', '--api-wait', '0'], true);
    expect([p.status, p.status === 0 ? '' : p.out]).toEqual([0, '']);
    const report = JSON.parse(p.out.slice(p.out.indexOf('{'))) as { instanceId: string; zone: string; members: Array<{ etcd: string; volume: string; formatted: boolean }>; names: Array<{ name: string }> };
    expect([report.instanceId, report.zone]).toEqual([instance, ZONE]);
    expect(report.members.map((m) => [m.etcd, m.volume, m.formatted]).sort()).toEqual(disks.map((d) => [d.includes('etcd-events') ? 'events' : 'main', d, true]).sort());
    for (const d of disks) expect((compute.store.get(`projects/${PROJECT}/zones/${ZONE}/disks`, d).users as string[]).map((u) => u.slice(u.lastIndexOf('/') + 1))).toEqual([instance]);
    expect(fs.readFileSync(path.join(r.root, 'etc/hosts'), 'utf8')).toContain(`etcd-a.internal.${CLUSTER}`);
  });
});

/** The group's MIG in the fake Compute API, as update made it. */
function migOf(group: string): Record<string, unknown> {
  const mig = compute.store.list(`projects/${PROJECT}/zones/${ZONE}/instanceGroupManagers`).find((m) => String(m.name).includes(group));
  if (!mig) throw new Error(`no MIG of ${group} in the fake Compute API`);
  return mig;
}

/** The startup-script of the template the group's MIG runs, as `update --yes` sent it to the Compute API. */
function startupScript(group: string): string {
  const url = String(migOf(group).instanceTemplate);
  const template = compute.store.get(`projects/${PROJECT}/global/instanceTemplates`, url.slice(url.lastIndexOf('/') + 1));
  const items = (template.properties as { metadata: { items: Array<{ key: string; value: string }> } }).metadata.items;
  const script = items.find((i) => i.key === 'startup-script')?.value;
  if (!script) throw new Error(`${group}: the template has no startup-script (metadata keys: ${items.map((i) => i.key).join(', ')})`);
  return script;
}

/** The group's MIG's first instance in the fake Compute API. */
function instanceOf(group: string): string {
  const base = String(migOf(group).baseInstanceName);
  const i = compute.inventory().filter((x) => x.includes('/instances/') && x.slice(x.lastIndexOf('/') + 1).startsWith(`${base}-`)).sort()[0] ?? '';
  return i.slice(i.lastIndexOf('/') + 1);
}

/**
 * The node-identity service in the control plane's root, as kforge-kops-controller.service runs it (its
 * ExecStart), on loopback, with the fake JWKS for Google's keys; it reads the gs:// store and the Compute API
 * with the metadata server's tokens. Resolves to its port.
 */
async function startService(): Promise<number> {
  if (!controlPlaneRoot) throw new Error('the control plane was not booted first');
  const unit = fs.readFileSync(path.join(controlPlaneRoot, 'etc/systemd/system/kforge-kops-controller.service'), 'utf8');
  const [exec] = execCommands(unit) as [string[]];
  const env = ['PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin', `GCE_METADATA_HOST=${metadata.host}`, `STORAGE_EMULATOR_HOST=${gcs.endpoint}`, `CLOUDSDK_API_ENDPOINT_OVERRIDES_COMPUTE=${compute.endpoint}/compute/v1/`];
  controller = spawn('chroot', [controlPlaneRoot, '/usr/bin/env', '-i', ...env, ...exec, '--listen', '127.0.0.1:0', '--google-jwks-url', jwks.url], { stdio: ['ignore', 'pipe', 'pipe'] });
  controller.stdout?.on('data', (d: Buffer) => (controllerLog += d.toString()));
  controller.stderr?.on('data', (d: Buffer) => (controllerLog += d.toString()));
  const deadline = Date.now() + 60_000;
  while (!/listening on 127\.0\.0\.1:(\d+)/.test(controllerLog) && controller.exitCode === null && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  const port = Number(/listening on 127\.0\.0\.1:(\d+)/.exec(controllerLog)?.[1]);
  if (!port) throw new Error(`kops-controller did not start in the control-plane root (exit ${String(controller.exitCode)}, ${String(controller.signalCode)}, ${exec.join(' ')}):\n${controllerLog}`);
  return port;
}
