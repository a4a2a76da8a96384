import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import * as yaml from 'js-yaml';
import { resolveReleaseHashes } from '../../src/expand/assets/resolve-release-hashes';
import { knownKubernetesVersions } from '../../src/expand/assets/asset-catalog';
import { ROOT, runCliAsync, tempDir } from '../helpers/cli';
import { writeManagedFilesOf } from '../helpers/write-managed-files';

/**
 * A Kubernetes patch release newer than kforge's table: its hashes come from the .sha256 files next to
 * each download. A real HTTP server on loopback stands in for the release bucket (dl.k8s.io), reached
 * through spec.assets.fileRepository exactly as a mirror would be.
 */
const NEW_PATCH = '1.35.99';
const sha = (s: string) => createHash('sha256').update(s).digest('hex');

interface Bucket {
  url: string;
  requests: string[];
  mode: 'ok' | 'garbage' | 'down';
  close: () => Promise<void>;
}

async function releaseBucket(): Promise<Bucket> {
  const bucket = { url: '', requests: [] as string[], mode: 'ok' as Bucket['mode'], close: async () => undefined as void };
  const server = http.createServer((req, res) => {
    bucket.requests.push(req.url ?? '');
    if (bucket.mode === 'down') return res.destroy();
    const m = /^\/release\/v([\d.]+)\/bin\/linux\/(amd64|arm64)\/(kubelet|kubectl)\.sha256$/.exec(req.url ?? '');
    if (!m || m[1] !== NEW_PATCH) return res.writeHead(404).end('Not Found');
    res.writeHead(200, { 'content-type': 'text/plain' }).end(bucket.mode === 'garbage' ? '<html>oops</html>' : `${sha(req.url ?? '')}  ${m[3]}\n`);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  bucket.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  bucket.close = () => new Promise((r) => server.close(() => r()));
  return bucket;
}

function manifest(version: string, fileRepository: string): string {
  const text = fs
    .readFileSync(path.join(ROOT, 'test/fixtures/kops/minimal.yaml'), 'utf8')
    .replace(/^ {2}kubernetesVersion: .*$/m, `  kubernetesVersion: ${version}\n  assets:\n    fileRepository: ${fileRepository}`);
  const file = path.join(tempDir(), 'cluster.yaml');
  fs.writeFileSync(file, text);
  return file;
}

const read = (store: string, key: string) => yaml.load(fs.readFileSync(path.join(store, 'minimal.example.com', key), 'utf8')) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe('a Kubernetes patch release the table lacks', () => {
  let bucket: Bucket;
  beforeEach(async () => {
    bucket = await releaseBucket();
  });
  afterEach(() => bucket.close());

  it('is not in the table (the test would prove nothing otherwise)', () => {
    expect(knownKubernetesVersions()).not.toContain(NEW_PATCH);
  });

  it('gets its hashes from the .sha256 files, recorded by update in the completed spec and the nodeup configs', async () => {
    const store = tempDir();
    const r = await runCliAsync(['create', '-f', manifest(NEW_PATCH, bucket.url), '--state', store]);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    // create checks that the release exists; update records the hashes with the managed files.
    expect(bucket.requests.length).toBeGreaterThan(0);
    await writeManagedFilesOf(store, 'minimal.example.com');
    const hashes = read(store, 'cluster-completed.spec').spec.assets.releaseHashes;
    const want = (name: string, arch: string) => sha(`/release/v${NEW_PATCH}/bin/linux/${arch}/${name}.sha256`);
    expect(hashes).toEqual({ version: NEW_PATCH, kubelet: { amd64: want('kubelet', 'amd64'), arm64: want('kubelet', 'arm64') }, kubectl: { amd64: want('kubectl', 'amd64'), arm64: want('kubectl', 'arm64') } });
    const nodeup = read(store, 'igconfig/node/nodes/nodeupconfig.yaml');
    expect(nodeup.Assets.amd64).toContain(`${want('kubelet', 'amd64')}@${bucket.url}/release/v${NEW_PATCH}/bin/linux/amd64/kubelet`);
    // config stays the user's: the hashes live in the completed spec.
    expect(read(store, 'config').spec.assets.releaseHashes).toBeUndefined();
    // A later command reuses the recorded hashes instead of fetching them again.
    bucket.requests.length = 0;
    const file = manifest(NEW_PATCH, bucket.url);
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('maxSize: 2', 'maxSize: 3'));
    const again = await runCliAsync(['replace', '-f', file, '--state', store]);
    expect(again.stderr).toBe('');
    expect(again.status).toBe(0);
    expect(bucket.requests).toEqual([]);
  });

  it('that does not exist (404) is refused at spec.kubernetesVersion, and nothing is written', async () => {
    const store = tempDir();
    const r = await runCliAsync(['create', '-f', manifest('1.35.98', bucket.url), '--state', store]);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/spec\.kubernetesVersion: Kubernetes 1\.35\.98 has no published release: http:\/\/127\.0\.0\.1:\d+\/release\/v1\.35\.98\/bin\/linux\/\w+\/kube\w+\.sha256 answered 404/);
    expect(r.stderr).not.toMatch(/^\s+at /m);
    expect(fs.readdirSync(store)).toEqual([]);
  });

  it('whose .sha256 is not a hash is refused, and nothing is written', async () => {
    bucket.mode = 'garbage';
    const store = tempDir();
    const r = await runCliAsync(['create', '-f', manifest(NEW_PATCH, bucket.url), '--state', store]);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/spec\.kubernetesVersion: .*\.sha256 did not return a sha256 \(got "<html>oops<\/html>"\)/);
    expect(fs.readdirSync(store)).toEqual([]);
  });

  it('is created and updated offline with the hashes unresolved (no bogus hash on nodes), and resolved by the next update', async () => {
    bucket.mode = 'down';
    const store = tempDir();
    const r = await runCliAsync(['create', '-f', manifest(NEW_PATCH, bucket.url), '--state', store]);
    expect(r.status).toBe(0);
    expect(r.stderr).toMatch(/Warning: could not fetch the kubelet and kubectl hashes of Kubernetes 1\.35\.99/);
    const stderr = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      await writeManagedFilesOf(store, 'minimal.example.com');
      expect(String(stderr.mock.calls[0]?.[0])).toMatch(/^Warning: could not fetch the kubelet and kubectl hashes of Kubernetes 1\.35\.99/);
    } finally {
      stderr.mockRestore();
    }
    expect(read(store, 'cluster-completed.spec').spec.assets.releaseHashes).toEqual({ version: NEW_PATCH, unresolved: true });
    const assets: string[] = read(store, 'igconfig/node/nodes/nodeupconfig.yaml').Assets.amd64;
    expect(assets.find((a) => a.endsWith('/kubelet'))).toMatch(/^unresolved@/);
    expect(assets.filter((a) => a.endsWith('/containerd-2.3.6-linux-amd64.tar.gz') || a.includes('runc')).every((a) => /^[0-9a-f]{64}@/.test(a))).toBe(true);
    bucket.mode = 'ok';
    const plan = await writeManagedFilesOf(store, 'minimal.example.com');
    expect(plan.files.filter((f) => f.action === 'update').map((f) => f.path)).toEqual(expect.arrayContaining(['minimal.example.com/cluster-completed.spec', 'minimal.example.com/igconfig/node/nodes/nodeupconfig.yaml']));
    expect(read(store, 'cluster-completed.spec').spec.assets.releaseHashes.unresolved).toBeUndefined();
  });
});

describe('resolveReleaseHashes', () => {
  it('retries a failing server with backoff and then reports unresolved', async () => {
    const bucket = await releaseBucket();
    bucket.mode = 'down';
    const out = await resolveReleaseHashes(NEW_PATCH, bucket.url, { attempts: 3, backoffMs: 5 });
    await bucket.close();
    expect(out).toEqual({ version: NEW_PATCH, unresolved: true });
    expect(bucket.requests.length).toBe(12);
  });
});
