import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { DescribeLaunchTemplateVersionsCommand, EC2Client } from '@aws-sdk/client-ec2';
import { CreateBucketCommand, GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import * as yaml from 'js-yaml';
import { Pod } from 'kubernetes-models/v1/Pod';
import { builtNodeupArtifact, NODE_RUNTIME_VERSION } from '../../src/model/nodeup-artifacts';
import { StatePaths } from '../../src/state/state-paths';
import { runCliAsync, tempDir } from '../helpers/cli';
import { MOTO_WITH_DEFAULT_IMAGE, MotoServer, startMotoServer } from '../helpers/moto-server';
import { ensureAptTool } from '../helpers/apt-tool';
import { cachedDebianRoot, copyRoot } from './debian-root';
import { releaseFiles } from './release-tarballs';

// The node bootstrap end to end, in a real Debian 12 root (debootstrap, cached across runs):
//   kforge create cluster + update cluster --yes against moto (S3 state store, launch templates), then the
//   ACTUAL user-data of each group's launch template (DescribeLaunchTemplateVersions) runs in a fresh
//   copy of the root with chroot. It installs the Node.js runtime and the nodeup bundle (dist/), writes
//   the boot config, and nodeup fetches its config from the s3:// store with the INSTANCE ROLE's
//   credentials (moto_server answers the instance-metadata paths, IMDSv2 token included), downloads and
//   checks the assets, and installs the node's files.
// The chroot gets only endpoint overrides: AWS_ENDPOINT_URL_S3 and AWS_EC2_METADATA_SERVICE_ENDPOINT
// (both moto), and PATH. The root's /sys/class/dmi/id/sys_vendor says "Amazon EC2", as on an instance:
// nodeup consults the instance-metadata service only where the firmware says it can be there.
//
// TEST-ONLY ASSET TABLE (the production hash checks are the same code, unweakened): a local HTTP server is
// spec.assets.fileRepository and serves
//   - the Node runtime: this machine's node repacked as node-vX-linux-x64.tar.xz, named to user-data by
//     update's environment (KFORGE_NODE_RUNTIME_AMD64=<sha256>@<url>), since nodejs.org is not reachable;
//   - the nodeup bundle this build made, with the hash the build computed (as in production);
//   - REAL containerd 1.6, runc and CNI plugins from Debian's packages, repacked as release files;
//   - stand-in kubelet and kubectl scripts: no Kubernetes binaries are installable on this machine.
// The stored nodeup configs name the real releases' hashes, so the test rewrites their Assets with the
// hashes of what it serves, and puts the new config's hash into the user-data's NodeupConfigHash line:
// the only change made to the launch template's user-data.

const NAME = 'e2e.example.com';
const BUCKET = 'kforge-e2e-state';
const CP = 'control-plane-us-east-1a';
const NODES = 'nodes-us-east-1a';
const STAND_IN = (name: string): Buffer => Buffer.from(`#!/bin/sh\n# stand-in ${name}: no Kubernetes binaries are installable on the test machine\nexit 0\n`);

let moto: MotoServer;
let s3: S3Client;
let work: string;
let debianRoot: string;
let server: http.Server;
let base: string;
/** What the server serves, by a file name pattern of the request path. */
let table: Array<[RegExp, Buffer]>;
/** Bytes served instead of the table's, for the tampering cases. */
const tampered = new Map<string, Buffer>();
const requests: string[] = [];
/** The user-data of each group, as the launch template holds it, with the test's NodeupConfigHash. */
const userData = new Map<string, string>();
/** The stored nodeup config of each group (with the test's asset table), by S3 key. */
const storedConfigs = new Map<string, string>();

const sha256 = (b: Buffer | string): string => createHash('sha256').update(b).digest('hex');

beforeAll(async () => {
  ensureAptTool('systemd-analyze', 'systemd');
  debianRoot = cachedDebianRoot();
  const files = releaseFiles();
  const nodeup = fs.readFileSync(builtNodeupArtifact().path);
  table = [
    [/\/node-v[^/]*-linux-x64\.tar\.xz$/, fs.readFileSync(files.node)],
    [/\/nodeup$/, nodeup],
    [/\/containerd-[^/]*\.tar\.gz$/, fs.readFileSync(files.containerd)],
    [/\/runc\.amd64$/, fs.readFileSync(files.runc)],
    [/\/cni-plugins-[^/]*\.tgz$/, fs.readFileSync(files.cni)],
    [/\/kubelet$/, STAND_IN('kubelet')],
    [/\/kubectl$/, STAND_IN('kubectl')],
  ];
  server = http.createServer((req, res) => {
    const p = req.url ?? '';
    requests.push(p);
    const body = [...tampered].find(([re]) => p.endsWith(re))?.[1] ?? table.find(([re]) => re.test(p))?.[1];
    if (!body) res.writeHead(404).end();
    else res.writeHead(200, { 'content-length': body.length }).end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  moto = await startMotoServer({ env: MOTO_WITH_DEFAULT_IMAGE });
  work = tempDir('kforge-e2e-');
  const client = { region: 'us-east-1', endpoint: moto.endpoint, credentials: { accessKeyId: 'test', secretAccessKey: 'test' } };
  s3 = new S3Client({ ...client, forcePathStyle: true });
  await s3.send(new CreateBucketCommand({ Bucket: BUCKET }));

  // The operator's side: static test keys for the CLI, as any user of moto has.
  const env = { ...moto.env, HOME: work, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true', KFORGE_NODE_RUNTIME_AMD64: `${sha256(table[0][1])}@${base}/dist/v${NODE_RUNTIME_VERSION}/node-v${NODE_RUNTIME_VERSION}-linux-x64.tar.xz` };
  const state = ['--state', `s3://${BUCKET}`];
  const created = await runCliAsync(['create', 'cluster', NAME, '--zones', 'us-east-1a', '--dns', 'none', '--set', `spec.assets.fileRepository=${base}`, ...state], env);
  expect(created.stderr).toBe('');
  expect(created.status).toBe(0);
  const updated = await runCliAsync(['update', 'cluster', NAME, '--yes', ...state], env);
  // stderr holds update's progress; shown in full if it failed.
  expect([updated.status, updated.status === 0 ? '' : updated.stderr]).toEqual([0, '']);

  const ec2 = new EC2Client(client);
  try {
    for (const [group, role] of [[CP, 'ControlPlane'], [NODES, 'Node']]) {
      const lt = await ec2.send(new DescribeLaunchTemplateVersionsCommand({ LaunchTemplateName: `${group}.${NAME}`, Versions: ['$Latest'] }));
      const script = Buffer.from(lt.LaunchTemplateVersions?.[0]?.LaunchTemplateData?.UserData ?? '', 'base64').toString('utf8');
      expect(script).toMatch(/^#!\/bin\/bash\n/);
      // The test-only asset table: the stored config's Assets get the hashes of what the server serves.
      const key = StatePaths.nodeupConfig(NAME, role, group);
      const stored = await (await s3.send(new GetObjectCommand({ Bucket: BUCKET, Key: key }))).Body?.transformToString();
      expect(script).toContain(`NodeupConfigHash: ${sha256(stored as string)}\n`);
      const conf = yaml.load(stored as string) as { Assets: Record<string, string[]> };
      // amd64 only: this machine's architecture; the arm64 list keeps the real releases' hashes.
      conf.Assets.amd64 = conf.Assets.amd64.map((e) => `${sha256(served(e.slice(e.indexOf('@') + 1)))}@${e.slice(e.indexOf('@') + 1)}`);
      const rewritten = yaml.dump(conf, { sortKeys: true, lineWidth: -1 });
      await s3.send(new PutObjectCommand({ Bucket: BUCKET, Key: key, Body: rewritten }));
      storedConfigs.set(key, rewritten);
      userData.set(group, script.replace(/^NodeupConfigHash: [0-9a-f]{64}$/m, `NodeupConfigHash: ${sha256(rewritten)}`));
    }
  } finally {
    ec2.destroy();
  }
}, 600_000);

afterAll(async () => {
  s3?.destroy();
  await moto?.stop();
  if (server) await new Promise<void>((r) => server.close(() => r()));
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

/** What the asset server serves for a URL on it (every Assets URL must be one: fileRepository moved them). */
function served(url: string): Buffer {
  expect(url.startsWith(`${base}/`)).toBe(true);
  const body = table.find(([re]) => re.test(new URL(url).pathname))?.[1];
  if (!body) throw new Error(`the test's asset table has nothing for ${url}`);
  return body;
}

/** A fresh copy of the Debian root for one case, with what an EC2 instance's firmware reports. */
function freshRoot(name: string): string {
  const root = path.join(work, name);
  copyRoot(debianRoot, root);
  fs.mkdirSync(path.join(root, 'sys/class/dmi/id'), { recursive: true });
  fs.writeFileSync(path.join(root, 'sys/class/dmi/id/sys_vendor'), 'Amazon EC2\n');
  return root;
}

/** Runs `argv` in the root with chroot and only the endpoint overrides; resolves with its status and output. */
function inRoot(root: string, argv: string[]): Promise<{ status: number; out: string }> {
  const env = ['PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin', `AWS_ENDPOINT_URL_S3=${moto.endpoint}`, `AWS_EC2_METADATA_SERVICE_ENDPOINT=${moto.endpoint}`];
  const child = spawn('chroot', [root, '/usr/bin/env', '-i', ...env, ...argv], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ status: code ?? -1, out })));
}

/** Runs a group's user-data in the root, as cloud-init runs it (as root, with bash). */
function bootstrap(root: string, group: string): Promise<{ status: number; out: string }> {
  fs.mkdirSync(path.join(root, 'var/lib/cloud/instance'), { recursive: true });
  fs.writeFileSync(path.join(root, 'var/lib/cloud/instance/user-data.txt'), userData.get(group) as string, { mode: 0o700 });
  return inRoot(root, ['/bin/bash', '/var/lib/cloud/instance/user-data.txt']);
}

/** Nothing of a node was installed: no Kubernetes binary, no container runtime, no unit, no manifest. */
function expectNothingInstalled(root: string): void {
  for (const f of ['usr/local/bin/kubelet', 'usr/local/bin/containerd', 'usr/local/sbin/runc', 'opt/cni/bin', 'etc/systemd/system/kubelet.service', 'etc/systemd/system/containerd.service', 'etc/systemd/system/kforge-nodeup.service', 'etc/kubernetes']) {
    expect([f, fs.existsSync(path.join(root, f))]).toEqual([f, false]);
  }
}

const UNITS = ['containerd.service', 'kubelet.service', 'kforge-nodeup.service'];

describe.each([
  [CP, 'ControlPlane'],
  [NODES, 'Node'],
])('user-data of %s in a Debian 12 root', (group, role) => {
  let root: string;
  let first: { status: number; out: string };

  beforeAll(async () => {
    root = freshRoot(group);
    first = await bootstrap(root, group);
  }, 300_000);

  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

  it('installs the runtime and nodeup, and nodeup installs the assets and files with the instance role', () => {
    expect([first.status, first.out]).toEqual([0, expect.stringContaining('== kforge node bootstrap done ==')]);
    expect(first.out).toContain(`nodeup: instance group ${group} (${role}) of cluster ${NAME}`);
    expect(fs.readFileSync(path.join(root, 'opt/kforge/conf/kube_env.yaml'), 'utf8')).toContain(`InstanceGroupRole: ${role}\n`);
    expect(sha256(fs.readFileSync(path.join(root, 'opt/kforge/bin/nodeup')))).toBe(builtNodeupArtifact().sha256);
    for (const f of ['usr/local/bin/kubelet', 'usr/local/bin/kubectl', 'usr/local/sbin/runc', 'usr/local/bin/containerd', 'usr/local/bin/containerd-shim-runc-v2', 'opt/cni/bin/bridge', 'opt/cni/bin/loopback']) {
      expect([f, fs.statSync(path.join(root, f)).mode & 0o111]).toEqual([f, 0o111]);
    }
    // No static key reached the node: the user-data names none, and the chroot got only endpoints.
    expect(userData.get(group)).not.toMatch(/AWS_ACCESS_KEY_ID|AWS_SECRET_ACCESS_KEY|PRIVATE KEY/);
  });

  it("real containerd accepts the written config; real runc runs", async () => {
    const dump = await inRoot(root, ['/usr/local/bin/containerd', '--config', '/etc/containerd/config.toml', 'config', 'dump']);
    expect([dump.status, dump.out]).toEqual([0, expect.stringContaining('SystemdCgroup = true')]);
    const runc = await inRoot(root, ['/usr/local/sbin/runc', '--version']);
    expect([runc.status, runc.out]).toEqual([0, expect.stringMatching(/^runc version 1\./)]);
  });

  it('systemd-analyze verify accepts every unit nodeup wrote, with no output on stderr', () => {
    const written = fs.readdirSync(path.join(root, 'etc/systemd/system')).filter((f) => f.endsWith('.service'));
    expect(written.sort()).toEqual([...UNITS].sort());
    for (const unit of written) {
      const r = spawnSync('systemd-analyze', ['verify', '--man=no', `--root=${root}`, `/etc/systemd/system/${unit}`], { encoding: 'utf8' });
      expect([unit, r.status, r.stderr]).toEqual([unit, 0, '']);
    }
  });

  it('writes static pods that validate as Pods (control plane only)', () => {
    const dir = path.join(root, 'etc/kubernetes/manifests');
    const manifests = fs.existsSync(dir) ? fs.readdirSync(dir).sort() : [];
    if (role === 'ControlPlane') expect(manifests).toEqual(expect.arrayContaining(['kube-apiserver.manifest', 'kube-controller-manager.manifest', 'kube-scheduler.manifest']));
    else expect(manifests.filter((m) => m.startsWith('kube-apiserver'))).toEqual([]);
    for (const m of manifests) {
      const obj = yaml.load(fs.readFileSync(path.join(dir, m), 'utf8'));
      expect(() => new Pod(obj as ConstructorParameters<typeof Pod>[0]).validate()).not.toThrow();
    }
  });

  it('a second run of the user-data downloads nothing and nodeup reports no changes', async () => {
    const before = requests.length;
    const again = await bootstrap(root, group);
    expect([again.status, again.out]).toEqual([0, expect.stringMatching(/No changes: \d+ files up to date\./)]);
    expect(again.out).toContain('already installed');
    expect(requests.slice(before)).toEqual([]);
  });
});

describe('faults: the bootstrap fails with a clear message and installs nothing', () => {
  afterEach(() => tampered.clear());

  it('a tampered Kubernetes asset (the server serves other bytes for containerd)', async () => {
    tampered.set('.tar.gz', Buffer.from('not containerd'));
    const root = freshRoot('tampered-asset');
    const r = await bootstrap(root, NODES);
    expect(r.status).not.toBe(0);
    expect(r.out).toMatch(/Error: http:\/\/127\.0\.0\.1:\d+\/\S*containerd-\S+\.tar\.gz: sha256 [0-9a-f]{64} is not the [0-9a-f]{64} the nodeup config names; nothing was installed/);
    expectNothingInstalled(root);
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('a tampered Node.js runtime download fails before nodeup runs', async () => {
    tampered.set('.tar.xz', Buffer.from('not node'));
    const root = freshRoot('tampered-runtime');
    const r = await bootstrap(root, NODES);
    expect(r.status).not.toBe(0);
    expect(r.out).toMatch(/== kforge bootstrap FAILED: http:\/\/\S+\.tar\.xz has sha256 [0-9a-f]{64}, not the expected [0-9a-f]{64}; nothing was installed ==/);
    expect(fs.existsSync(path.join(root, 'opt/kforge/node'))).toBe(false);
    expect(fs.existsSync(path.join(root, 'opt/kforge/bin/nodeup'))).toBe(false);
    expectNothingInstalled(root);
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('a tampered nodeup config in the state store', async () => {
    const key = StatePaths.nodeupConfig(NAME, 'Node', NODES);
    await s3.send(new PutObjectCommand({ Bucket: BUCKET, Key: key, Body: `${storedConfigs.get(key)}# changed\n` }));
    const root = freshRoot('tampered-config');
    try {
      const r = await bootstrap(root, NODES);
      expect(r.status).not.toBe(0);
      expect(r.out).toMatch(new RegExp(`Error: --conf /opt/kforge/conf/kube_env.yaml: s3://${BUCKET}/${NAME}/igconfig/node/${NODES}/nodeupconfig.yaml has sha256 [0-9a-f]{64}, not the [0-9a-f]{64} this machine was launched with`));
      expectNothingInstalled(root);
    } finally {
      await s3.send(new PutObjectCommand({ Bucket: BUCKET, Key: key, Body: storedConfigs.get(key) }));
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});
