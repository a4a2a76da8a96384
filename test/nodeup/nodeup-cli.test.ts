import { spawnSync } from 'node:child_process';
import { createStorePathCluster } from '../helpers/store-path-cluster';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as yaml from 'js-yaml';
import { Pod } from 'kubernetes-models/v1/Pod';
import type { Cluster } from '../../src/api/types';
import { componentCommand, controlPlaneCommands } from '../../src/flags/component-argv';
import type { NodeupConfig } from '../../src/model/nodeup-config-builder';
import { planManagedFiles, writeManagedFiles } from '../../src/ops/plan-managed-files';
import type { LockOptions } from '../../src/state/lock/cluster-lock';
import { StatePaths } from '../../src/state/state-paths';
import { openVfs } from '../../src/state/vfs/open-vfs';
import { ensureAptTool } from '../helpers/apt-tool';
import { execCommands, makeVerifiableRoot, verify } from '../helpers/systemd-unit';
import { CliResult, expectCleanFailure, listFiles, runCli, tempDir, treeDigest } from '../helpers/cli';
import { splitStages, STATUS_FILE } from './stage-lines';

// `kforge nodeup --conf` against nodeup configs made by the real pipeline (create cluster, then what
// `update cluster --yes` writes to the store), checked with real tools: Debian's containerd 1.6 reads the
// written config, systemd-analyze verifies the units, kubernetes-models validates the static pods.

const LOCK: LockOptions = { command: 'kforge test', ttlSeconds: 60, warn: () => undefined };
const NAME = 'nodeup.k8s.local';
const ZONE = 'us-east-1a';
const dirs: string[] = [];
let completed: Cluster;
let cpConf: string;
let nodeConf: string;
let cpRoot: string;
let nodeRoot: string;
let firstCp: CliResult;
let firstNode: CliResult;

function dir(prefix: string): string {
  const d = tempDir(prefix);
  dirs.push(d);
  return d;
}

function readConfig(file: string): NodeupConfig {
  return yaml.load(fs.readFileSync(file, 'utf8')) as NodeupConfig;
}

beforeAll(async () => {
  const store = dir('kforge-nodeup-store-');
  const vfs = openVfs(store);
  // calico keeps kube-proxy enabled (cilium, the default, replaces it), so nodes get its manifest.
  await createStorePathCluster(vfs, { name: NAME, zones: [ZONE], networking: 'calico' }, LOCK);
  const plan = await planManagedFiles(vfs, NAME);
  await writeManagedFiles(vfs, plan);
  completed = plan.completed;
  cpConf = path.join(store, StatePaths.nodeupConfig(NAME, 'ControlPlane', `control-plane-${ZONE}`));
  nodeConf = path.join(store, StatePaths.nodeupConfig(NAME, 'Node', `nodes-${ZONE}`));
  expect(fs.existsSync(cpConf) && fs.existsSync(nodeConf)).toBe(true);
  cpRoot = dir('kforge-nodeup-cp-');
  nodeRoot = dir('kforge-nodeup-node-');
  firstCp = runCli(['nodeup', '--conf', cpConf, '--root', cpRoot, '-o', 'json']);
  firstNode = runCli(['nodeup', '--conf', nodeConf, '--root', nodeRoot, '-o', 'json']);
});

afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

// Private keys and kubeconfigs (which embed one) are 0600; everything else 0644.
const CP_SECRETS = [
  'srv/kubernetes/kube-apiserver/apiserver-aggregator.key',
  'srv/kubernetes/kube-apiserver/etcd-client.key',
  'srv/kubernetes/kube-apiserver/kubelet-api.key',
  'srv/kubernetes/kube-apiserver/server.key',
  'srv/kubernetes/kube-apiserver/service-account.key',
  'srv/kubernetes/kube-controller-manager/ca.key',
  'srv/kubernetes/kube-controller-manager/service-account.key',
  // protokube's identity for applying the bootstrap channel (CN kforge, system:masters).
  'var/lib/kforge/kubeconfig',
  'var/lib/kube-controller-manager/kubeconfig',
  'var/lib/kube-proxy/kubeconfig',
  'var/lib/kube-scheduler/kubeconfig',
  'var/lib/kubelet/kubeconfig',
];
// A worker's kubelet gets the bootstrap identity; it writes --kubeconfig itself once its CSR is signed.
const NODE_SECRETS = ['var/lib/kube-proxy/kubeconfig', 'var/lib/kubelet/bootstrap-kubeconfig'];
const CP_FILES = [
  'etc/containerd/config.toml',
  // The cluster is nodeup.k8s.local: no DNS, so the control plane maps the API's names to itself.
  'etc/hosts',
  'etc/kubernetes/manifests/kube-apiserver.manifest',
  'etc/kubernetes/manifests/kube-controller-manager.manifest',
  'etc/kubernetes/manifests/kube-proxy.manifest',
  'etc/kubernetes/manifests/kube-scheduler.manifest',
  'etc/modules-load.d/k8s.conf',
  'etc/sysctl.d/99-k8s-general.conf',
  'etc/systemd/system/containerd.service',
  // Control plane only: protokube claims the etcd volumes and writes the etcd members.
  'etc/systemd/system/kforge-kops-controller.service',
  'etc/systemd/system/kforge-protokube.service',
  'etc/systemd/system/kubelet.service',
  'srv/kubernetes/ca.crt',
  'srv/kubernetes/kube-apiserver/apiserver-aggregator-ca.crt',
  'srv/kubernetes/kube-apiserver/apiserver-aggregator.crt',
  'srv/kubernetes/kube-apiserver/etcd-ca.crt',
  'srv/kubernetes/kube-apiserver/etcd-client.crt',
  'srv/kubernetes/kube-apiserver/kubelet-api.crt',
  'srv/kubernetes/kube-apiserver/server.crt',
  'srv/kubernetes/kube-apiserver/service-account.pub',
  'srv/kubernetes/kube-controller-manager/ca.crt',
  // kubelet's KubeletConfiguration file (settings without a flag), where its --config points.
  'var/lib/kubelet/kubelet.conf',
  ...CP_SECRETS,
].sort();
const NODE_FILES = [
  'etc/containerd/config.toml',
  'etc/kubernetes/manifests/kube-proxy.manifest',
  'etc/modules-load.d/k8s.conf',
  'etc/sysctl.d/99-k8s-general.conf',
  'etc/systemd/system/containerd.service',
  'etc/systemd/system/kubelet.service',
  'srv/kubernetes/ca.crt',
  'var/lib/kubelet/kubelet.conf',
  ...NODE_SECRETS,
].sort();
/** What a root holds after a run: the files, and the status file that records the stage. */
const withStatus = (files: string[]) => [...files, STATUS_FILE].sort();

describe('kforge nodeup --conf FILE --root DIR', () => {
  it('writes the files of a control-plane node and of a worker node', () => {
    expect(splitStages(firstCp)).toMatchObject({ stderr: '', stages: ['config-fetched', 'keysets-read', 'files-written', 'done'] });
    expect(firstCp.status).toBe(0);
    expect(firstNode.status).toBe(0);
    expect(listFiles(cpRoot)).toEqual(withStatus(CP_FILES));
    expect(listFiles(nodeRoot)).toEqual(withStatus(NODE_FILES));
    const report = JSON.parse(firstCp.stdout);
    expect(report).toMatchObject({ cluster: NAME, instanceGroup: `control-plane-${ZONE}`, role: 'ControlPlane', dryRun: false, created: CP_FILES.length, changed: 0, unchanged: 0 });
    for (const [root, files, secrets] of [[cpRoot, CP_FILES, CP_SECRETS], [nodeRoot, NODE_FILES, NODE_SECRETS]] as const) {
      for (const f of files) expect({ f, mode: (fs.statSync(path.join(root, f)).mode & 0o777).toString(8) }).toEqual({ f, mode: secrets.includes(f) ? '600' : '644' });
    }
  });

  it('a worker root holds no control-plane file, and private keys only in its two kubeconfigs', () => {
    for (const f of listFiles(nodeRoot)) expect({ f, key: /PRIVATE KEY|client-key-data/.test(fs.readFileSync(path.join(nodeRoot, f), 'utf8')) }).toEqual({ f, key: NODE_SECRETS.includes(f) });
    expect(listFiles(nodeRoot).filter((f) => /kube-apiserver|kube-controller-manager|kube-scheduler|etcd/.test(f))).toEqual([]);
    // The CA file is the kubernetes-ca bundle of the config, certificates only.
    expect(fs.readFileSync(path.join(nodeRoot, 'srv/kubernetes/ca.crt'), 'utf8').trim()).toBe((readConfig(nodeConf).CAs as Record<string, string>)['kubernetes-ca'].trim());
  });

  it('a second run changes nothing and says so (certificates kept, keys not regenerated)', () => {
    // The status file records each run's time; everything else must stay byte for byte.
    const digest = () => {
      const status = fs.readFileSync(path.join(cpRoot, STATUS_FILE));
      fs.rmSync(path.join(cpRoot, STATUS_FILE));
      const d = treeDigest(cpRoot);
      fs.writeFileSync(path.join(cpRoot, STATUS_FILE), status);
      return d;
    };
    const before = digest();
    const again = runCli(['nodeup', '--conf', cpConf, '--root', cpRoot]);
    expect(again.status).toBe(0);
    expect(again.stdout).toContain(`No changes: ${CP_FILES.length} files up to date.`);
    expect(digest()).toBe(before);
    const json = JSON.parse(runCli(['nodeup', '--conf', nodeConf, '--root', nodeRoot, '-o', 'json']).stdout);
    expect(json).toMatchObject({ created: 0, changed: 0, unchanged: NODE_FILES.length });
  });

  it('rewrites only what differs: changed content, changed mode, a removed file', () => {
    const root = dir('kforge-nodeup-drift-');
    expect(runCli(['nodeup', '--conf', nodeConf, '--root', root]).status).toBe(0);
    fs.appendFileSync(path.join(root, 'etc/containerd/config.toml'), '# local edit\n');
    fs.chmodSync(path.join(root, 'etc/sysctl.d/99-k8s-general.conf'), 0o600);
    fs.rmSync(path.join(root, 'etc/modules-load.d/k8s.conf'));
    const r = JSON.parse(runCli(['nodeup', '--conf', nodeConf, '--root', root, '-o', 'json']).stdout);
    const actions = Object.fromEntries((r.files as Array<{ path: string; action: string }>).filter((f) => f.action !== 'unchanged').map((f) => [f.path, f.action]));
    expect(actions).toEqual({ '/etc/containerd/config.toml': 'changed', '/etc/sysctl.d/99-k8s-general.conf': 'changed', '/etc/modules-load.d/k8s.conf': 'created' });
    expect(fs.statSync(path.join(root, 'etc/sysctl.d/99-k8s-general.conf')).mode & 0o777).toBe(0o644);
    expect(fs.readFileSync(path.join(root, 'etc/containerd/config.toml'), 'utf8')).not.toContain('local edit');
    // No temporary file is left behind.
    expect(listFiles(root)).toEqual(withStatus(NODE_FILES));
  });

  it('--dry-run lists what it would write and writes nothing', () => {
    const root = path.join(dir('kforge-nodeup-dry-'), 'not-yet');
    const r = runCli(['nodeup', '--conf', cpConf, '--root', root, '--dry-run']);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('dry run: nothing written');
    expect(r.stdout).toContain('would create 0644 /etc/kubernetes/manifests/kube-apiserver.manifest');
    expect(r.stdout).toContain(`${CP_FILES.length} files: ${CP_FILES.length} would create, 0 would change, 0 unchanged.`);
    expect(fs.existsSync(root)).toBe(false);
    // A root that does not exist is created by a real run.
    expect(runCli(['nodeup', '--conf', cpConf, '--root', root]).status).toBe(0);
    // With no /etc/hosts in the root, nodeup creates one holding only its block.
    expect(listFiles(root)).toEqual(withStatus(CP_FILES));
    // On an installed root, a drifted file is reported as "would change" and left as it is.
    fs.appendFileSync(path.join(cpRoot, 'etc/modules-load.d/k8s.conf'), 'dummy\n');
    const before = treeDigest(cpRoot);
    const dry = runCli(['nodeup', '--conf', cpConf, '--root', cpRoot, '--dry-run', '-o', 'json']);
    // A dry run prints its stages but records none.
    expect(splitStages(dry).stages).toEqual(['config-fetched', 'keysets-read', 'files-written', 'done']);
    const d = JSON.parse(dry.stdout);
    expect(d).toMatchObject({ dryRun: true, created: 0, changed: 1, unchanged: CP_FILES.length - 1 });
    expect(treeDigest(cpRoot)).toBe(before);
    expect(runCli(['nodeup', '--conf', cpConf, '--root', cpRoot]).status).toBe(0);
  });
});

describe('the real containerd accepts the written config', () => {
  let containerd: string;
  // apt-get update and install can take minutes on a cold machine.
  beforeAll(() => {
    containerd = ensureAptTool('containerd', 'containerd');
  }, 300_000);

  it('`containerd --config … config dump` exits 0, with our sandbox image and the systemd cgroup driver', () => {
    for (const [root, conf] of [[cpRoot, cpConf], [nodeRoot, nodeConf]]) {
      const r = spawnSync(containerd, ['--config', path.join(root, 'etc/containerd/config.toml'), 'config', 'dump'], { encoding: 'utf8' });
      expect({ status: r.status, stderr: r.stderr }).toEqual({ status: 0, stderr: '' });
      // The dump is containerd's merged view: it shows the values it read from our file.
      expect(r.stdout).toContain(`sandbox_image = "${readConfig(conf).Images.pause}"`);
      expect(r.stdout).toMatch(/SystemdCgroup = true/);
      expect(r.stdout).toMatch(/bin_dir = "\/opt\/cni\/bin\/"/);
    }
  });

  it('a broken config makes the same check fail (the check can fail)', () => {
    const bad = path.join(dir('kforge-nodeup-bad-'), 'config.toml');
    fs.writeFileSync(bad, fs.readFileSync(path.join(nodeRoot, 'etc/containerd/config.toml'), 'utf8').replace('[plugins]', '[plugins'));
    const r = spawnSync(containerd, ['--config', bad, 'config', 'dump'], { encoding: 'utf8' });
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(/failed to load TOML/);
  });
});

describe('systemd-analyze verify accepts the units', () => {
  // systemd-analyze --root needs the distribution's units and an executable at every ExecStart path:
  // kubelet and containerd are not installed by this part of nodeup, so verifiableRoot puts STUB
  // EXECUTABLES there (see test/helpers/systemd-unit.ts). The check proves the unit files, not the binaries.
  function verifiableRoot(root: string): string {
    const copy = dir('kforge-nodeup-systemd-');
    makeVerifiableRoot(root, copy, ['containerd.service', 'kubelet.service']);
    return copy;
  }

  it('containerd.service, kubelet.service and (control plane) kforge-protokube.service verify with no output on stderr', () => {
    expect(spawnSync('sh', ['-c', 'command -v systemd-analyze']).status).toBe(0);
    for (const [root, units] of [[cpRoot, ['containerd.service', 'kubelet.service', 'kforge-protokube.service', 'kforge-kops-controller.service']], [nodeRoot, ['containerd.service', 'kubelet.service']]] as const) {
      const copy = dir('kforge-nodeup-systemd-');
      makeVerifiableRoot(root, copy, [...units]);
      for (const unit of units) {
        const r = verify(copy, unit);
        expect({ unit, status: r.status, stderr: r.stderr }).toEqual({ unit, status: 0, stderr: '' });
      }
    }
  });

  it('get nodeup-config prints the stored file that nodeup --conf takes; before the first update it says what to run', () => {
    const store = path.dirname(path.dirname(path.dirname(path.dirname(path.dirname(nodeConf)))));
    const r = runCli(['get', 'nodeup-config', NAME, '--instance-group', `nodes-${ZONE}`, '--state', store]);
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(fs.readFileSync(nodeConf, 'utf8').replace(/\n?$/, '\n'));
    expect(JSON.parse(runCli(['get', 'nodeup-config', NAME, '--instance-group', `nodes-${ZONE}`, '-o', 'json', '--state', store]).stdout)).toMatchObject({ InstanceGroupName: `nodes-${ZONE}` });
    const missing = runCli(['get', 'nodeup-config', NAME, '--instance-group', 'nope', '--state', store]);
    expect(missing.stderr).toMatch(/^Error: instance group "nope" not found in cluster "nodeup\.k8s\.local"/);
    const fresh = dir('kforge-nodeup-fresh-');
    expect(runCli(['create', 'cluster', 'fresh.k8s.local', '--zones', ZONE, '--state', fresh]).status).toBe(0);
    const before = runCli(['get', 'nodeup-config', 'fresh.k8s.local', '--instance-group', `nodes-${ZONE}`, '--state', fresh]);
    expect(before.status).not.toBe(0);
    expect(before.stderr).toMatch(/does not exist yet: run "kforge update cluster fresh\.k8s\.local --yes" first/);
  });

  it('--install-systemd-unit adds kforge-nodeup.service, which systemd accepts and which reruns nodeup with the same --conf', () => {
    const root = dir('kforge-nodeup-unit-');
    const r = runCli(['nodeup', '--conf', nodeConf, '--root', root, '--install-systemd-unit']);
    expect(r.status).toBe(0);
    const unit = fs.readFileSync(path.join(root, 'etc/systemd/system/kforge-nodeup.service'), 'utf8');
    expect(execCommands(unit)).toEqual([['/opt/kforge/bin/nodeup', `--conf=${path.resolve(nodeConf)}`]]);
    const copy = dir('kforge-nodeup-unit-verify-');
    makeVerifiableRoot(root, copy, ['kforge-nodeup.service']);
    const v = verify(copy, 'kforge-nodeup.service');
    expect({ status: v.status, stderr: v.stderr }).toEqual({ status: 0, stderr: '' });
    // Idempotent with the unit too.
    expect(runCli(['nodeup', '--conf', nodeConf, '--root', root, '--install-systemd-unit']).stdout).toMatch(/No changes/);
  });

  it('the check can fail: an unknown key is reported on stderr, a missing binary fails', () => {
    const copy = verifiableRoot(nodeRoot);
    const unitPath = path.join(copy, 'etc/systemd/system/kubelet.service');
    fs.writeFileSync(path.join(copy, 'etc/systemd/system/bogus.service'), fs.readFileSync(unitPath, 'utf8').replace('Restart=always', 'Restart=always\nRestartTypo=1'));
    expect(verify(copy, 'bogus.service').stderr).toMatch(/Unknown key 'RestartTypo'/);
    fs.rmSync(path.join(copy, 'usr/local/bin/kubelet'));
    const r = verify(copy, 'kubelet.service');
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(/kubelet is not executable/);
  });

  it('kforge-protokube.service (control plane only) runs protokube from the nodeup artifact with the boot config, after containerd and the network, and always restarts', () => {
    const unit = fs.readFileSync(path.join(cpRoot, 'etc/systemd/system/kforge-protokube.service'), 'utf8');
    // The artifact dispatches on its first argument (scripts/build-nodeup.js); user-data writes the boot config there.
    expect(execCommands(unit)).toEqual([['/opt/kforge/bin/nodeup', 'protokube', '--conf=/opt/kforge/conf/kube_env.yaml']]);
    expect(unit).toMatch(/^After=network-online\.target containerd\.service kforge-nodeup\.service$/m);
    expect(unit).toMatch(/^Wants=network-online\.target$/m);
    expect(unit).toMatch(/^Restart=always$/m);
    expect(unit).toMatch(/^WantedBy=multi-user\.target$/m);
    expect(fs.existsSync(path.join(nodeRoot, 'etc/systemd/system/kforge-protokube.service'))).toBe(false);
  });

  it('kforge-kops-controller.service (control plane only) runs the node-identity service from the nodeup artifact with the boot config, and always restarts', () => {
    const unit = fs.readFileSync(path.join(cpRoot, 'etc/systemd/system/kforge-kops-controller.service'), 'utf8');
    expect(execCommands(unit)).toEqual([['/opt/kforge/bin/nodeup', 'kops-controller', '--conf=/opt/kforge/conf/kube_env.yaml']]);
    expect(unit).toMatch(/^After=network-online\.target kforge-nodeup\.service$/m);
    expect(unit).toMatch(/^Restart=always$/m);
    expect(unit).toMatch(/^WantedBy=multi-user\.target$/m);
    expect(fs.existsSync(path.join(nodeRoot, 'etc/systemd/system/kforge-kops-controller.service'))).toBe(false);
  });

  it("kubelet's ExecStart is exactly the rendered argv of the config", () => {
    for (const [root, conf] of [[cpRoot, cpConf], [nodeRoot, nodeConf]]) {
      const [argv] = execCommands(fs.readFileSync(path.join(root, 'etc/systemd/system/kubelet.service'), 'utf8'));
      expect(argv).toEqual(readConfig(conf).ComponentFlags.kubelet);
      // The eviction flag carries `%`, which systemd would expand as a specifier unless written as `%%`.
      expect(argv.some((a) => a.startsWith('--eviction-hard=') && a.includes('%'))).toBe(true);
    }
  });
});

describe('static pod manifests', () => {
  function manifest(root: string, component: string): Record<string, unknown> {
    return yaml.load(fs.readFileSync(path.join(root, 'etc/kubernetes/manifests', `${component}.manifest`), 'utf8')) as Record<string, unknown>;
  }

  it('validate as Pods (kubernetes-models schema) and run exactly the rendered argv of the completed spec', () => {
    const expected: Record<string, string[]> = Object.fromEntries(controlPlaneCommands(completed.spec).map((c) => [c.component, c.argv]));
    expected['kube-proxy'] = componentCommand('kube-proxy', completed.spec.kubeProxy).argv;
    const cp = readConfig(cpConf);
    for (const [root, components] of [[cpRoot, ['kube-apiserver', 'kube-controller-manager', 'kube-scheduler', 'kube-proxy']], [nodeRoot, ['kube-proxy']]] as const) {
      for (const component of components) {
        const obj = manifest(root, component);
        expect(() => new Pod(obj as ConstructorParameters<typeof Pod>[0]).validate()).not.toThrow();
        const pod = new Pod(obj as ConstructorParameters<typeof Pod>[0]);
        expect(pod.metadata?.namespace).toBe('kube-system');
        expect(pod.spec?.hostNetwork).toBe(true);
        expect(pod.spec?.priorityClassName).toBe('system-node-critical');
        const container = pod.spec?.containers[0];
        expect(container?.command).toEqual(expected[component]);
        expect(container?.command).toEqual(cp.ComponentFlags[component]);
        expect(container?.image).toBe(cp.Images[component]);
        const mounts = (container?.volumeMounts ?? []).map((m) => m.mountPath);
        expect(mounts).toEqual(expect.arrayContaining(['/srv/kubernetes', '/etc/kubernetes', '/var/log', '/etc/ssl/certs']));
        // Every absolute file a flag names is inside a mounted host directory.
        for (const arg of container?.command ?? []) {
          const m = /^--[a-z-]*(?:file|kubeconfig|certificate|key)=(\/\S+)$/.exec(arg);
          if (m) expect({ arg, mounted: mounts.some((p) => m[1].startsWith(`${p}/`)) }).toEqual({ arg, mounted: true });
        }
      }
    }
  });

  it('the validator can fail: a wrong type is refused', () => {
    const obj = manifest(nodeRoot, 'kube-proxy') as { spec: { hostNetwork: unknown } };
    obj.spec.hostNetwork = 'yes';
    expect(() => new Pod(obj as unknown as ConstructorParameters<typeof Pod>[0]).validate()).toThrow(/hostNetwork must be boolean/);
  });
});

describe('bad input: a clear message naming the file, exit 1, no stack trace, nothing installed', () => {
  it.each([
    ['a missing file', (d: string) => path.join(d, 'missing.yaml'), /--conf .*missing\.yaml: cannot read: no such file/],
    ['invalid YAML', (d: string) => write(d, 'a: [b\n'), /bad\.yaml: not valid YAML/],
    ['not a mapping', (d: string) => write(d, '- 1\n'), /bad\.yaml: not a nodeup config/],
    ['a config without kubelet flags', (d: string) => write(d, yaml.dump({ ...readConfig(nodeConf), ComponentFlags: {} })), /bad\.yaml: not a usable nodeup config:\n {2}ComponentFlags\.kubelet: is required/],
    ['a CA bundle with a private key', (d: string) => write(d, yaml.dump({ ...readConfig(nodeConf), CAs: { 'kubernetes-ca': '-----BEGIN EC PRIVATE KEY-----\nAAAA\n-----END EC PRIVATE KEY-----\n' } })), /CAs\.kubernetes-ca: holds a private key/],
    ['a control-plane config without the apiserver', (d: string) => write(d, yaml.dump({ ...readConfig(cpConf), Images: { pause: 'registry.k8s.io/pause:3.10.1' } })), /Images\.kube-apiserver: is required on a control-plane node/],
  ])('%s', (_what, make, message) => {
    const d = dir('kforge-nodeup-badconf-');
    const root = dir('kforge-nodeup-badroot-');
    const r = splitStages(runCli(['nodeup', '--conf', make(d), '--root', root]));
    expectCleanFailure(r);
    expect(r.stderr).toMatch(message);
    expect(r.stages).toEqual(['failed: INVALID_NODEUP_CONFIG']);
    // Nothing is installed; the status file records the failure.
    expect(listFiles(root)).toEqual([STATUS_FILE]);
    expect(JSON.parse(fs.readFileSync(path.join(root, STATUS_FILE), 'utf8'))).toMatchObject({ stage: 'failed: INVALID_NODEUP_CONFIG' });
  });

  function write(d: string, text: string): string {
    const f = path.join(d, 'bad.yaml');
    fs.writeFileSync(f, text);
    return f;
  }
});
