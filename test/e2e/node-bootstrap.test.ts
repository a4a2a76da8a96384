import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createPrivateKey, createPublicKey, X509Certificate } from 'node:crypto';
import { GetObjectCommand, ListObjectsV2Command, PutObjectCommand } from '@aws-sdk/client-s3';
import * as yaml from 'js-yaml';
import { Pod } from 'kubernetes-models/v1/Pod';
import type { Cluster } from '../../src/api/types';
import { controlPlaneCommands, nodeCommands } from '../../src/flags/component-argv';
import { builtNodeupArtifact, NODE_RUNTIME_VERSION } from '../../src/model/nodeup-artifacts';
import { KeysetYaml } from '../../src/pki/keyset-yaml';
import { StatePaths } from '../../src/state/state-paths';
import { ensureAptTool } from '../helpers/apt-tool';
import { execCommands } from '../helpers/systemd-unit';
import { tempDir } from '../helpers/cli';
import { BootstrapHarness, BUCKET, CLUSTER, GROUPS, nodeupUrl, RootRun, sha256, startBootstrapHarness } from './bootstrap-harness';
import { protokubeInRootSuite } from './protokube-in-root';
import { nodeIdentityInRootSuite } from './node-identity-in-root';

// The node bootstrap end to end, in a real Debian 12 root (debootstrap, cached across runs under
// ${XDG_CACHE_HOME:-~/.cache}/kforge-test): kforge create cluster + update cluster --yes against moto (S3
// state store, launch templates), then the ACTUAL user-data of each group's launch template
// (DescribeLaunchTemplateVersions) runs in a fresh copy of the root with chroot. It installs the Node.js
// runtime (the pinned LTS release) and the nodeup bundle, which `update --yes` uploaded into the s3://
// store and user-data reads from there with the instance role (curl --aws-sigv4), writes the boot config,
// and nodeup fetches its config from the s3:// store with the INSTANCE ROLE's credentials (moto's instance-metadata paths), downloads and checks
// the assets, and installs the node's files. The test-only asset table, and the one change made to the
// user-data (NodeupConfigHash, for that table), are described in bootstrap-harness.ts.

const CP = GROUPS.controlPlane;
const NODES = GROUPS.nodes;
let work: string;
let h: BootstrapHarness;

beforeAll(async () => {
  ensureAptTool('systemd-analyze', 'systemd');
  work = tempDir('kforge-e2e-');
  h = await startBootstrapHarness(work);
}, 600_000);

afterAll(async () => {
  await h?.stop();
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

/** Nothing of a node was installed: no Kubernetes binary, no container runtime, no unit, no manifest. */
function expectNothingInstalled(root: string): void {
  for (const f of ['usr/local/bin/kubelet', 'usr/local/bin/containerd', 'usr/local/sbin/runc', 'opt/cni/bin', 'etc/systemd/system/kubelet.service', 'etc/systemd/system/containerd.service', 'etc/systemd/system/kforge-nodeup.service', 'etc/kubernetes']) {
    expect([f, fs.existsSync(path.join(root, f))]).toEqual([f, false]);
  }
}

const UNITS = ['containerd.service', 'kubelet.service', 'kforge-nodeup.service'];
/** The units of a role's root: protokube's and the node-identity service's on the control plane only. */
const unitsOf = (role: string): string[] => (role === 'ControlPlane' ? [...UNITS, 'kforge-protokube.service', 'kforge-kops-controller.service'] : UNITS);

/** Every file under `dir` (recursively), as paths relative to it; symlinks are not followed. */
function filesUnder(dir: string, rel = ''): string[] {
  if (!fs.existsSync(path.join(dir, rel))) return [];
  return fs.readdirSync(path.join(dir, rel), { withFileTypes: true }).flatMap((e) => {
    const r = path.join(rel, e.name);
    return e.isDirectory() ? filesUnder(dir, r) : e.isFile() ? [r] : [];
  });
}

/** The PEM private keys in a text, including base64 `client-key-data` of kubeconfigs. */
function privateKeysIn(text: string): string[] {
  const pems = text.match(/-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]+?-----END [A-Z ]*PRIVATE KEY-----/g) ?? [];
  const embedded = [...text.matchAll(/client-key-data: (\S+)/g)].map((m) => Buffer.from(m[1] as string, 'base64').toString('utf8'));
  return [...pems, ...embedded];
}

/** The public keys (SPKI, base64) of the private keys of every CA and of the service-account signer in the store, with their keyset names. */
async function caPublicKeys(): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const listed = await h.s3.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: `${CLUSTER}/pki/private/` }));
  for (const o of listed.Contents ?? []) {
    const name = (o.Key as string).split('/').slice(-2, -1)[0] as string;
    if (!name.endsWith('-ca') && name !== 'service-account') continue;
    const got = await h.s3.send(new GetObjectCommand({ Bucket: BUCKET, Key: o.Key }));
    const keyset = KeysetYaml.parse(Buffer.from(await (got.Body as { transformToByteArray(): Promise<Uint8Array> }).transformToByteArray()), name);
    for (const k of keyset.keys) out.set(createPublicKey(k.privateKey()).export({ type: 'spki', format: 'der' }).toString('base64'), name);
  }
  return out;
}

describe.each([
  [CP, 'ControlPlane'],
  [NODES, 'Node'],
])('user-data of %s in a Debian 12 root', (group, role) => {
  let root: string;
  let first: RootRun;

  beforeAll(async () => {
    root = h.freshRoot(group);
    first = await h.bootstrap(root, group);
  }, 300_000);

  afterAll(() => h.removeRoot(root));

  it('installs the runtime and nodeup, and nodeup installs the assets and files with the instance role', () => {
    expect([first.status, first.out]).toEqual([0, expect.stringContaining('== kforge node bootstrap done ==')]);
    expect(first.out).toContain(`nodeup: instance group ${group} (${role}) of cluster ${CLUSTER}`);
    // The runtime's first mirror has nothing: the second one serves it, in the same round.
    expect(first.out).toMatch(/== Failed to download http:\/\/\S+\/down-mirror\/\S+ ==\n== Downloading http:\/\/\S+\/dist\/v\S+ \(round 1 of 6\) ==/);
    expect(fs.readFileSync(path.join(root, 'opt/kforge/conf/kube_env.yaml'), 'utf8')).toContain(`InstanceGroupRole: ${role}\n`);
    expect(sha256(fs.readFileSync(path.join(root, 'opt/kforge/bin/nodeup')))).toBe(builtNodeupArtifact().sha256);
    // nodeup came from the state store (moto), read with the instance role, not from the asset server.
    expect(first.out).toContain(`== Downloading ${nodeupUrl()} (round 1 of 6) ==\n`);
    expect(first.out).not.toContain('with this instance\'s role');
    expect(h.requests.filter((r) => r.endsWith('/nodeup'))).toEqual([]);
    for (const f of ['usr/local/bin/kubelet', 'usr/local/bin/kubectl', 'usr/local/sbin/runc', 'usr/local/bin/containerd', 'usr/local/bin/containerd-shim-runc-v2', 'opt/cni/bin/bridge', 'opt/cni/bin/loopback']) {
      expect([f, fs.statSync(path.join(root, f)).mode & 0o111]).toEqual([f, 0o111]);
    }
    // No static key reached the node: the user-data names none, and the chroot got only endpoints.
    expect(h.userData.get(group)).not.toMatch(/AWS_ACCESS_KEY_ID|AWS_SECRET_ACCESS_KEY|PRIVATE KEY/);
  });

  it(`nodeup runs on the pinned LTS runtime, Node.js ${NODE_RUNTIME_VERSION}`, async () => {
    expect(fs.readFileSync(path.join(root, 'opt/kforge/bin/nodeup'), 'utf8').split('\n', 1)[0]).toBe('#!/opt/kforge/node/bin/node');
    const version = await h.inRoot(root, ['/opt/kforge/node/bin/node', '--version']);
    expect([version.status, version.out]).toEqual([0, `v${NODE_RUNTIME_VERSION}\n`]);
  });

  it("real containerd accepts the written config; real runc runs", async () => {
    const dump = await h.inRoot(root, ['/usr/local/bin/containerd', '--config', '/etc/containerd/config.toml', 'config', 'dump']);
    expect([dump.status, dump.out]).toEqual([0, expect.stringContaining('SystemdCgroup = true')]);
    const runc = await h.inRoot(root, ['/usr/local/sbin/runc', '--version']);
    expect([runc.status, runc.out]).toEqual([0, expect.stringMatching(/^runc version 1\./)]);
  });

  it('systemd-analyze verify accepts every unit nodeup wrote, with no output on stderr', () => {
    const written = fs.readdirSync(path.join(root, 'etc/systemd/system')).filter((f) => f.endsWith('.service'));
    expect(written.sort()).toEqual(unitsOf(role).sort());
    for (const unit of written) {
      const r = spawnSync('systemd-analyze', ['verify', '--man=no', `--root=${root}`, `/etc/systemd/system/${unit}`], { encoding: 'utf8' });
      expect([unit, r.status, r.stderr]).toEqual([unit, 0, '']);
    }
  });

  it('writes static pods that validate as Pods (the control plane components only on the control plane; kube-proxy everywhere)', () => {
    const dir = path.join(root, 'etc/kubernetes/manifests');
    const manifests = fs.existsSync(dir) ? fs.readdirSync(dir).sort() : [];
    if (role === 'ControlPlane') expect(manifests).toEqual(expect.arrayContaining(['kube-apiserver.manifest', 'kube-controller-manager.manifest', 'kube-scheduler.manifest']));
    else expect(manifests).toEqual(['kube-proxy.manifest']);
    for (const m of manifests) {
      const obj = yaml.load(fs.readFileSync(path.join(dir, m), 'utf8'));
      expect(() => new Pod(obj as ConstructorParameters<typeof Pod>[0]).validate()).not.toThrow();
    }
  });

  it("kubelet's kubeconfig names the API and carries the cluster CA, and its client certificate verifies against it", () => {
    // The control plane's kubelet runs with a node certificate nodeup issued; a worker's has only the shared
    // bootstrap identity, and writes --kubeconfig itself once its CSR is signed.
    const file = role === 'ControlPlane' ? 'var/lib/kubelet/kubeconfig' : 'var/lib/kubelet/bootstrap-kubeconfig';
    const kc = yaml.load(fs.readFileSync(path.join(root, file), 'utf8')) as { clusters: Array<{ cluster: { server: string; 'certificate-authority-data': string } }>; users: Array<{ user: Record<string, string> }> };
    const cluster = kc.clusters[0]?.cluster;
    expect(cluster?.server).toBe(role === 'ControlPlane' ? 'https://127.0.0.1' : `https://api.internal.${CLUSTER}`);
    const ca = Buffer.from(cluster?.['certificate-authority-data'] ?? '', 'base64').toString('utf8');
    expect(ca).toContain('-----BEGIN CERTIFICATE-----');
    expect(ca.trim()).toBe(fs.readFileSync(path.join(root, 'srv/kubernetes/ca.crt'), 'utf8').trim());
    const cert = new X509Certificate(Buffer.from(kc.users[0]?.user['client-certificate-data'] ?? '', 'base64'));
    expect(cert.verify(new X509Certificate(ca).publicKey)).toBe(true);
    expect(cert.checkPrivateKey(createPrivateKey(Buffer.from(kc.users[0]?.user['client-key-data'] ?? '', 'base64')))).toBe(true);
    // The chroot shares the machine's hostname, which is the name kubelet registers under (no --hostname-override).
    const subject = role === 'ControlPlane' ? `O=system:nodes\nCN=system:node:${os.hostname().trim().toLowerCase()}` : 'O=system:bootstrappers\nCN=kubelet-bootstrap';
    expect(cert.subject).toBe(subject);
    if (role !== 'ControlPlane') expect(fs.existsSync(path.join(root, 'var/lib/kubelet/kubeconfig'))).toBe(false);
  });

  it("the static pods' commands are exactly the flags rendered from the completed spec in the store", async () => {
    const got = await h.s3.send(new GetObjectCommand({ Bucket: BUCKET, Key: StatePaths.completedSpec(CLUSTER) }));
    const completed = yaml.load(await (got.Body as { transformToString(): Promise<string> }).transformToString()) as Cluster;
    const rendered = role === 'ControlPlane' ? controlPlaneCommands(completed.spec) : nodeCommands(completed.spec, completed.spec.kubelet ?? {}).filter((c) => c.component !== 'kubelet');
    const dir = path.join(root, 'etc/kubernetes/manifests');
    const manifests = fs.readdirSync(dir).filter((m) => !m.startsWith('etcd'));
    const commands = Object.fromEntries(manifests.map((m) => {
      const pod = yaml.load(fs.readFileSync(path.join(dir, m), 'utf8')) as { metadata: { name: string }; spec: { containers: Array<{ command: string[] }> } };
      return [pod.metadata.name, pod.spec.containers[0]?.command];
    }));
    expect(rendered.length).toBeGreaterThan(0);
    for (const c of rendered) expect([c.component, commands[c.component]]).toEqual([c.component, c.argv]);
    // The harness's cluster runs calico, which keeps kube-proxy: every node has its manifest.
    expect(Object.keys(commands)).toContain('kube-proxy');
  });

  it('certificates: openssl verifies the serving certificate with the API names (control plane); a worker holds no CA private key', async () => {
    if (role === 'ControlPlane') {
      const pki = path.join(root, 'srv/kubernetes/kube-apiserver');
      const crt = filesUnder(pki).find((f) => /server\.crt$/.test(f));
      expect(crt).toBeDefined();
      const v = spawnSync('openssl', ['verify', '-CAfile', path.join(root, 'srv/kubernetes/ca.crt'), path.join(pki, crt as string)], { encoding: 'utf8' });
      expect([v.status, v.stdout]).toEqual([0, expect.stringContaining(': OK')]);
      const text = spawnSync('openssl', ['x509', '-noout', '-ext', 'subjectAltName', '-in', path.join(pki, crt as string)], { encoding: 'utf8' }).stdout;
      expect(text).toContain(`DNS:api.internal.${CLUSTER}`);
      expect(text).toContain('DNS:kubernetes.default.svc');
    } else {
      const cas = await caPublicKeys();
      expect(cas.size).toBeGreaterThan(0);
      const found: string[] = [];
      for (const dir of ['srv', 'var/lib', 'etc', 'opt/kforge']) {
        for (const f of filesUnder(path.join(root, dir))) {
          const full = path.join(root, dir, f);
          if (fs.statSync(full).size > 1_000_000) continue;
          for (const pem of privateKeysIn(fs.readFileSync(full, 'latin1'))) {
            const spki = createPublicKey(createPrivateKey(pem)).export({ type: 'spki', format: 'der' }).toString('base64');
            if (cas.has(spki)) found.push(`${dir}/${f}: ${cas.get(spki)}`);
          }
        }
      }
      expect(found).toEqual([]);
    }
  });

  it('kforge-nodeup.service reruns nodeup at boot as user-data ran it: the same boot config, with --assets', () => {
    const unit = fs.readFileSync(path.join(root, 'etc/systemd/system/kforge-nodeup.service'), 'utf8');
    expect(execCommands(unit)).toEqual([['/opt/kforge/bin/nodeup', '--conf=/opt/kforge/conf/kube_env.yaml', '--assets']]);
  });

  it("kubelet's config file is where its --config flag points, with the settings that have no flag", () => {
    const unit = fs.readFileSync(path.join(root, 'etc/systemd/system/kubelet.service'), 'utf8');
    const flag = /--config=(\S+)/.exec(unit)?.[1];
    expect(flag).toBe('/var/lib/kubelet/kubelet.conf');
    const conf = yaml.load(fs.readFileSync(path.join(root, flag as string), 'utf8')) as Record<string, unknown>;
    expect(conf).toEqual(expect.objectContaining({ apiVersion: 'kubelet.config.k8s.io/v1beta1', kind: 'KubeletConfiguration', shutdownGracePeriod: '30s', shutdownGracePeriodCriticalPods: '10s' }));
  });

  it('a second run of the user-data downloads nothing and nodeup reports no changes', async () => {
    const before = h.requests.length;
    const again = await h.bootstrap(root, group);
    expect([again.status, again.out]).toEqual([0, expect.stringMatching(/No changes: \d+ files up to date\./)]);
    expect(again.out).toContain('already installed');
    expect(h.requests.slice(before)).toEqual([]);
  });
});

describe('protokube in the control-plane root, as kforge-protokube.service runs it', () => {
  protokubeInRootSuite(() => h);
});

describe('a flaky asset server', () => {
  afterEach(() => h.failures.clear());

  it('is retried with exponential backoff (2 s, then 4 s) until the download succeeds', async () => {
    // The runtime's second URL (the first is the 404 mirror, answered before any failure).
    h.failures.set('-linux-x64.tar.xz', 2);
    const root = h.freshRoot('flaky');
    const r = await h.bootstrap(root, NODES);
    expect([r.status, r.out]).toEqual([0, expect.stringContaining('== kforge node bootstrap done ==')]);
    expect(r.out).toContain('== No URL answered; retrying in 2 s ==');
    expect(r.out).toContain('== No URL answered; retrying in 4 s ==');
    expect(r.out).toMatch(/Downloading http:\/\/\S+\/dist\/v\S+\.tar\.xz \(round 3 of 6\)/);
    h.removeRoot(root);
  }, 120_000);
});

describe('faults: the bootstrap fails with a clear message and installs nothing', () => {
  afterEach(() => h.tampered.clear());

  it('a tampered Kubernetes asset (the server serves other bytes for containerd)', async () => {
    h.tampered.set('.tar.gz', Buffer.from('not containerd'));
    const root = h.freshRoot('tampered-asset');
    const r = await h.bootstrap(root, NODES);
    expect(r.status).not.toBe(0);
    expect(r.out).toMatch(/Error: http:\/\/127\.0\.0\.1:\d+\/\S*containerd-\S+\.tar\.gz: sha256 [0-9a-f]{64} is not the [0-9a-f]{64} the nodeup config names; nothing was installed/);
    expectNothingInstalled(root);
    h.removeRoot(root);
  });

  it('a tampered Node.js runtime download fails before nodeup runs', async () => {
    h.tampered.set('.tar.xz', Buffer.from('not node'));
    const root = h.freshRoot('tampered-runtime');
    const r = await h.bootstrap(root, NODES);
    expect(r.status).not.toBe(0);
    expect(r.out).toMatch(/== kforge bootstrap FAILED: http:\/\/\S+\.tar\.xz has sha256 [0-9a-f]{64}, not the expected [0-9a-f]{64}; nothing was installed ==/);
    expect(fs.existsSync(path.join(root, 'opt/kforge/node'))).toBe(false);
    expect(fs.existsSync(path.join(root, 'opt/kforge/bin/nodeup'))).toBe(false);
    expectNothingInstalled(root);
    h.removeRoot(root);
  });

  it('a tampered nodeup bundle in the state store fails closed in user-data, before nodeup runs', async () => {
    const key = nodeupUrl().slice(`s3://${BUCKET}/`.length);
    await h.s3.send(new PutObjectCommand({ Bucket: BUCKET, Key: key, Body: 'not nodeup' }));
    const root = h.freshRoot('tampered-nodeup');
    try {
      const r = await h.bootstrap(root, NODES);
      expect(r.status).not.toBe(0);
      expect(r.out).toContain(`== kforge bootstrap FAILED: ${nodeupUrl()} has sha256 ${sha256('not nodeup')}, not the expected ${builtNodeupArtifact().sha256}; nothing was installed ==`);
      expect(fs.existsSync(path.join(root, 'opt/kforge/bin/nodeup'))).toBe(false);
      expectNothingInstalled(root);
    } finally {
      await h.s3.send(new PutObjectCommand({ Bucket: BUCKET, Key: key, Body: fs.readFileSync(builtNodeupArtifact().path) }));
      h.removeRoot(root);
    }
  });

  it('off EC2 (the firmware does not say Amazon) nodeup has no credentials: none but the instance role reached the node', async () => {
    const root = h.freshRoot('not-ec2');
    fs.writeFileSync(path.join(root, 'sys/class/dmi/id/sys_vendor'), 'QEMU\n');
    const r = await h.bootstrap(root, NODES);
    expect(r.status).not.toBe(0);
    expect(r.out).toMatch(new RegExp(`Error: --conf /opt/kforge/conf/kube_env.yaml: cannot read s3://${BUCKET}/${CLUSTER}/igconfig/node/${NODES}/nodeupconfig.yaml`));
    expectNothingInstalled(root);
    h.removeRoot(root);
  });

  it('a tampered nodeup config in the state store', async () => {
    const key = StatePaths.nodeupConfig(CLUSTER, 'Node', NODES);
    await h.s3.send(new PutObjectCommand({ Bucket: BUCKET, Key: key, Body: `${h.storedConfigs.get(key)}# changed\n` }));
    const root = h.freshRoot('tampered-config');
    try {
      const r = await h.bootstrap(root, NODES);
      expect(r.status).not.toBe(0);
      expect(r.out).toMatch(new RegExp(`Error: --conf /opt/kforge/conf/kube_env.yaml: s3://${BUCKET}/${CLUSTER}/igconfig/node/${NODES}/nodeupconfig.yaml has sha256 [0-9a-f]{64}, not the [0-9a-f]{64} this machine was launched with`));
      expectNothingInstalled(root);
    } finally {
      await h.s3.send(new PutObjectCommand({ Bucket: BUCKET, Key: key, Body: h.storedConfigs.get(key) }));
      h.removeRoot(root);
    }
  });
});

describe('a worker joins through the node-identity service in the control-plane root (ConfigServer, no store)', () => {
  nodeIdentityInRootSuite(() => h);
});
