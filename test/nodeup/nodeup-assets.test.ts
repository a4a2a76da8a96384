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
import { listFiles, runCliAsync, tempDir } from '../helpers/cli';
import { splitStages, STATUS_FILE } from './stage-lines';

// `kforge nodeup --assets` against a local HTTP server standing in for dl.k8s.io and GitHub releases. The
// nodeup config is the real pipeline's, with its Assets swapped for a TEST-ONLY table of local URLs and
// the hashes of what this server serves (stand-in binaries and tarballs: no Kubernetes binaries can be
// downloaded here). The production hash check is the same code; nothing weakens it. The CLI runs as an
// async child: a synchronous one would block this process, and with it the server it downloads from.

const NAME = 'assets.k8s.local';
let work: string;
let server: http.Server;
let base: string;
const served = new Map<string, Buffer>();
let requests = 0;

function tarball(dir: string, files: Record<string, string>, out: string): Buffer {
  for (const [f, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, f)), { recursive: true });
    fs.writeFileSync(path.join(dir, f), content, { mode: 0o755 });
  }
  execFileSync('tar', ['-czf', out, '-C', dir, '.']);
  return fs.readFileSync(out);
}

beforeAll(async () => {
  work = tempDir('kforge-nodeup-assets-');
  const store = path.join(work, 'store');
  const vfs = openVfs(store);
  await createStorePathCluster(vfs, { name: NAME, zones: ['us-east-1a'], networking: 'calico' }, { command: 'test', ttlSeconds: 60, warn: () => undefined });
  await writeManagedFiles(vfs, await planManagedFiles(vfs, NAME));
  served.set('/kubelet', Buffer.from('#!/bin/sh\necho stand-in kubelet\n'));
  served.set('/kubectl', Buffer.from('#!/bin/sh\necho stand-in kubectl\n'));
  served.set('/runc.amd64', Buffer.from('#!/bin/sh\necho stand-in runc\n'));
  served.set('/containerd-2.0.0-linux-amd64.tar.gz', tarball(path.join(work, 'c'), { 'bin/containerd': '#!/bin/sh\n', 'bin/containerd-shim-runc-v2': '#!/bin/sh\n' }, path.join(work, 'c.tgz')));
  served.set('/cni-plugins-linux-amd64-v1.0.0.tgz', tarball(path.join(work, 'n'), { bridge: '#!/bin/sh\n', loopback: '#!/bin/sh\n' }, path.join(work, 'n.tgz')));
  server = http.createServer((req, res) => {
    requests++;
    const body = served.get(req.url ?? '');
    if (!body) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-length': body.length }).end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((r) => server.close(() => r()));
  fs.rmSync(work, { recursive: true, force: true });
});

/** The node group's real nodeup config with its Assets pointed at the local server (hashes of what it serves, or `hashes`). */
function config(hashes: Record<string, string> = {}): string {
  const file = path.join(work, 'store', StatePaths.nodeupConfig(NAME, 'Node', 'nodes-us-east-1a'));
  const conf = yaml.load(fs.readFileSync(file, 'utf8')) as NodeupConfig;
  const list = [...served.keys()].map((p) => `${hashes[p] ?? createHash('sha256').update(served.get(p) as Buffer).digest('hex')}@${base}${p}`);
  conf.Assets = { amd64: list, arm64: list };
  const out = path.join(work, `conf-${Object.keys(hashes).length}-${Math.random().toString(36).slice(2)}.yaml`);
  fs.writeFileSync(out, yaml.dump(conf));
  return out;
}

const env = { KFORGE_TEST_ASSET_BACKOFF_MS: '10' };

it('downloads, checks and installs every asset where kops puts it; a second run downloads nothing and changes nothing', async () => {
  const root = path.join(work, 'root');
  const conf = config();
  const first = await runCliAsync(['nodeup', '--conf', conf, '--root', root, '--assets'], env);
  expect(splitStages(first).stderr).toBe('');
  expect(splitStages(first).stages).toEqual(['config-fetched', 'keysets-read', 'assets-installed', 'files-written', 'done']);
  expect(first.status).toBe(0);
  for (const f of ['usr/local/bin/kubelet', 'usr/local/bin/kubectl', 'usr/local/sbin/runc', 'usr/local/bin/containerd', 'usr/local/bin/containerd-shim-runc-v2', 'opt/cni/bin/bridge', 'opt/cni/bin/loopback']) {
    expect({ f, executable: (fs.statSync(path.join(root, f)).mode & 0o111) !== 0 }).toEqual({ f, executable: true });
  }
  expect(fs.readFileSync(path.join(root, 'usr/local/bin/kubelet'), 'utf8')).toContain('stand-in kubelet');
  const before = requests;
  const second = await runCliAsync(['nodeup', '--conf', conf, '--root', root, '--assets'], env);
  expect(second.stdout).toMatch(/No changes/);
  expect(requests).toBe(before);
});

it('a download whose sha256 is not the config’s fails closed: nothing at all is installed', async () => {
  const root = path.join(work, 'tampered');
  const r = await runCliAsync(['nodeup', '--conf', config({ '/kubelet': 'e'.repeat(64) }), '--root', root, '--assets'], env);
  expect(r.status).not.toBe(0);
  expect(splitStages(r).stages).toEqual(['config-fetched', 'keysets-read', 'failed: ASSET_FAILED']);
  expect(splitStages(r).stderr).toMatch(new RegExp(`^Error: ${base.replace(/[.]/g, '\\.')}/kubelet: sha256 [0-9a-f]{64} is not the e{64} the nodeup config names; nothing was installed`));
  expect(r.stderr).not.toMatch(/\n\s+at /);
  expect(listFiles(root).filter((f) => !f.startsWith('var/cache/'))).toEqual([STATUS_FILE]);
});

it('a download that keeps failing is retried, then reported; nothing is installed', async () => {
  const root = path.join(work, 'missing');
  const conf = config();
  const text = fs.readFileSync(conf, 'utf8').replace(`${base}/kubectl`, `${base}/missing/kubectl`);
  fs.writeFileSync(conf, text);
  const before = requests;
  const r = await runCliAsync(['nodeup', '--conf', conf, '--root', root, '--assets'], env);
  expect(r.status).not.toBe(0);
  expect(r.stderr).toMatch(/missing\/kubectl: download failed after 4 attempts \(HTTP 404\); nothing was installed/);
  expect(requests - before).toBeGreaterThanOrEqual(4);
  expect(listFiles(root).filter((f) => !f.startsWith('var/cache/'))).toEqual([STATUS_FILE]);
});
