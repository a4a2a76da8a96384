import { createPrivateKey, X509Certificate } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as yaml from 'js-yaml';
import { listFiles, runCli, tempDir, treeDigest } from '../helpers/cli';
import { bundleCertificates, containsPrivateKey, decimalSerial, opensslCa, verify, writePem } from '../pki/openssl';
import { CLUSTER_KEYSETS } from '../helpers/cluster-layout';
import type { KeypairRow } from '../../src/ops/list-keypairs';
import { writeManagedFilesOf } from '../helpers/write-managed-files';

/**
 * The keystore as users meet it: what the first update writes under pki/ and into nodeup configs (as in
 * kops, create writes no PKI), `get keypairs`, and bringing your own CA with `create keypair`, judged
 * with openssl. `update` is what writeManagedFilesOf does in-process.
 */

const CLUSTER = 'demo.k8s.local';
const CAS = CLUSTER_KEYSETS.filter((k) => k.endsWith('-ca') || /-ca-/.test(k));
const SIGNED_BY_KUBERNETES_CA = ['kube-controller-manager', 'kube-proxy', 'kube-scheduler', 'kubelet-bootstrap'];
const WORKER = `${CLUSTER}/igconfig/node/nodes-us-east-1a/nodeupconfig.yaml`;
const CONTROL_PLANE = `${CLUSTER}/igconfig/controlplane/control-plane-us-east-1a/nodeupconfig.yaml`;

interface NodeupPki {
  CAs: Record<string, string>;
  KeypairIDs: Record<string, string>;
}
interface KeysetDoc {
  spec: { primaryID: string; keys: Array<{ id: string; publicMaterial: string; privateMaterial?: string }> };
}
type Row = KeypairRow;

const stores: string[] = [];
afterAll(() => {
  for (const s of stores) fs.rmSync(path.dirname(s), { recursive: true, force: true });
});

/** A store with one new cluster, demo.k8s.local (etcd clusters main and events), not updated yet; removed after the file's tests. */
function createdStore(): string {
  const store = path.join(tempDir('kforge-keypairs-'), 'store');
  stores.push(store);
  const r = runCli(['create', 'cluster', CLUSTER, '--zones', 'us-east-1a', '--state', store]);
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  return store;
}
/** Such a store after update has written the PKI and the managed files. */
async function newStore(): Promise<string> {
  const store = createdStore();
  await writeManagedFilesOf(store, CLUSTER);
  return store;
}
/** What `update` does to the store: the nodeup configs re-rendered with the current keysets. */
const update = (store: string) => writeManagedFilesOf(store, CLUSTER);
const readYaml = <T>(store: string, key: string): T => yaml.load(fs.readFileSync(path.join(store, key), 'utf8')) as T;
const nodeup = (store: string, key: string) => readYaml<NodeupPki>(store, key);
/** A keyset as stored in pki/issued/ (or pki/private/), its PEMs decoded. */
function storedKeyset(store: string, name: string, dir: 'issued' | 'private' = 'issued') {
  const doc = readYaml<KeysetDoc>(store, `${CLUSTER}/pki/${dir}/${name}/keyset.yaml`);
  const keys = doc.spec.keys.map((k) => ({ id: k.id, cert: new X509Certificate(Buffer.from(k.publicMaterial, 'base64')), key: k.privateMaterial && Buffer.from(k.privateMaterial, 'base64').toString() }));
  return { primaryID: doc.spec.primaryID, keys, primary: keys.find((k) => k.id === doc.spec.primaryID) };
}
function getKeypairs(store: string, ...args: string[]): Row[] {
  const r = runCli(['get', 'keypairs', ...args, '--name', CLUSTER, '-o', 'json', '--state', store]);
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  return JSON.parse(r.stdout) as Row[];
}
/** Writes the primary certificate of a stored keyset to a file for openssl. */
function certFile(store: string, dir: string, name: string): string {
  return writePem(dir, `${name}.pem`, storedKeyset(store, name).primary?.cert.toString() as string);
}
/** The DER (base64) of the first certificate of a PEM string or a PEM file, to compare certificates. */
const der = (pem: string | undefined) => new X509Certificate(pem ?? '').raw.toString('base64');
const derOfFile = (file: string) => der(fs.readFileSync(file, 'utf8'));

describe('before the first update', () => {
  it('create wrote no keystore: get keypairs lists nothing, export kubeconfig says to run update', () => {
    const store = createdStore();
    expect(listFiles(path.join(store, CLUSTER)).filter((f) => f.startsWith('pki/') || f.startsWith('igconfig/'))).toEqual([]);
    expect(getKeypairs(store)).toEqual([]);
    const table = runCli(['get', 'keypairs', '--name', CLUSTER, '--state', store]);
    expect(table.status).toBe(0);
    expect(table.stderr).toContain(`kforge update cluster ${CLUSTER} --yes`);
    const k = runCli(['export', 'kubeconfig', CLUSTER, '--admin', '--kubeconfig', path.join(path.dirname(store), 'kc'), '--state', store]);
    expect(k.status).toBe(1);
    expect(k.stderr).toBe(`Error: cluster "${CLUSTER}" has no kubernetes-ca yet: its PKI is created by the first update; run "kforge update cluster ${CLUSTER} --yes" first\n`);
    for (const args of [['promote', 'keypair', 'kubernetes-ca'], ['distrust', 'keypair', 'all']]) {
      const r = runCli([...args, '--name', CLUSTER, '--state', store]);
      expect([args, r.status, r.stderr]).toEqual([args, 1, `Error: cluster "${CLUSTER}" has no ${args[2] === 'all' ? 'its rotatable keysets' : 'kubernetes-ca'} yet: its PKI is created by the first update; run "kforge update cluster ${CLUSTER} --yes" first\n`]);
    }
  });
});

describe('update: the keystore on disk and in nodeup configs', () => {
  let store: string;
  beforeAll(async () => {
    store = await newStore();
  });

  it('writes private keysets 0600 in 0700 directories, certificates 0644, and keys nowhere else', () => {
    const files = listFiles(path.join(store, CLUSTER));
    const priv = files.filter((f) => f.startsWith('pki/private/'));
    expect(priv).toEqual(CLUSTER_KEYSETS.map((k) => `pki/private/${k}/keyset.yaml`));
    expect(files.filter((f) => f.startsWith('pki/issued/'))).toEqual(CLUSTER_KEYSETS.map((k) => `pki/issued/${k}/keyset.yaml`));
    const mode = (f: string) => (fs.statSync(path.join(store, CLUSTER, f)).mode & 0o777).toString(8);
    for (const f of priv) {
      expect([f, mode(f), mode(path.dirname(f))]).toEqual([f, '600', '700']);
      expect(containsPrivateKey(fs.readFileSync(path.join(store, CLUSTER, f), 'utf8'))).toBe(true);
    }
    for (const f of files.filter((x) => x.startsWith('pki/issued/'))) expect([f, mode(f)]).toEqual([f, '644']);
    for (const f of files.filter((x) => !x.startsWith('pki/private/'))) expect([f, containsPrivateKey(fs.readFileSync(path.join(store, CLUSTER, f), 'utf8'))]).toEqual([f, false]);
  });

  it('gives worker nodes only the cluster CA and their own keypair ids, and the control plane every CA', () => {
    const worker = nodeup(store, WORKER);
    expect(Object.keys(worker.CAs)).toEqual(['kubernetes-ca']);
    // Its kubelet and kube-proxy certificates come from the node-identity service (ConfigServer), not from keysets.
    expect(Object.keys(worker.KeypairIDs).sort()).toEqual(['kubernetes-ca']);
    const cp = nodeup(store, CONTROL_PLANE);
    expect(Object.keys(cp.CAs).sort()).toEqual(CAS);
    for (const name of CLUSTER_KEYSETS) {
      const stored = storedKeyset(store, name);
      if (name in worker.KeypairIDs) expect(worker.KeypairIDs[name]).toBe(stored.primaryID);
      if (CAS.includes(name)) expect([name, der(cp.CAs[name])]).toEqual([name, stored.primary?.cert.raw.toString('base64')]);
    }
    expect(der(worker.CAs['kubernetes-ca'])).toBe(storedKeyset(store, 'kubernetes-ca').primary?.cert.raw.toString('base64'));
    for (const key of [WORKER, CONTROL_PLANE]) expect(containsPrivateKey(fs.readFileSync(path.join(store, key), 'utf8'))).toBe(false);
  });

  it('get keypairs lists the 12 keysets as a table and as JSON that matches the stored keysets', () => {
    const table = runCli(['get', 'keypairs', '--name', CLUSTER, '--state', store]);
    expect(table.stderr).toBe('');
    expect(table.status).toBe(0);
    const lines = table.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^NAME\s+ID\s+PRIMARY\s+ALGORITHM\s+EXPIRY\s+DISTRUSTED$/);
    expect(lines.slice(1).map((l) => l.split(/\s{3,}/)[0])).toEqual(CLUSTER_KEYSETS);
    for (const line of lines.slice(1)) {
      const [name, id, primary, algorithm, expiry, distrusted] = line.split(/\s{3,}/);
      expect(distrusted).toBe('-');
      expect([name, id, primary, algorithm]).toEqual([name, storedKeyset(store, name).primaryID, 'yes', name === 'service-account' ? 'RSA 2048' : 'ECDSA P-256']);
      expect(expiry).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.000Z$/);
    }
    const rows = getKeypairs(store);
    expect(rows.map((r) => r.keyset)).toEqual(CLUSTER_KEYSETS);
    for (const row of rows) {
      const stored = storedKeyset(store, row.keyset);
      const cert = stored.primary?.cert as X509Certificate;
      expect(row).toEqual({
        keyset: row.keyset,
        id: stored.primaryID,
        primary: true,
        algorithm: row.keyset === 'service-account' ? 'RSA 2048' : 'ECDSA P-256',
        subject: cert.subject.replace(/\n/g, ', '),
        issuer: SIGNED_BY_KUBERNETES_CA.includes(row.keyset) ? 'CN=kubernetes-ca' : `CN=${row.keyset}`,
        notAfter: new Date(cert.validTo).toISOString(),
        distrusted: false,
      });
      expect(row.id).toBe(decimalSerial(cert));
    }
    for (const format of ['table', 'json', 'yaml']) expect(containsPrivateKey(runCli(['get', 'keypairs', '--name', CLUSTER, '-o', format, '--state', store]).stdout)).toBe(false);
  });

  it('get keypairs NAME... filters, and an unknown name fails clearly', () => {
    expect(getKeypairs(store, 'kubernetes-ca').map((r) => r.keyset)).toEqual(['kubernetes-ca']);
    expect(getKeypairs(store, 'kubernetes-ca', 'kube-proxy').map((r) => r.keyset)).toEqual(['kube-proxy', 'kubernetes-ca']);
    const table = runCli(['get', 'keypairs', 'kubernetes-ca', '--name', CLUSTER, '--state', store]);
    expect(table.stdout.trimEnd().split('\n').slice(1).map((l) => l.split(/\s+/)[0])).toEqual(['kubernetes-ca']);
    const before = treeDigest(store);
    const bad = runCli(['get', 'keypairs', 'no-such-ca', '--name', CLUSTER, '--state', store]);
    expect(bad.status).toBe(1);
    expect(bad.stdout).toBe('');
    expect(bad.stderr).toMatch(/^Error: keyset "no-such-ca" not found in cluster "demo\.k8s\.local"; keysets: apiserver-aggregator-ca, /);
    expect(bad.stderr).not.toContain('    at ');
    const noCluster = runCli(['get', 'keypairs', '--name', 'nope.k8s.local', '--state', store]);
    expect(noCluster.status).toBe(1);
    expect(noCluster.stderr).toMatch(/^Error: cluster "nope\.k8s\.local" not found/);
    expect(treeDigest(store)).toBe(before);
  });
});

describe('create keypair: bring your own CA', () => {
  let work: string;
  beforeEach(() => {
    work = tempDir('kforge-byo-');
  });
  afterEach(() => fs.rmSync(work, { recursive: true, force: true }));

  const rsaCa = (name: string, cn: string) => opensslCa(work, name, ['-newkey', 'rsa:2048'], `/CN=${cn}`);
  const importCa = (store: string, keyset: string, ca: { cert: string; key: string }, ...extra: string[]) =>
    runCli(['create', 'keypair', keyset, '--cert', ca.cert, '--key', ca.key, '--name', CLUSTER, ...extra, '--state', store]);

  it('before the first update, an RSA kubernetes-ca is the cluster CA, signs its certificates, and update keeps it', async () => {
    const store = createdStore();
    const ca = rsaCa('ca', 'my-ca');
    const serial = decimalSerial(new X509Certificate(fs.readFileSync(ca.cert)));

    const r = importCa(store, 'kubernetes-ca', ca);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toContain(`keypair ${serial} added to keyset "kubernetes-ca" of cluster "${CLUSTER}" as primary`);
    expect(r.stdout).not.toContain('replaced');
    expect(r.stdout).toContain('re-issued from the new CA: kube-controller-manager, kube-proxy, kube-scheduler, kubelet-bootstrap');
    // Update creates only the keysets still missing, and keeps the imported CA and what it signed.
    const signed = Object.fromEntries(['kubernetes-ca', ...SIGNED_BY_KUBERNETES_CA].map((k) => [k, treeDigest(path.join(store, CLUSTER, 'pki/private', k))]));
    const plan = await update(store);
    expect(plan.keysetsToCreate).toEqual(CLUSTER_KEYSETS.filter((k) => !(k in signed)));
    for (const [name, digest] of Object.entries(signed)) expect([name, treeDigest(path.join(store, CLUSTER, 'pki/private', name))]).toEqual([name, digest]);

    expect(getKeypairs(store, 'kubernetes-ca').map((row) => [row.id, row.primary, row.algorithm, row.subject])).toEqual([[serial, true, 'RSA 2048', 'CN=my-ca']]);
    const priv = storedKeyset(store, 'kubernetes-ca', 'private');
    expect(priv.keys).toHaveLength(1);
    expect(createPrivateKey(priv.keys[0].key as string).export({ format: 'jwk' })).toEqual(createPrivateKey(fs.readFileSync(ca.key)).export({ format: 'jwk' }));
    expect((fs.statSync(path.join(store, CLUSTER, 'pki/private/kubernetes-ca/keyset.yaml')).mode & 0o777).toString(8)).toBe('600');
    for (const name of SIGNED_BY_KUBERNETES_CA) {
      const file = certFile(store, work, name);
      expect(verify(ca.cert, file, 'sslclient')).toBe(`${file}: OK`);
    }

    const worker = nodeup(store, WORKER);
    expect(der(worker.CAs['kubernetes-ca'])).toBe(derOfFile(ca.cert));
    expect(bundleCertificates(worker.CAs['kubernetes-ca'])).toHaveLength(1);
    // A worker's own certificates come from the node-identity service: its config names only the CA.
    expect(worker.KeypairIDs).toEqual({ 'kubernetes-ca': serial });
    expect(der(nodeup(store, CONTROL_PLANE).CAs['kubernetes-ca'])).toBe(derOfFile(ca.cert));

    const kubeconfig = path.join(work, 'kubeconfig');
    const k = runCli(['export', 'kubeconfig', CLUSTER, '--admin', '--kubeconfig', kubeconfig, '--state', store]);
    expect(k.stderr).toMatch(/^Warning: cluster "demo\.k8s\.local" has no DNS name for its API and no load balancer yet/);
    expect(k.status).toBe(0);
    const kc = yaml.load(fs.readFileSync(kubeconfig, 'utf8')) as { users: Array<{ user: Record<string, string> }>; clusters: Array<{ cluster: Record<string, string> }> };
    const admin = writePem(work, 'admin.pem', Buffer.from(kc.users[0].user['client-certificate-data'], 'base64').toString());
    expect(verify(ca.cert, admin, 'sslclient')).toBe(`${admin}: OK`);
    expect(new X509Certificate(fs.readFileSync(admin)).subject).toMatch(/^O=system:masters\nCN=kubecfg-.+$/);
    expect(der(Buffer.from(kc.clusters[0].cluster['certificate-authority-data'], 'base64').toString())).toBe(derOfFile(ca.cert));

    // The same CA again: refused, and nothing changes.
    const before = treeDigest(store);
    const again = importCa(store, 'kubernetes-ca', ca);
    expect(again.status).toBe(1);
    expect(again.stderr).toMatch(new RegExp(`^Error: keyset "kubernetes-ca" already has a key with id ${serial}`));
    expect(treeDigest(store)).toBe(before);
  });

  it('a CA imported after the PKI was written but before the first update completed replaces the generated key', async () => {
    const store = await newStore();
    const generated = storedKeyset(store, 'kubernetes-ca').primaryID;
    const untouched = Object.fromEntries(CLUSTER_KEYSETS.filter((k) => k !== 'kubernetes-ca' && !SIGNED_BY_KUBERNETES_CA.includes(k)).map((k) => [k, treeDigest(path.join(store, CLUSTER, 'pki/private', k))]));
    const r = importCa(store, 'kubernetes-ca', rsaCa('ca', 'my-ca'));
    expect(r.status).toBe(0);
    expect(r.stdout).toContain(`replaced the generated key ${generated}`);
    expect(storedKeyset(store, 'kubernetes-ca', 'private').keys).toHaveLength(1);
    for (const [name, digest] of Object.entries(untouched)) expect([name, treeDigest(path.join(store, CLUSTER, 'pki/private', name))]).toEqual([name, digest]);
  });

  it('an ECDSA P-384 etcd-clients-ca reaches the control plane only', async () => {
    const store = await newStore();
    const ca = opensslCa(work, 'etcd', ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-384'], '/CN=my-etcd-ca');
    const kubeCa = fs.readFileSync(path.join(store, CLUSTER, 'pki/private/kubernetes-ca/keyset.yaml'));
    const r = importCa(store, 'etcd-clients-ca', ca);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).not.toContain('re-issued');
    expect(getKeypairs(store, 'etcd-clients-ca').map((row) => [row.id, row.primary, row.algorithm])).toEqual([[decimalSerial(new X509Certificate(fs.readFileSync(ca.cert))), true, 'ECDSA P-384']]);
    const plan = await update(store);
    expect(plan.files.filter((f) => f.action !== 'none').map((f) => f.path)).toEqual([CONTROL_PLANE]);
    expect(der(nodeup(store, CONTROL_PLANE).CAs['etcd-clients-ca'])).toBe(derOfFile(ca.cert));
    expect(Object.keys(nodeup(store, WORKER).CAs)).toEqual(['kubernetes-ca']);
    expect(fs.readFileSync(path.join(store, CLUSTER, 'pki/private/kubernetes-ca/keyset.yaml')).equals(kubeCa)).toBe(true);
  });

  it('after the first update, a CA is added as a second key, and becomes primary only with --primary', async () => {
    const store = await newStore();
    fs.writeFileSync(path.join(store, CLUSTER, 'kforge-version.txt'), '0.1.0\n');
    const generated = storedKeyset(store, 'kubernetes-ca');
    const kubeProxy = fs.readFileSync(path.join(store, CLUSTER, 'pki/private/kube-proxy/keyset.yaml'));
    const second = rsaCa('second', 'second-ca');
    const secondId = decimalSerial(new X509Certificate(fs.readFileSync(second.cert)));

    const added = importCa(store, 'kubernetes-ca', second);
    expect(added.stderr).toBe('');
    expect(added.status).toBe(0);
    expect(added.stdout).not.toContain('as primary');
    expect(added.stdout).not.toContain('replaced');
    expect(getKeypairs(store, 'kubernetes-ca').map((row) => [row.id, row.primary])).toEqual([
      [generated.primaryID, true],
      [secondId, false],
    ]);
    expect(fs.readFileSync(path.join(store, CLUSTER, 'pki/private/kube-proxy/keyset.yaml')).equals(kubeProxy)).toBe(true);
    await update(store);
    const worker = nodeup(store, WORKER);
    expect(worker.KeypairIDs['kubernetes-ca']).toBe(generated.primaryID);
    // Nodes trust both CAs, primary first, so the new one can take over later.
    expect(bundleCertificates(worker.CAs['kubernetes-ca']).map((c) => decimalSerial(c))).toEqual([generated.primaryID, secondId]);

    const third = rsaCa('third', 'third-ca');
    const thirdId = decimalSerial(new X509Certificate(fs.readFileSync(third.cert)));
    const promoted = importCa(store, 'kubernetes-ca', third, '--primary');
    expect(promoted.stderr).toBe('');
    expect(promoted.status).toBe(0);
    expect(promoted.stdout).toContain(`keypair ${thirdId} added to keyset "kubernetes-ca" of cluster "${CLUSTER}" as primary`);
    const rows = getKeypairs(store, 'kubernetes-ca');
    expect(rows.map((row) => [row.id, row.primary])).toEqual(expect.arrayContaining([[generated.primaryID, false], [secondId, false], [thirdId, true]]));
    expect(rows).toHaveLength(3);
    const table = runCli(['get', 'keypairs', 'kubernetes-ca', '--name', CLUSTER, '--state', store]).stdout;
    expect(table.match(/^kubernetes-ca\s+\d+\s+yes\s/gm)).toHaveLength(1);
    expect(table.match(/^kubernetes-ca\s+\d+\s+no\s/gm)).toHaveLength(2);
    const file = certFile(store, work, 'kube-proxy');
    expect(verify(third.cert, file, 'sslclient')).toBe(`${file}: OK`);
    await update(store);
    const after = nodeup(store, WORKER);
    expect(after.KeypairIDs['kubernetes-ca']).toBe(thirdId);
    expect(decimalSerial(bundleCertificates(after.CAs['kubernetes-ca'])[0])).toBe(thirdId);
  });
});
