import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createStorePathCluster } from '../helpers/store-path-cluster';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import * as yaml from 'js-yaml';
import type { NodeupConfig } from '../../src/model/nodeup-config-builder';
import { planManagedFiles, writeManagedFiles } from '../../src/ops/plan-managed-files';
import { StatePaths } from '../../src/state/state-paths';
import { openVfs } from '../../src/state/vfs/open-vfs';
import { CliResult, runCliAsync, tempDir } from '../helpers/cli';
import { splitStages } from './stage-lines';

// `--root` promises nodeup never writes on the host. The directories to attack are not a hand list: a clean
// control-plane run and a clean worker run (with --assets against a local HTTP server serving stand-in
// binaries and tarballs, and --install-systemd-unit) show every directory nodeup writes into, asset cache
// and installs and the status file included. Then, for each of them in a fresh root, that directory is
// planted as a symlink to a directory outside the root, and nodeup must exit 1 with NODE_ROOT_ESCAPE,
// naming the symlink, with nothing written outside. A directory a future nodeup writes into is covered
// without changing this test.

const NAME = 'symlinks.k8s.local';
let work: string;
let server: http.Server;
let base: string;
const served = new Map<string, Buffer>();
const confs: Record<'cp' | 'node', string> = { cp: '', node: '' };
/** Every directory each clean run wrote into, relative to its root. */
const written: Record<'cp' | 'node', string[]> = { cp: [], node: [] };
/** Every file each clean run wrote, relative to its root. */
const writtenFiles: Record<'cp' | 'node', string[]> = { cp: [], node: [] };
const env = { KFORGE_TEST_ASSET_BACKOFF_MS: '10' };

jest.setTimeout(300_000);

function tarball(dir: string, files: Record<string, string>, out: string): Buffer {
  for (const [f, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, f)), { recursive: true });
    fs.writeFileSync(path.join(dir, f), content, { mode: 0o755 });
  }
  execFileSync('tar', ['-czf', out, '-C', dir, '.']);
  return fs.readFileSync(out);
}

/** The group's real nodeup config, its Assets pointed at the local server. */
function withLocalAssets(role: string, group: string, out: string): string {
  const conf = yaml.load(fs.readFileSync(path.join(work, 'store', StatePaths.nodeupConfig(NAME, role, group)), 'utf8')) as NodeupConfig;
  const list = [...served.keys()].map((p) => `${createHash('sha256').update(served.get(p) as Buffer).digest('hex')}@${base}${p}`);
  conf.Assets = { amd64: list, arm64: list };
  fs.writeFileSync(out, yaml.dump(conf));
  return out;
}

/** Every directory and every file below `root`, relative; symlinks are not followed. */
function tree(root: string): { dirs: string[]; files: string[] } {
  const dirs: string[] = [];
  const files: string[] = [];
  const walk = (rel: string) => {
    for (const ent of fs.readdirSync(path.join(root, rel), { withFileTypes: true })) {
      const r = path.posix.join(rel, ent.name);
      if (ent.isDirectory()) {
        dirs.push(r);
        walk(r);
      } else files.push(r);
    }
  };
  walk('');
  return { dirs: dirs.sort(), files: files.sort() };
}

function nodeup(kind: 'cp' | 'node', root: string): Promise<CliResult> {
  return runCliAsync(['nodeup', '--conf', confs[kind], '--root', root, '--assets', '--install-systemd-unit'], env);
}

beforeAll(async () => {
  work = tempDir('kforge-nodeup-symlinks-');
  const vfs = openVfs(path.join(work, 'store'));
  // calico keeps kube-proxy (its kubeconfig directory is one more to attack); .k8s.local: /etc/hosts is written.
  await createStorePathCluster(vfs, { name: NAME, zones: ['us-east-1a'], networking: 'calico' }, { command: 'test', ttlSeconds: 60, warn: () => undefined });
  await writeManagedFiles(vfs, await planManagedFiles(vfs, NAME));
  served.set('/kubelet', Buffer.from('#!/bin/sh\necho stand-in kubelet\n'));
  served.set('/kubectl', Buffer.from('#!/bin/sh\necho stand-in kubectl\n'));
  served.set('/runc.amd64', Buffer.from('#!/bin/sh\necho stand-in runc\n'));
  served.set('/containerd-2.0.0-linux-amd64.tar.gz', tarball(path.join(work, 'c'), { 'bin/containerd': '#!/bin/sh\n' }, path.join(work, 'c.tgz')));
  served.set('/cni-plugins-linux-amd64-v1.0.0.tgz', tarball(path.join(work, 'n'), { bridge: '#!/bin/sh\n' }, path.join(work, 'n.tgz')));
  server = http.createServer((req, res) => {
    const body = served.get(req.url ?? '');
    if (!body) res.writeHead(404).end();
    else res.writeHead(200, { 'content-length': body.length }).end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  confs.cp = withLocalAssets('ControlPlane', 'control-plane-us-east-1a', path.join(work, 'cp.yaml'));
  confs.node = withLocalAssets('Node', 'nodes-us-east-1a', path.join(work, 'node.yaml'));
  for (const kind of ['cp', 'node'] as const) {
    const root = path.join(work, `clean-${kind}`);
    const r = await nodeup(kind, root);
    expect({ status: r.status, stderr: splitStages(r).stderr }).toEqual({ status: 0, stderr: '' });
    ({ dirs: written[kind], files: writtenFiles[kind] } = tree(root));
  }
});

afterAll(async () => {
  await new Promise<void>((r) => server.close(() => r()));
  fs.rmSync(work, { recursive: true, force: true });
});

let n = 0;
/** A fresh root with `rel` planted as a symlink to an empty directory outside it; the run's result, and what the outside holds after. */
async function plantedRun(kind: 'cp' | 'node', rel: string, prepare?: (root: string) => void): Promise<{ r: CliResult; link: string; outside: string[] }> {
  const caseDir = path.join(work, `case-${++n}`);
  const root = path.join(caseDir, 'root');
  const outside = path.join(caseDir, 'outside');
  fs.mkdirSync(outside, { recursive: true });
  if (prepare) prepare(root);
  const link = path.join(root, rel);
  fs.mkdirSync(path.dirname(link), { recursive: true });
  fs.rmSync(link, { recursive: true, force: true });
  fs.symlinkSync(outside, link);
  const r = await nodeup(kind, root);
  return { r, link, outside: fs.readdirSync(outside) };
}

/** What is wrong with a planted run, or undefined: it must write nothing outside, then exit 1 with NODE_ROOT_ESCAPE naming the symlink. */
function escapeProblem({ r, link, outside }: { r: CliResult; link: string; outside: string[] }): string | undefined {
  const { stages, stderr } = splitStages(r);
  if (outside.length > 0) return `wrote outside the root: ${outside.join(', ')}`;
  if (r.status !== 1 || !stderr.startsWith('Error: ') || stderr.includes('    at ')) return `not a clean failure (exit ${r.status}): ${stderr}`;
  if (stages[stages.length - 1] !== 'failed: NODE_ROOT_ESCAPE') return `last stage ${stages[stages.length - 1]}`;
  // The error names the symlink it refused.
  if (!stderr.split('\n')[0].includes(`${link}:`)) return `the error does not name ${link}: ${stderr}`;
  return undefined;
}

it('the clean runs write into the directories this test attacks, assets, cache and status file included', () => {
  for (const d of ['var/lib/kforge', 'var/cache/kforge/assets', 'usr/local/bin', 'usr/local/sbin', 'opt/cni/bin', 'etc/systemd/system', 'var/lib/kubelet', 'var/lib/kube-proxy']) {
    expect({ d, cp: written.cp.includes(d), node: written.node.includes(d) }).toEqual({ d, cp: true, node: true });
  }
  for (const d of ['srv/kubernetes/kube-apiserver', 'var/lib/kube-controller-manager', 'var/lib/kube-scheduler', 'etc/kubernetes/manifests']) expect(written.cp).toContain(d);
});

it('every directory nodeup writes into, planted as a symlink out of the root: exit 1 naming it, nothing written outside', async () => {
  // Each directory once, with the config that writes into it (the control plane writes into more).
  const cases = [...new Set([...written.cp, ...written.node])].sort().map((d) => ({ d, kind: written.cp.includes(d) ? ('cp' as const) : ('node' as const) }));
  expect(cases.length).toBeGreaterThan(20);
  const problems: string[] = [];
  for (const { d, kind } of cases) {
    const problem = escapeProblem(await plantedRun(kind, d));
    if (problem) problems.push(`${kind} root, ${d}: ${problem}`);
  }
  expect(problems).toEqual([]);
});

it('a file nodeup writes, planted as a symlink out of the root (status file, asset binary, tarball file, cache, /etc/hosts, a key): exit 1 naming it', async () => {
  const problems: string[] = [];
  const cache = writtenFiles.cp.find((f) => /^var\/cache\/kforge\/assets\/[0-9a-f]{64}$/.test(f)) as string;
  for (const f of ['var/lib/kforge/nodeup-status.json', 'usr/local/bin/kubelet', 'usr/local/bin/containerd', 'opt/cni/bin/bridge', cache, 'etc/hosts', 'srv/kubernetes/kube-apiserver/server.key']) {
    expect(writtenFiles.cp).toContain(f);
    const problem = escapeProblem(await plantedRun('cp', f));
    if (problem) problems.push(`${f}: ${problem}`);
  }
  expect(problems).toEqual([]);
});

it('a directory nodeup made itself in an earlier run, replaced by a symlink out of the root, stops the next run', async () => {
  const result = await plantedRun('node', 'var/lib/kubelet', (root) => fs.cpSync(path.join(work, 'clean-node'), root, { recursive: true, verbatimSymlinks: true }));
  expect(escapeProblem(result)).toBeUndefined();
});
