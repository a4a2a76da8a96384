import { X509Certificate } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as yaml from 'js-yaml';
import { expectCleanFailure, runCli, tempDir, treeDigest } from '../helpers/cli';
import { bundleCertificates, decimalSerial, opensslCa, verify, writePem } from '../pki/openssl';
import type { KeypairRow } from '../../src/ops/list-keypairs';
import { writeManagedFilesOf } from '../helpers/write-managed-files';

/** `promote keypair` and `distrust keypair`: kops's rotation commands, judged in the store and with openssl. */

const CLUSTER = 'r.k8s.local';
const WORKER = `${CLUSTER}/igconfig/node/nodes-us-east-1a/nodeupconfig.yaml`;
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

/** A store with a cluster that has been through update (its PKI and nodeup configs written). */
async function newStore(): Promise<string> {
  const store = tempDir('kforge-rotate-');
  dirs.push(store);
  const r = runCli(['create', 'cluster', CLUSTER, '--zones', 'us-east-1a', '--state', store]);
  expect(r.status).toBe(0);
  await writeManagedFilesOf(store, CLUSTER);
  return store;
}
interface KeysetDoc {
  spec: { primaryID: string; keys: Array<{ id: string; publicMaterial: string; distrustTimestamp?: string }> };
}
const keyset = (store: string, name: string, dir = 'private') => yaml.load(fs.readFileSync(path.join(store, CLUSTER, `pki/${dir}/${name}/keyset.yaml`), 'utf8')) as KeysetDoc;
const workerPki = (store: string) => yaml.load(fs.readFileSync(path.join(store, WORKER), 'utf8')) as { CAs: Record<string, string>; KeypairIDs: Record<string, string> };
const rows = (store: string) => JSON.parse(runCli(['get', 'keypairs', 'kubernetes-ca', '--name', CLUSTER, '-o', 'json', '--state', store]).stdout) as KeypairRow[];
const run = (store: string, ...args: string[]) => runCli([...args, '--name', CLUSTER, '--state', store]);

describe('kforge promote keypair / distrust keypair', () => {
  it('rotates kubernetes-ca: promote the newest key (certificates re-issued), then distrust the old one; update re-renders the nodeup configs', async () => {
    const store = await newStore();
    const work = tempDir('kforge-rotate-ca-');
    dirs.push(work);
    fs.writeFileSync(path.join(store, CLUSTER, 'kforge-version.txt'), '0.1.0\n'); // after the first update keys are added, not replaced
    const generated = keyset(store, 'kubernetes-ca').spec.primaryID;
    const ca = opensslCa(work, 'next', ['-newkey', 'rsa:2048'], '/CN=next-ca');
    const next = decimalSerial(new X509Certificate(fs.readFileSync(ca.cert)));
    expect(run(store, 'create', 'keypair', 'kubernetes-ca', '--cert', ca.cert, '--key', ca.key).status).toBe(0);
    expect(keyset(store, 'kubernetes-ca').spec.primaryID).toBe(generated);

    const p = run(store, 'promote', 'keypair', 'kubernetes-ca');
    expect(p.stderr).toBe('');
    expect(p.status).toBe(0);
    expect(p.stdout).toContain(`Promoted kubernetes-ca ${next}`);
    expect(p.stdout).toContain('re-issued from the new primary: kube-controller-manager, kube-proxy, kube-scheduler, kubelet-bootstrap');
    expect(keyset(store, 'kubernetes-ca').spec.primaryID).toBe(next);
    expect(keyset(store, 'kubernetes-ca', 'issued').spec.primaryID).toBe(next);
    const proxy = keyset(store, 'kube-proxy', 'issued').spec;
    const proxyFile = writePem(work, 'kube-proxy.pem', Buffer.from(proxy.keys[0].publicMaterial, 'base64').toString());
    expect(verify(ca.cert, proxyFile, 'sslclient')).toBe(`${proxyFile}: OK`);
    // As in kops, the keypair commands write keysets only; the next update shows and writes the nodeup configs.
    const promoted = await writeManagedFilesOf(store, CLUSTER);
    expect(promoted.keysetsToCreate).toEqual([]);
    expect(promoted.files.find((f) => f.path === WORKER)).toMatchObject({ action: 'update', diff: expect.stringMatching(/^\+\s+kubernetes-ca: /m) });
    let worker = workerPki(store);
    expect(worker.KeypairIDs['kubernetes-ca']).toBe(next);
    // A worker's kube-proxy certificate comes from the node-identity service (issued from the new primary): no keyset id.
    expect(worker.KeypairIDs['kube-proxy']).toBeUndefined();
    expect(bundleCertificates(worker.CAs['kubernetes-ca']).map(decimalSerial)).toEqual([next, generated]);

    // Nothing newer to promote, and the primary cannot be distrusted: both leave the store as it is.
    const settled = treeDigest(store);
    const again = run(store, 'promote', 'keypair', 'kubernetes-ca');
    expect(again.status).toBe(0);
    expect(again.stdout).toBe(`No kubernetes-ca keypair newer than the current primary ${next}\n`);
    const primary = run(store, 'distrust', 'keypair', 'kubernetes-ca', next);
    expectCleanFailure(primary);
    expect(primary.stderr).toContain(`cannot distrust keypair ${next}: it is the primary of keyset "kubernetes-ca"`);
    expect(treeDigest(store)).toBe(settled);

    const d = run(store, 'distrust', 'keypair', 'kubernetes-ca');
    expect(d.stderr).toBe('');
    expect(d.status).toBe(0);
    expect(d.stdout).toBe(`Distrusted kubernetes-ca ${generated}\n`);
    const old = keyset(store, 'kubernetes-ca').spec.keys.find((k) => k.id === generated);
    expect(old?.distrustTimestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(rows(store).map((r) => [r.id, r.primary, r.distrusted])).toEqual(
      expect.arrayContaining([
        [generated, false, true],
        [next, true, false],
      ]),
    );
    const table = runCli(['get', 'keypairs', 'kubernetes-ca', '--name', CLUSTER, '--state', store]).stdout;
    expect(table).toMatch(new RegExp(`^kubernetes-ca\\s+${generated}\\s+no\\s+.*\\s${old?.distrustTimestamp}$`, 'm'));
    expect(table).toMatch(new RegExp(`^kubernetes-ca\\s+${next}\\s+yes\\s+.*\\s-$`, 'm'));
    await writeManagedFilesOf(store, CLUSTER);
    worker = workerPki(store);
    expect(bundleCertificates(worker.CAs['kubernetes-ca']).map(decimalSerial)).toEqual([next]);

    const done = treeDigest(store);
    const distrusted = run(store, 'promote', 'keypair', 'kubernetes-ca', '--keypair-id', generated);
    expectCleanFailure(distrusted);
    expect(distrusted.stderr).toContain(`keypair ${generated} of keyset "kubernetes-ca" is distrusted`);
    expect(run(store, 'distrust', 'keypair', 'kubernetes-ca').stdout).toBe(`No kubernetes-ca keypairs older than the primary ${next}\n`);
    expect(treeDigest(store)).toBe(done);
  });

  it('refuses keysets that do not rotate, unknown ids and clusters, and changes nothing', async () => {
    const store = await newStore();
    const before = treeDigest(store);
    const all = run(store, 'promote', 'keypair', 'all');
    expect(all.status).toBe(0);
    expect(all.stdout).toContain('No kubernetes-ca keypair newer than the current primary');
    expect(all.stdout).toContain('No service-account keypair newer than the current primary');
    const leaf = run(store, 'promote', 'keypair', 'kube-proxy');
    expectCleanFailure(leaf);
    expect(leaf.stderr).toContain('promoting keypairs of "kube-proxy" is not supported; rotatable keysets: apiserver-aggregator-ca, ');
    const unknownId = run(store, 'promote', 'keypair', 'kubernetes-ca', '12345');
    expectCleanFailure(unknownId);
    expect(unknownId.stderr).toContain('keypair 12345 not found in keyset "kubernetes-ca"');
    const twice = run(store, 'promote', 'keypair', 'kubernetes-ca', '1', '--keypair-id', '2');
    expectCleanFailure(twice);
    expectCleanFailure(run(store, 'distrust', 'keypair', 'kubernetes-ca', '12345'));
    expectCleanFailure(run(store, 'distrust', 'keypair', 'kubelet-bootstrap'));
    expectCleanFailure(run(store, 'distrust', 'keypair'));
    expectCleanFailure(runCli(['promote', 'keypair', 'kubernetes-ca', '--name', 'nope.k8s.local', '--state', store]));
    expect(treeDigest(store)).toBe(before);
  });
});
