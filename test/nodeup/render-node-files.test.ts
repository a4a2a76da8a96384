import * as fs from 'node:fs';
import * as path from 'node:path';
import * as yaml from 'js-yaml';
import type { NodeupConfig } from '../../src/model/nodeup-config-builder';
import { applyNodeFiles } from '../../src/nodeup/apply-node-files';
import { NodeRootError } from '../../src/nodeup/node-root-error';
import { NodeRootEscapeError } from '../../src/nodeup/node-root-escape-error';
import { NodeupConfigError } from '../../src/nodeup/nodeup-config-error';
import { parseNodeupConfig } from '../../src/nodeup/parse-nodeup-config';
import { renderNodeFiles } from '../../src/nodeup/render-node-files';
import { systemdExecLine } from '../../src/nodeup/systemd-exec-line';
import { createCluster } from '../../src/ops/create-cluster';
import { planManagedFiles, writeManagedFiles } from '../../src/ops/plan-managed-files';
import { StatePaths } from '../../src/state/state-paths';
import { openVfs } from '../../src/state/vfs/open-vfs';
import { listFiles, tempDir } from '../helpers/cli';
import { makeVerifiableRoot, systemdArgv, verify } from '../helpers/systemd-unit';

// The renderer and the writer called directly, on nodeup configs of a default cluster (cilium, so
// kube-proxy is disabled) made by the real pipeline in an in-memory store.

const NAME = 'render.k8s.local';
const dirs: string[] = [];
let cp: NodeupConfig;
let node: NodeupConfig;
let nodeText: string;

beforeAll(async () => {
  const vfs = openVfs(`memfs://nodeup-render-${process.pid}`);
  await createCluster(vfs, { name: NAME, zones: ['us-east-1a'] }, [], undefined, { command: 'kforge test', ttlSeconds: 60, warn: () => undefined });
  await writeManagedFiles(vfs, await planManagedFiles(vfs, NAME));
  const read = async (role: string, ig: string) => {
    const got = await vfs.read(StatePaths.nodeupConfig(NAME, role, ig));
    if (!got) throw new Error(`no nodeup config for ${ig}`);
    return got.data.toString('utf8');
  };
  cp = parseNodeupConfig(await read('ControlPlane', 'control-plane-us-east-1a'), 'cp.yaml');
  nodeText = await read('Node', 'nodes-us-east-1a');
  node = parseNodeupConfig(nodeText, 'node.yaml');
});

afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

function dir(): string {
  const d = tempDir('kforge-nodeup-unit-');
  dirs.push(d);
  return d;
}

describe('renderNodeFiles', () => {
  it('is pure and deterministic, sorted by path, 0644, and never holds a private key', () => {
    const a = renderNodeFiles(cp);
    expect(renderNodeFiles(structuredClone(cp))).toEqual(a);
    expect(a.map((f) => f.path)).toEqual([...a.map((f) => f.path)].sort((x, y) => x.localeCompare(y)));
    for (const f of [...a, ...renderNodeFiles(node)]) {
      expect(f.mode).toBe(0o644);
      expect(f.content).not.toMatch(/PRIVATE KEY/);
    }
  });

  it('writes no kube-proxy manifest when kube-proxy is disabled (cilium replaces it)', () => {
    expect(node.ComponentFlags['kube-proxy']).toBeUndefined();
    expect(renderNodeFiles(node).map((f) => f.path)).toEqual([
      '/etc/containerd/config.toml',
      '/etc/modules-load.d/k8s.conf',
      '/etc/sysctl.d/99-k8s-general.conf',
      '/etc/systemd/system/containerd.service',
      '/etc/systemd/system/kubelet.service',
      '/srv/kubernetes/ca.crt',
      '/var/lib/kubelet/kubelet.conf',
    ]);
    expect(renderNodeFiles(cp).filter((f) => f.path.startsWith('/etc/kubernetes/manifests/')).map((f) => path.basename(f.path))).toEqual([
      'kube-apiserver.manifest',
      'kube-controller-manager.manifest',
      'kube-scheduler.manifest',
    ]);
  });

  it('writes kforge-protokube.service for the ControlPlane role only (an APIServer group holds no etcd member)', () => {
    const unit = '/etc/systemd/system/kforge-protokube.service';
    expect(renderNodeFiles(cp).filter((f) => f.path === unit)).toHaveLength(1);
    expect(renderNodeFiles({ ...cp, InstanceGroupRole: 'APIServer' }).some((f) => f.path === unit)).toBe(false);
    expect(renderNodeFiles(node).some((f) => f.path === unit)).toBe(false);
  });

  it("sets the kernel settings kubelet's --protect-kernel-defaults checks, and loads overlay and br_netfilter", () => {
    const files = Object.fromEntries(renderNodeFiles(node).map((f) => [f.path, f.content]));
    expect(files['/etc/sysctl.d/99-k8s-general.conf']).toMatch(/^vm\.overcommit_memory = 1$/m);
    expect(files['/etc/sysctl.d/99-k8s-general.conf']).toMatch(/^kernel\.panic = 10$/m);
    expect(files['/etc/sysctl.d/99-k8s-general.conf']).toMatch(/^net\.ipv4\.ip_forward = 1$/m);
    expect(files['/etc/modules-load.d/k8s.conf']).toBe('overlay\nbr_netfilter\n');
  });

  it('refuses a CA bundle with anything but certificates, and a missing CA', () => {
    const junk = { ...node, CAs: { 'kubernetes-ca': `${(node.CAs as Record<string, string>)['kubernetes-ca']}trailing text\n` } };
    expect(() => renderNodeFiles(junk, { source: 'n.yaml' })).toThrow(new NodeupConfigError('n.yaml: CAs.kubernetes-ca: must hold PEM certificates and nothing else'));
    expect(() => renderNodeFiles({ ...node, CAs: undefined })).toThrow(/CAs\.kubernetes-ca: missing; \/srv\/kubernetes\/ca\.crt is written from it/);
  });

  it('refuses a sandbox image that would need TOML quoting', () => {
    expect(() => renderNodeFiles({ ...node, Images: { ...node.Images, pause: 'evil"\n[x]' } })).toThrow(NodeupConfigError);
  });
});

describe('systemdExecLine', () => {
  const tricky = ['/usr/local/bin/kubelet', '--a=x y', '--b=$HOME ${X}', '--c=10%', '--d="q" \'s\'', '--e=back\\slash', '--f=semi;colon', '', '--g=<100Mi,>'];

  it('round-trips any argv through systemd word splitting', () => {
    expect(systemdArgv(systemdExecLine(tricky).replace(/\\\n/g, ' '))).toEqual(tricky);
  });

  it('the round trip can fail: a lone % or $ would be expanded by systemd (systemd-analyze does not flag it)', () => {
    expect(() => systemdArgv('/bin/x --a=10%,b')).toThrow(/unescaped specifier %,/);
    expect(() => systemdArgv('/bin/x ${HOME}')).toThrow(/unescaped variable/);
  });

  it('writes a unit systemd-analyze accepts without a warning (no stray specifier or escape)', () => {
    const root = dir();
    fs.mkdirSync(path.join(root, 'etc/systemd/system'), { recursive: true });
    fs.writeFileSync(path.join(root, 'etc/systemd/system/tricky.service'), `[Service]\nExecStart=${systemdExecLine(tricky)}\n`);
    const copy = dir();
    makeVerifiableRoot(root, copy, ['tricky.service']);
    const r = verify(copy, 'tricky.service');
    expect({ status: r.status, stderr: r.stderr }).toEqual({ status: 0, stderr: '' });
  });

  it('refuses a control character', () => {
    expect(() => systemdExecLine(['/bin/x', '--a=1\n[Service]'])).toThrow(NodeupConfigError);
  });
});

describe('parseNodeupConfig', () => {
  it('refuses a bastion, which is not a Kubernetes node', () => {
    expect(() => parseNodeupConfig(yaml.dump({ ...(yaml.load(nodeText) as object), InstanceGroupRole: 'Bastion' }), 'b.yaml')).toThrow(/b\.yaml: not a usable nodeup config:\n {2}InstanceGroupRole: Bastion: a bastion is not a Kubernetes node/);
  });

  it('lists every problem at once', () => {
    expect(() => parseNodeupConfig('ClusterName: x\nInstanceGroupRole: Worker\n', 'x.yaml')).toThrow(
      new NodeupConfigError(
        'x.yaml: not a usable nodeup config:\n  InstanceGroupName: must be a non-empty string\n  KubernetesVersion: must be a non-empty string\n  InstanceGroupRole: must be one of ControlPlane, APIServer, Node, Bastion\n  ComponentFlags: must be a mapping of component name to argv\n  Images: must be a mapping of component name to image',
      ),
    );
  });
});

describe('applyNodeFiles', () => {
  const file = { path: '/etc/x/y.conf', mode: 0o644, content: 'a\n' };

  it('refuses to replace a directory or a symlink, and reports a root it cannot write in', () => {
    const root = dir();
    fs.mkdirSync(path.join(root, 'etc/x/y.conf'), { recursive: true });
    expect(() => applyNodeFiles([file], root)).toThrow(NodeRootError);
    const root2 = dir();
    fs.mkdirSync(path.join(root2, 'etc/x'), { recursive: true });
    fs.symlinkSync('/etc/hostname', path.join(root2, 'etc/x/y.conf'));
    // A final-file symlink: one out of the root is an escape, one inside is still not replaced or followed.
    expect(() => applyNodeFiles([file], root2)).toThrow(NodeRootEscapeError);
    expect(fs.readlinkSync(path.join(root2, 'etc/x/y.conf'))).toBe('/etc/hostname');
    fs.rmSync(path.join(root2, 'etc/x/y.conf'));
    fs.writeFileSync(path.join(root2, 'etc/x/real'), 'keep\n');
    fs.symlinkSync('real', path.join(root2, 'etc/x/y.conf'));
    expect(() => applyNodeFiles([file], root2)).toThrow(NodeRootError);
    expect(fs.readFileSync(path.join(root2, 'etc/x/real'), 'utf8')).toBe('keep\n');
    const notDir = path.join(dir(), 'plain-file');
    fs.writeFileSync(notDir, '');
    expect(() => applyNodeFiles([file], notDir)).toThrow(NodeRootError);
  });

  it('refuses to write through a symlink that leaves the root, and follows one that stays inside', () => {
    const outside = dir();
    const root = dir();
    fs.symlinkSync(outside, path.join(root, 'etc'));
    expect(() => applyNodeFiles([file], root)).toThrow(NodeRootEscapeError);
    expect(() => applyNodeFiles([file], root, { dryRun: true })).toThrow(NodeRootEscapeError);
    expect(listFiles(outside)).toEqual([]);
    // As in a Debian root: /lib -> usr/lib, relative, stays inside.
    const debian = dir();
    fs.mkdirSync(path.join(debian, 'usr/etc'), { recursive: true });
    fs.symlinkSync('usr/etc', path.join(debian, 'etc'));
    expect(applyNodeFiles([file], debian).created).toBe(1);
    expect(fs.readFileSync(path.join(debian, 'usr/etc/x/y.conf'), 'utf8')).toBe('a\n');
  });

  it('creates a root that does not exist yet; a dry run there writes nothing', () => {
    const parent = dir();
    const root = path.join(parent, 'a/b');
    expect(applyNodeFiles([file], root, { dryRun: true }).files).toEqual([{ path: '/etc/x/y.conf', mode: '0644', action: 'created' }]);
    expect(listFiles(parent)).toEqual([]);
    expect(applyNodeFiles([file, { ...file, path: '/srv/z' }], root).created).toBe(2);
    expect(listFiles(parent)).toEqual(['a/b/etc/x/y.conf', 'a/b/srv/z']);
  });

  it('refuses a path outside the node', () => {
    expect(() => applyNodeFiles([{ ...file, path: '/etc/../../escape' }], dir())).toThrow(NodeRootError);
  });

  it('writes, then reports unchanged; a mode-only difference is a chmod', () => {
    const root = dir();
    expect(applyNodeFiles([file], root)).toMatchObject({ created: 1, changed: 0, unchanged: 0 });
    expect(applyNodeFiles([file], root)).toMatchObject({ created: 0, changed: 0, unchanged: 1 });
    expect(applyNodeFiles([{ ...file, mode: 0o600 }], root).files).toEqual([{ path: '/etc/x/y.conf', mode: '0600', action: 'changed' }]);
    expect(fs.statSync(path.join(root, 'etc/x/y.conf')).mode & 0o777).toBe(0o600);
    expect(listFiles(root)).toEqual(['etc/x/y.conf']);
  });
});
