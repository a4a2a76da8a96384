import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { GetObjectCommand, HeadObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import * as yaml from 'js-yaml';
import { Pod } from 'kubernetes-models/v1/Pod';
import type { Cluster } from '../../src/api/types';
import { etcdCommand } from '../../src/flags/etcd-command';
import type { ProtokubeReport } from '../../src/protokube/run-protokube';
import { StatePaths } from '../../src/state/state-paths';
import { treeDigest } from '../helpers/cli';
import { execCommands } from '../helpers/systemd-unit';
import { BootstrapHarness, BUCKET, CLUSTER, GROUPS, RootRun } from './bootstrap-harness';
import type { Keypair } from '../../src/pki/keypair';
import { parseAddonChannel } from '../../src/protokube/addons/addon-channel';
import { FakeKubeApi, startFakeKubeApi } from '../fakes/kube/fake-kube-api-server';
import { controlPlaneInstance, ControlPlaneInstance } from './control-plane-instance';

// protokube on the control-plane machine, run from what the bootstrap installed: after the group's
// user-data ran in a fresh root, the command of the kforge-protokube.service that nodeup wrote runs once
// in the chroot (in a mount namespace with the host's /dev and a /proc, as a booted machine has), against
// moto, with the instance role's credentials from moto's instance metadata.
//
// TEST-ONLY FLAGS appended to the unit's command, and why:
//   --once -o json          one pass and a report to assert on (the unit loops);
//   --instance-id --zone --internal-ip
//                           the instance moto launched for the control-plane Auto Scaling group: on EC2
//                           protokube reads them from instance metadata, and moto's metadata paths do not
//                           describe that instance;
//   --device-dir DIR        moto attaches no disk: DIR holds one blank sparse image per etcd volume, named
//                           as the NVMe by-id link of its device (as test/protokube does), and `mount` puts
//                           each on a loop device;
//   --device-timeout 10     a missing device fails in 10 s instead of the default 120 s;
//   --kubeconfig FILE       a copy of the kubeconfig nodeup wrote (/var/lib/kforge/kubeconfig: the `kforge`
//                           client certificate issued on the node, the cluster CA) whose server is the fake
//                           Kubernetes API of test/fakes/kube on a free loopback port instead of
//                           https://127.0.0.1 (port 443, where kube-apiserver would listen). The fake trusts
//                           the cluster CA from the root (srv/kubernetes/ca.crt) and serves with the
//                           kube-apiserver certificate nodeup issued there, so both sides are the node's own.
//
// The bootstrap channel: the one `update --yes` wrote to the store, or, when this build's update writes
// none, kops's minimal-1.33 channel and manifests (test/fixtures/kops-addons, kops commit 268927e) put there.

/** Where the test's "devices" are, inside the root. */
const DEVICE_DIR = '/var/lib/kforge-e2e/devices';
const ETCDS = ['events', 'main'];
/** The test's kubeconfig, inside the root. */
const TEST_KUBECONFIG = '/var/lib/kforge-e2e/kubeconfig';
const FIXTURES = path.join(__dirname, '..', 'fixtures', 'kops-addons', 'minimal-1.33');

/** Puts kops's minimal-1.33 channel and its manifests into the store, unless `update` wrote a channel there. */
async function ensureChannel(h: BootstrapHarness): Promise<string> {
  const key = `${CLUSTER}/addons/bootstrap-channel.yaml`;
  const present = await h.s3.send(new HeadObjectCommand({ Bucket: BUCKET, Key: key })).then(() => true, () => false);
  if (!present) {
    const text = fs.readFileSync(path.join(FIXTURES, 'bootstrap_content'), 'utf8');
    await h.s3.send(new PutObjectCommand({ Bucket: BUCKET, Key: key, Body: text }));
    for (const a of parseAddonChannel(text, key)) {
      const file = [`${a.name}-${a.id}_content`, `${a.name}_content`].map((f) => path.join(FIXTURES, f)).find((f) => fs.existsSync(f)) as string;
      await h.s3.send(new PutObjectCommand({ Bucket: BUCKET, Key: `${CLUSTER}/addons/${a.manifest}`, Body: fs.readFileSync(file) }));
    }
  }
  const got = await h.s3.send(new GetObjectCommand({ Bucket: BUCKET, Key: key }));
  return (got.Body as { transformToString(): Promise<string> }).transformToString();
}

/** Registers the cases; `harness` returns the started harness (it is made in the file's beforeAll). */
export function protokubeInRootSuite(harness: () => BootstrapHarness): void {
  let h: BootstrapHarness;
  let root: string;
  let instance: ControlPlaneInstance;
  let unitArgv: string[];
  let first: RootRun;
  let report: ProtokubeReport;
  let completed: Cluster;
  let api: FakeKubeApi;
  let channel: string;
  let firstCalls: Record<string, number>;

  const protokube = (): Promise<RootRun> =>
    h.inRoot(
      root,
      [...unitArgv, '--once', '-o', 'json', '--instance-id', instance.instanceId, '--zone', instance.zone, '--internal-ip', instance.internalIp, '--device-dir', DEVICE_DIR, '--device-timeout', '10', '--kubeconfig', TEST_KUBECONFIG],
      { devices: true },
    );

  beforeAll(async () => {
    h = harness();
    root = h.freshRoot('protokube');
    const boot = await h.bootstrap(root, GROUPS.controlPlane);
    if (boot.status !== 0) throw new Error(`the control plane's user-data failed:\n${boot.out}`);
    instance = await controlPlaneInstance(h.moto, CLUSTER, GROUPS.controlPlane);
    fs.mkdirSync(path.join(root, DEVICE_DIR), { recursive: true });
    for (const id of instance.volumeIds) {
      const image = path.join(root, DEVICE_DIR, `nvme-Amazon_Elastic_Block_Store_${id.replace('-', '')}`);
      fs.writeFileSync(image, '');
      fs.truncateSync(image, 64 * 1024 * 1024);
    }
    [unitArgv] = execCommands(fs.readFileSync(path.join(root, 'etc/systemd/system/kforge-protokube.service'), 'utf8')) as [string[]];
    const got = await h.s3.send(new GetObjectCommand({ Bucket: BUCKET, Key: StatePaths.completedSpec(CLUSTER) }));
    completed = yaml.load(await (got.Body as { transformToString(): Promise<string> }).transformToString()) as Cluster;
    channel = await ensureChannel(h);
    const pem = (p: string): string => fs.readFileSync(path.join(root, p), 'utf8');
    const apiserverPki = 'srv/kubernetes/kube-apiserver';
    const serving = { certificatePem: pem(`${apiserverPki}/server.crt`), privateKeyPem: pem(`${apiserverPki}/server.key`) } as Keypair;
    // "Starting" (503 to everything) until protokube has been refused three times, as a kube-apiserver coming up.
    api = await startFakeKubeApi({ ca: { certificatePem: pem('srv/kubernetes/ca.crt') } as Keypair, serving, startingMs: 3_600_000 });
    let seen = 0;
    api.onRequest = () => {
      if (++seen === 4) api.setStarting(0);
    };
    const nodeKubeconfig = pem('var/lib/kforge/kubeconfig');
    expect(nodeKubeconfig).toContain('server: https://127.0.0.1\n');
    fs.mkdirSync(path.dirname(path.join(root, TEST_KUBECONFIG)), { recursive: true });
    fs.writeFileSync(path.join(root, TEST_KUBECONFIG), nodeKubeconfig.replace('server: https://127.0.0.1\n', `server: https://127.0.0.1:${api.port}\n`), { mode: 0o600 });
    first = await protokube();
    firstCalls = api.requestCounts();
    report = JSON.parse(first.status === 0 ? first.out.slice(first.out.indexOf('{')) : '{}') as ProtokubeReport;
  }, 300_000);

  afterAll(async () => {
    await api?.stop();
    h.removeRoot(root);
  });

  it("runs the unit's command (the installed nodeup artifact, subcommand protokube, the boot config) and claims and formats both etcd volumes", () => {
    expect(unitArgv).toEqual(['/opt/kforge/bin/nodeup', 'protokube', '--conf=/opt/kforge/conf/kube_env.yaml']);
    expect([first.status, first.out]).toEqual([0, expect.stringContaining('"members"')]);
    expect(instance.volumeIds).toHaveLength(2);
    expect(report).toMatchObject({ cluster: CLUSTER, instanceId: instance.instanceId, zone: instance.zone, dns: 'none' });
    expect(report.members.map((m) => [m.etcd, m.formatted, m.waiting])).toEqual([
      ['main', true, undefined],
      ['events', true, undefined],
    ]);
    expect(report.members.map((m) => m.volume).sort()).toEqual(instance.volumeIds);
    for (const m of report.members) {
      expect(m.mount).toBe(`/mnt/master-${m.volume}`);
      // The image now holds the ext4 filesystem protokube made (the mount itself went with the namespace).
      const probe = spawnSync('blkid', ['-p', '-o', 'value', '-s', 'TYPE', path.join(root, DEVICE_DIR, `nvme-Amazon_Elastic_Block_Store_${(m.volume as string).replace('-', '')}`)], { encoding: 'utf8' });
      expect([m.etcd, probe.stdout.trim()]).toEqual([m.etcd, 'ext4']);
    }
  });

  it('writes etcd-main and etcd-events manifests that validate as Pods and run exactly etcdCommand’s argv for the stored completed spec', () => {
    const dir = path.join(root, 'etc/kubernetes/manifests');
    expect(fs.readdirSync(dir).filter((f) => f.startsWith('etcd')).sort()).toEqual(ETCDS.map((e) => `etcd-${e}.manifest`));
    for (const m of report.members) {
      const pod = yaml.load(fs.readFileSync(path.join(dir, `etcd-${m.etcd}.manifest`), 'utf8')) as { spec: { containers: Array<{ command: string[] }> } };
      expect(() => new Pod(pod as ConstructorParameters<typeof Pod>[0]).validate()).not.toThrow();
      // The member (its name, hence its stable host name and URLs) is the one of the volume claimed.
      expect([m.etcd, pod.spec.containers[0]?.command]).toEqual([m.etcd, etcdCommand(completed.spec, CLUSTER, m.etcd, m.member as string).argv]);
    }
  });

  it("openssl verifies each member's server certificate against etcd-clients-ca and its peer certificate against etcd-peers-ca-<etcd>", () => {
    for (const etcd of ETCDS) {
      const pki = path.join(root, 'etc/kubernetes/pki', `etcd-manager-${etcd}`);
      for (const [cert, ca] of [
        ['server.crt', 'etcd-clients-ca.crt'],
        ['peer.crt', `etcd-peers-ca-${etcd}.crt`],
      ]) {
        const v = spawnSync('openssl', ['verify', '-CAfile', path.join(pki, ca as string), path.join(pki, cert as string)], { encoding: 'utf8' });
        expect([etcd, cert, v.status, v.stdout.trim()]).toEqual([etcd, cert, 0, `${path.join(pki, cert as string)}: OK`]);
      }
      expect((fs.statSync(path.join(pki, 'server.key')).mode & 0o777).toString(8)).toBe('600');
    }
  });

  it('kforge-protokube.service passes systemd-analyze verify with nothing on stderr', () => {
    const r = spawnSync('systemd-analyze', ['verify', '--man=no', `--root=${root}`, '/etc/systemd/system/kforge-protokube.service'], { encoding: 'utf8' });
    expect([r.status, r.stderr]).toEqual([0, '']);
  });

  it('a second run changes nothing: same volumes, nothing formatted, every file unchanged', async () => {
    const before = treeDigest(path.join(root, 'etc/kubernetes'));
    const again = await protokube();
    expect(again.status).toBe(0);
    const second = JSON.parse(again.out.slice(again.out.indexOf('{'))) as ProtokubeReport;
    expect(second.members.map((m) => [m.etcd, m.volume, m.formatted])).toEqual(report.members.map((m) => [m.etcd, m.volume, false]));
    expect(second.files.filter((f) => f.action !== 'unchanged')).toEqual([]);
    expect(treeDigest(path.join(root, 'etc/kubernetes'))).toBe(before);
  });

  it('applies the bootstrap channel to the API server with the node-issued kforge identity, after the API answered 503 while starting', () => {
    const addons = parseAddonChannel(channel, 'bootstrap-channel.yaml');
    expect(report.addons).toMatchObject({ status: 'applied', server: `https://127.0.0.1:${api.port}` });
    expect(report.addons.addons.map((a) => [a.name, a.action, a.error])).toEqual(addons.map((a) => [a.name, 'applied', undefined]));
    const applies = api.requests.filter((r) => r.contentType === 'application/apply-patch+yaml');
    expect(applies.length).toBeGreaterThan(0);
    expect(new Set(applies.map((r) => `${r.user} ${r.query.fieldManager} ${r.query.force}`))).toEqual(new Set(['kforge kforge true']));
    // The fake answered 503 three times, as a starting kube-apiserver: protokube retried, then went on.
    expect(firstCalls['list /api/v1/namespaces']).toBe(4);
    const recorded = api.store.get('namespaces', 'kube-system').metadata.annotations as Record<string, string>;
    for (const a of addons) {
      expect(JSON.parse(recorded[`addons.k8s.io/${a.name}`] as string)).toEqual({ channel: `s3://${BUCKET}/${CLUSTER}/addons/bootstrap-channel.yaml`, ...(a.id ? { id: a.id } : {}), manifestHash: a.manifestHash, systemGeneration: 1 });
    }
  });

  it('a second run applies nothing: one call (the installed versions), no write', async () => {
    api.resetRequests();
    const again = await protokube();
    expect(again.status).toBe(0);
    const second = JSON.parse(again.out.slice(again.out.indexOf('{'))) as ProtokubeReport;
    expect(second.addons.addons.every((a) => a.action === 'unchanged')).toBe(true);
    expect(api.requestCounts()).toEqual({ 'list /api/v1/namespaces': 1 });
  });
}
