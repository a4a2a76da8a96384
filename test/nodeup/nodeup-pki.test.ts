import { spawnSync } from 'node:child_process';
import { createPrivateKey, createPublicKey, KeyObject, X509Certificate } from 'node:crypto';
import { createStorePathCluster } from '../helpers/store-path-cluster';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as yaml from 'js-yaml';
import type { NodeupConfig } from '../../src/model/nodeup-config-builder';
import { issueNodeCertificates } from '../../src/nodeup/node-certificates';
import { fetchNodeKeysets } from '../../src/nodeup/node-keysets';
import { planManagedFiles, writeManagedFiles } from '../../src/ops/plan-managed-files';
import { CA_VALIDITY_MS } from '../../src/pki/cluster-pki';
import { issueKeypair } from '../../src/pki/issue-keypair';
import { KeysetYaml } from '../../src/pki/keyset-yaml';
import { StatePaths } from '../../src/state/state-paths';
import { openVfs } from '../../src/state/vfs/open-vfs';
import { ensureAptTool } from '../helpers/apt-tool';
import { expectCleanFailure, listFiles, runCli, tempDir } from '../helpers/cli';
import { splitStages, STATUS_FILE } from './stage-lines';

// nodeup's PKI against a store made by the real pipeline (create, then what `update cluster --yes` writes):
// the certificates a control-plane node issues itself, checked with openssl; the kubeconfigs; that a
// worker gets no CA key; reuse and re-issue of certificates; /etc/hosts; the recorded stages; --state.
// kubelet's identity (node certificate, bootstrap kubeconfig) is tested in kubelet-identity.test.ts.

const NAME = 'pki.k8s.local';
const ZONE = 'us-east-1a';
const LOCK = { command: 'kforge test', ttlSeconds: 60, warn: () => undefined };
let work: string;
let store: string;
let cpConf: string;
let nodeConf: string;
let cpRoot: string;
let nodeRoot: string;
let openssl: string;
// Exactly what was in /etc/hosts before nodeup: no newline at the end, and a non-ASCII comment.
const HOSTS = '127.0.0.1\tlocalhost\n# café\n10.1.2.3 other.example.com';
const CONSOLE = () => path.join(work, 'console.log');

function readConfig(file: string): NodeupConfig {
  return yaml.load(fs.readFileSync(file, 'utf8')) as NodeupConfig;
}

function writeConfig(config: NodeupConfig, name: string): string {
  const file = path.join(work, name);
  fs.writeFileSync(file, yaml.dump(config));
  return file;
}

function run(args: string[]) {
  return splitStages(runCli(['nodeup', ...args], { env: { KFORGE_NODEUP_CONSOLE: CONSOLE() } }));
}

beforeAll(async () => {
  openssl = ensureAptTool('openssl', 'openssl');
  work = tempDir('kforge-nodeup-pki-');
  store = path.join(work, 'store');
  const vfs = openVfs(store);
  // calico keeps kube-proxy, so nodes get its kubeconfig too.
  await createStorePathCluster(vfs, { name: NAME, zones: [ZONE], networking: 'calico' }, LOCK);
  await writeManagedFiles(vfs, await planManagedFiles(vfs, NAME));
  cpConf = path.join(store, StatePaths.nodeupConfig(NAME, 'ControlPlane', `control-plane-${ZONE}`));
  nodeConf = path.join(store, StatePaths.nodeupConfig(NAME, 'Node', `nodes-${ZONE}`));
  cpRoot = path.join(work, 'cp');
  nodeRoot = path.join(work, 'node');
  fs.mkdirSync(path.join(cpRoot, 'etc'), { recursive: true });
  fs.writeFileSync(path.join(cpRoot, 'etc/hosts'), HOSTS);
  expect(run(['--conf', cpConf, '--root', cpRoot]).status).toBe(0);
  expect(run(['--conf', nodeConf, '--root', nodeRoot]).status).toBe(0);
}, 120_000);

afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

/** Every `--flag=/absolute/path` of a static pod's command (comma-separated lists split), by manifest. */
function manifestFilePaths(root: string): Array<{ manifest: string; flag: string; file: string }> {
  const dir = path.join(root, 'etc/kubernetes/manifests');
  const out: Array<{ manifest: string; flag: string; file: string }> = [];
  for (const manifest of fs.readdirSync(dir)) {
    const pod = yaml.load(fs.readFileSync(path.join(dir, manifest), 'utf8')) as { spec: { containers: Array<{ command: string[] }> } };
    for (const arg of pod.spec.containers[0].command.slice(1)) {
      const m = /^--([a-z0-9-]+)=(\/.*)$/.exec(arg);
      // Values that are paths (not URLs like --etcd-servers-overrides=/events#https://...).
      if (m) for (const file of m[2].split(',')) if (/^\/[A-Za-z0-9._/-]+$/.test(file)) out.push({ manifest, flag: m[1], file });
    }
  }
  return out;
}

function ssl(args: string[], input?: string): { status: number; stdout: string; stderr: string } {
  const r = spawnSync(openssl, args, { encoding: 'utf8', input });
  return { status: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

function caKeys(): Map<string, KeyObject> {
  const out = new Map<string, KeyObject>();
  const dir = path.join(store, NAME, 'pki/private');
  for (const name of fs.readdirSync(dir)) {
    if (!name.endsWith('-ca') && name !== 'service-account') continue;
    const keyset = KeysetYaml.parse(fs.readFileSync(path.join(dir, name, 'keyset.yaml')), name);
    for (const k of keyset.keys) out.set(`${name}/${k.id}`, createPublicKey(k.privateKey()));
  }
  return out;
}

/** Every PEM private key in a file, also inside a kubeconfig's base64 `client-key-data`. */
function privateKeysIn(text: string): string[] {
  const decoded = [...text.matchAll(/client-key-data: (\S+)/g)].map((m) => Buffer.from(m[1], 'base64').toString('utf8'));
  return [text, ...decoded].flatMap((t) => t.match(/-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]+?-----END [A-Z ]*PRIVATE KEY-----/g) ?? []);
}

describe('control-plane PKI', () => {
  it('every file path a static pod flag names exists in the root, and every kubelet file flag too', () => {
    const paths = manifestFilePaths(cpRoot);
    expect(paths.map((p) => p.flag)).toEqual(expect.arrayContaining(['tls-cert-file', 'client-ca-file', 'etcd-certfile', 'service-account-key-file', 'kubeconfig', 'cluster-signing-key-file']));
    for (const p of paths) expect({ ...p, exists: fs.existsSync(path.join(cpRoot, p.file)) }).toEqual({ ...p, exists: true });
    const kubelet = readConfig(cpConf).ComponentFlags.kubelet;
    for (const arg of kubelet) {
      const m = /^--(client-ca-file|kubeconfig|bootstrap-kubeconfig)=(\/.*)$/.exec(arg);
      if (m) expect({ arg, exists: fs.existsSync(path.join(cpRoot, m[2])) }).toEqual({ arg, exists: true });
    }
  });

  it('the check can fail: a removed certificate is reported missing', () => {
    const copy = path.join(work, 'cp-copy');
    fs.cpSync(cpRoot, copy, { recursive: true });
    fs.rmSync(path.join(copy, 'srv/kubernetes/kube-apiserver/etcd-client.crt'));
    const missing = manifestFilePaths(copy).filter((p) => !fs.existsSync(path.join(copy, p.file)));
    expect(missing).toEqual([{ manifest: 'kube-apiserver.manifest', flag: 'etcd-certfile', file: '/srv/kubernetes/kube-apiserver/etcd-client.crt' }]);
  });

  it.each([
    ['server', 'ca.crt', 'kubernetes-master', 'TLS Web Server Authentication'],
    ['kubelet-api', 'ca.crt', 'kubelet-api', 'TLS Web Client Authentication'],
    ['etcd-client', 'kube-apiserver/etcd-ca.crt', 'kube-apiserver', 'TLS Web Client Authentication'],
    ['apiserver-aggregator', 'kube-apiserver/apiserver-aggregator-ca.crt', 'aggregator', 'TLS Web Client Authentication'],
  ])('openssl verify accepts %s.crt against %s; subject CN=%s, %s; its 0600 key is its own', (name, ca, cn, usage) => {
    const cert = path.join(cpRoot, 'srv/kubernetes/kube-apiserver', `${name}.crt`);
    const v = ssl(['verify', '-x509_strict', '-CAfile', path.join(cpRoot, 'srv/kubernetes', ca), cert]);
    expect({ status: v.status, out: v.stdout.trim() }).toEqual({ status: 0, out: `${cert}: OK` });
    const text = ssl(['x509', '-in', cert, '-noout', '-text']).stdout;
    expect(text).toContain(`Subject: CN = ${cn}`);
    expect(text).toContain(usage);
    const key = path.join(cpRoot, 'srv/kubernetes/kube-apiserver', `${name}.key`);
    expect(fs.statSync(key).mode & 0o777).toBe(0o600);
    expect(ssl(['pkey', '-in', key, '-pubout']).stdout).toBe(ssl(['x509', '-in', cert, '-noout', '-pubkey']).stdout);
    // The wrong CA does not verify it (the check can fail).
    const other = name === 'etcd-client' ? 'ca.crt' : 'kube-apiserver/etcd-ca.crt';
    expect(ssl(['verify', '-CAfile', path.join(cpRoot, 'srv/kubernetes', other), cert]).status).not.toBe(0);
  });

  it('the serving certificate carries the SANs of api-server-sans', () => {
    const text = ssl(['x509', '-in', path.join(cpRoot, 'srv/kubernetes/kube-apiserver/server.crt'), '-noout', '-ext', 'subjectAltName']).stdout;
    const sans = text.split('\n')[1].trim().split(', ').sort();
    expect(sans).toEqual(
      [
        `DNS:api.${NAME}`,
        `DNS:api.internal.${NAME}`,
        'DNS:kubernetes',
        'DNS:kubernetes.default',
        'DNS:kubernetes.default.svc',
        'DNS:kubernetes.default.svc.cluster.local',
        'IP Address:100.64.0.1',
        'IP Address:127.0.0.1',
      ].sort(),
    );
  });

  it('service-account files: the public key kube-apiserver verifies with belongs to the signing key both components use', () => {
    const pub = fs.readFileSync(path.join(cpRoot, 'srv/kubernetes/kube-apiserver/service-account.pub'), 'utf8');
    const signing = fs.readFileSync(path.join(cpRoot, 'srv/kubernetes/kube-apiserver/service-account.key'), 'utf8');
    expect(fs.readFileSync(path.join(cpRoot, 'srv/kubernetes/kube-controller-manager/service-account.key'), 'utf8')).toBe(signing);
    expect(ssl(['pkey', '-pubout'], signing).stdout).toBe(pub);
    // The controller manager's signing pair: ca.key belongs to ca.crt, which is one certificate, the CA's.
    const caCrt = fs.readFileSync(path.join(cpRoot, 'srv/kubernetes/kube-controller-manager/ca.crt'), 'utf8');
    expect(caCrt.match(/BEGIN CERTIFICATE/g)).toHaveLength(1);
    expect(new X509Certificate(caCrt).checkPrivateKey(createPrivateKey(fs.readFileSync(path.join(cpRoot, 'srv/kubernetes/kube-controller-manager/ca.key'))))).toBe(true);
  });

  it.each([
    ['var/lib/kube-controller-manager/kubeconfig', 'system:kube-controller-manager'],
    ['var/lib/kube-scheduler/kubeconfig', 'system:kube-scheduler'],
    ['var/lib/kube-proxy/kubeconfig', 'system:kube-proxy'],
    // kubelet's own identity, issued on the node for the name kubelet registers (see kubelet-identity.test.ts).
    ['var/lib/kubelet/kubeconfig', `system:node:${os.hostname().toLowerCase()}`],
  ])('%s parses as a kubeconfig for https://127.0.0.1 trusting kubernetes-ca, as %s', (file, cn) => {
    const kc = yaml.load(fs.readFileSync(path.join(cpRoot, file), 'utf8')) as Record<string, never>;
    expect(kc).toMatchObject({ apiVersion: 'v1', kind: 'Config', 'current-context': 'service-account-context' });
    const cluster = (kc.clusters as Array<{ cluster: Record<string, string> }>)[0].cluster;
    expect(cluster.server).toBe('https://127.0.0.1');
    expect(Buffer.from(cluster['certificate-authority-data'], 'base64').toString()).toBe(readConfig(cpConf).CAs?.['kubernetes-ca']);
    const user = (kc.users as Array<{ user: Record<string, string> }>)[0].user;
    const cert = Buffer.from(user['client-certificate-data'], 'base64').toString();
    const certFile = path.join(work, `${path.basename(path.dirname(file))}.crt`);
    fs.writeFileSync(certFile, cert);
    expect(ssl(['verify', '-CAfile', path.join(cpRoot, 'srv/kubernetes/ca.crt'), certFile]).status).toBe(0);
    expect(ssl(['x509', '-in', certFile, '-noout', '-subject']).stdout).toContain(`CN = ${cn}`);
    expect(new X509Certificate(cert).checkPrivateKey(createPrivateKey(Buffer.from(user['client-key-data'], 'base64')))).toBe(true);
  });
});

describe('worker PKI', () => {
  it("holds kubelet's and kube-proxy's kubeconfigs for the API's internal name, and no private key of any CA", () => {
    for (const file of ['var/lib/kubelet/bootstrap-kubeconfig', 'var/lib/kube-proxy/kubeconfig']) {
      const kc = yaml.load(fs.readFileSync(path.join(nodeRoot, file), 'utf8')) as { clusters: Array<{ cluster: { server: string } }> };
      expect(kc.clusters[0].cluster.server).toBe(`https://api.internal.${NAME}`);
    }
    const cas = caKeys();
    expect([...cas.keys()].map((k) => k.split('/')[0]).sort()).toEqual(expect.arrayContaining(['apiserver-aggregator-ca', 'etcd-clients-ca', 'kubernetes-ca', 'service-account']));
    const found: string[] = [];
    for (const f of listFiles(nodeRoot)) {
      for (const pem of privateKeysIn(fs.readFileSync(path.join(nodeRoot, f), 'utf8'))) {
        found.push(f);
        const pub = createPublicKey(createPrivateKey(pem)).export({ type: 'spki', format: 'der' });
        for (const [name, ca] of cas) expect({ f, ca: name, same: pub.equals(ca.export({ type: 'spki', format: 'der' })) }).toEqual({ f, ca: name, same: false });
      }
    }
    // The scan sees keys: the two client keys, and nothing else.
    expect(found.sort()).toEqual(['var/lib/kube-proxy/kubeconfig', 'var/lib/kubelet/bootstrap-kubeconfig']);
    // The control plane root does hold the kubernetes-ca key (the scan would catch it there).
    const cpHits = listFiles(cpRoot).filter((f) =>
      privateKeysIn(fs.readFileSync(path.join(cpRoot, f), 'utf8')).some((pem) => [...cas.values()].some((ca) => createPublicKey(createPrivateKey(pem)).export({ type: 'spki', format: 'der' }).equals(ca.export({ type: 'spki', format: 'der' })))),
    );
    expect(cpHits.sort()).toEqual(['srv/kubernetes/kube-apiserver/service-account.key', 'srv/kubernetes/kube-controller-manager/ca.key', 'srv/kubernetes/kube-controller-manager/service-account.key']);
  });

  it('a worker reads only its two client keysets: with the CA keysets gone from the store it still succeeds', () => {
    const copy = path.join(work, 'store-worker-only');
    fs.mkdirSync(path.join(copy, NAME, 'pki/private'), { recursive: true });
    for (const k of ['kubelet-bootstrap', 'kube-proxy']) fs.cpSync(path.join(store, NAME, 'pki/private', k), path.join(copy, NAME, 'pki/private', k), { recursive: true });
    const r = run(['--conf', nodeConf, '--root', path.join(work, 'node-worker-only'), '--state', copy]);
    expect(r.status).toBe(0);
    // The control plane cannot run from that store: it names the keyset and the file it lacks.
    const cp = run(['--conf', cpConf, '--root', path.join(work, 'cp-worker-only'), '--state', copy]);
    expectCleanFailure(cp);
    expect(cp.stderr).toMatch(new RegExp(`^Error: keyset "apiserver-aggregator-ca": ${copy.replace(/[.]/g, '\\.')}/${NAME.replace(/[.]/g, '\\.')}/pki/private/apiserver-aggregator-ca/keyset\\.yaml does not exist`));
    expect(cp.stages).toEqual(['config-fetched', 'failed: NODEUP_PKI_FAILED']);
  });
});

describe('certificates on disk are reused while good, re-issued otherwise', () => {
  async function setup(name: string) {
    const root = path.join(work, name);
    fs.cpSync(cpRoot, root, { recursive: true });
    const config = readConfig(cpConf);
    return { root, config, keysets: await fetchNodeKeysets(config) };
  }

  it('keeps every certificate of an installed root', async () => {
    const { root, config, keysets } = await setup('reuse-all');
    const certs = await issueNodeCertificates(config, keysets, root, os.hostname().toLowerCase());
    expect(certs.map((c) => [c.request.name, c.reused])).toEqual([
      ['kube-apiserver serving', true],
      ['kube-apiserver kubelet client', true],
      ['kube-apiserver etcd client', true],
      ['aggregator proxy client', true],
      ['kubelet client', true],
      ['addons applier client', true],
    ]);
  });

  it.each([
    ['signed by another CA', async (root: string) => {
      const other = await issueKeypair({ subject: { commonName: 'kubernetes-ca' }, usage: 'ca', validityMs: CA_VALIDITY_MS });
      const forged = await issueKeypair({ subject: { commonName: 'kubelet-api' }, usage: 'client', validityMs: CA_VALIDITY_MS }, other);
      return write(root, forged.certificatePem, forged.privateKeyPem as string);
    }],
    ['with a key that is not its own', async (root: string) => write(root, undefined, fs.readFileSync(path.join(root, 'srv/kubernetes/kube-apiserver/etcd-client.key'), 'utf8'))],
    ['with less than a third of its life left', async (root: string, ca: import('../../src/pki/keypair').Keypair) => {
      const year = 365 * 24 * 3600 * 1000;
      const old = await issueKeypair({ subject: { commonName: 'kubelet-api' }, usage: 'client', validityMs: 5 * year, now: new Date(Date.now() - 4 * year) }, ca);
      return write(root, old.certificatePem, old.privateKeyPem as string);
    }],
    ['for another subject', async (root: string, ca: import('../../src/pki/keypair').Keypair) => {
      const wrong = await issueKeypair({ subject: { commonName: 'someone-else' }, usage: 'client', validityMs: CA_VALIDITY_MS }, ca);
      return write(root, wrong.certificatePem, wrong.privateKeyPem as string);
    }],
  ])('re-issues kubelet-api.crt %s, and keeps the others', async (what, damage) => {
    const { root, config, keysets } = await setup(`reissue-${what.replace(/\W+/g, '-')}`);
    await damage(root, keysets['kubernetes-ca'].use);
    const certs = await issueNodeCertificates(config, keysets, root, os.hostname().toLowerCase());
    expect(certs.filter((c) => !c.reused).map((c) => c.request.name)).toEqual(['kube-apiserver kubelet client']);
    const fresh = certs.find((c) => !c.reused);
    expect(new X509Certificate(fresh?.certificatePem as string).checkIssued(keysets['kubernetes-ca'].use.certificate)).toBe(true);
  });

  it('re-issues the serving certificate when the SANs change (a new additional SAN), through the CLI', async () => {
    const { root, config } = await setup('reissue-sans');
    const before = fs.readFileSync(path.join(root, 'srv/kubernetes/kube-apiserver/server.key'), 'utf8');
    const sans = config.APIServerConfig?.ServingSANs as { dnsNames: string[]; ipAddresses: string[] };
    sans.dnsNames.push('api.extra.example.com');
    const r = run(['--conf', writeConfig(config, 'sans.yaml'), '--root', root, '-o', 'json']);
    expect(r.status).toBe(0);
    const changed = (JSON.parse(r.stdout).files as Array<{ path: string; action: string }>).filter((f) => f.action !== 'unchanged').map((f) => f.path);
    expect(changed).toEqual(['/srv/kubernetes/kube-apiserver/server.crt', '/srv/kubernetes/kube-apiserver/server.key']);
    expect(fs.readFileSync(path.join(root, 'srv/kubernetes/kube-apiserver/server.key'), 'utf8')).not.toBe(before);
    expect(ssl(['x509', '-in', path.join(root, 'srv/kubernetes/kube-apiserver/server.crt'), '-noout', '-ext', 'subjectAltName']).stdout).toContain('DNS:api.extra.example.com');
  });

  function write(root: string, cert: string | undefined, key: string): void {
    if (cert) fs.writeFileSync(path.join(root, 'srv/kubernetes/kube-apiserver/kubelet-api.crt'), cert);
    fs.writeFileSync(path.join(root, 'srv/kubernetes/kube-apiserver/kubelet-api.key'), key);
  }
});

describe('/etc/hosts with --dns none', () => {
  const block = (lines: string[]) => ['# Begin host entries managed by kforge nodeup - do not edit', ...lines, '# End host entries managed by kforge nodeup', ''].join('\n');

  it("maps the API's names to 127.0.0.1 on the control plane, keeping every other byte of the file", () => {
    const hosts = fs.readFileSync(path.join(cpRoot, 'etc/hosts'), 'utf8');
    const ours = block([`127.0.0.1\tapi.internal.${NAME}`, `127.0.0.1\tapi.${NAME}`]);
    expect(hosts).toContain(ours);
    // The original had no final newline, so the block went first: outside it, the bytes are the original's.
    expect(Buffer.from(hosts.replace(ours, ''))).toEqual(Buffer.from(HOSTS));
  });

  it('updates its block in place when the records change, and removes it when the cluster gets DNS', () => {
    const root = path.join(work, 'hosts-edit');
    fs.mkdirSync(path.join(root, 'etc'), { recursive: true });
    const original = '127.0.0.1 localhost\n';
    const after = '10.9.9.9 added-by-admin\n';
    fs.writeFileSync(path.join(root, 'etc/hosts'), original);
    const worker = { ...readConfig(nodeConf), APIServerIPs: ['10.0.0.10'] };
    expect(run(['--conf', writeConfig(worker, 'worker-ips.yaml'), '--root', root]).status).toBe(0);
    expect(fs.readFileSync(path.join(root, 'etc/hosts'), 'utf8')).toBe(original + block([`10.0.0.10\tapi.internal.${NAME}`]));
    fs.appendFileSync(path.join(root, 'etc/hosts'), after);
    worker.APIServerIPs = ['10.0.0.10', '10.0.0.11'];
    expect(run(['--conf', writeConfig(worker, 'worker-ips.yaml'), '--root', root]).status).toBe(0);
    expect(fs.readFileSync(path.join(root, 'etc/hosts'), 'utf8')).toBe(original + block([`10.0.0.10\tapi.internal.${NAME}`, `10.0.0.11\tapi.internal.${NAME}`]) + after);
    expect(run(['--conf', writeConfig(worker, 'worker-ips.yaml'), '--root', root]).stdout).toMatch(/No changes/);
    const withDns = { ...worker, UsesNoneDNS: undefined };
    expect(run(['--conf', writeConfig(withDns, 'worker-dns.yaml'), '--root', root]).status).toBe(0);
    expect(fs.readFileSync(path.join(root, 'etc/hosts'), 'utf8')).toBe(original + after);
  });

  it('a worker without known API addresses gets no block (and no /etc/hosts is created)', () => {
    expect(readConfig(nodeConf).UsesNoneDNS).toBe(true);
    expect(readConfig(nodeConf).APIServerIPs).toBeUndefined();
    expect(fs.existsSync(path.join(nodeRoot, 'etc/hosts'))).toBe(false);
  });
});

describe('stage recording', () => {
  it('records the last stage in the status file and prints each on stderr and the console', () => {
    expect(JSON.parse(fs.readFileSync(path.join(cpRoot, STATUS_FILE), 'utf8'))).toMatchObject({ stage: 'done', cluster: NAME, instanceGroup: `control-plane-${ZONE}` });
    const lines = fs.readFileSync(CONSOLE(), 'utf8').split('\n').slice(0, 4);
    expect(lines).toEqual(['config-fetched', 'keysets-read', 'files-written', 'done'].map((s) => `kforge-nodeup-stage: ${s}`));
  });

  it('records a failure with its code; bare metal needs the store: --state finds it when ConfigBase does not', () => {
    const bareMetal = { ...readConfig(nodeConf), ConfigBase: `file://${path.join(work, 'nowhere', NAME)}` };
    const conf = writeConfig(bareMetal, 'bare-metal.yaml');
    const root = path.join(work, 'bare-metal');
    const r = run(['--conf', conf, '--root', root]);
    expectCleanFailure(r);
    expect(r.stderr).toMatch(/^Error: keyset "kube-proxy": file:\/\/.*\/nowhere\/pki\.k8s\.local\/pki\/private\/kube-proxy\/keyset\.yaml does not exist/);
    expect(r.stages).toEqual(['config-fetched', 'failed: NODEUP_PKI_FAILED']);
    expect(JSON.parse(fs.readFileSync(path.join(root, STATUS_FILE), 'utf8'))).toMatchObject({ stage: 'failed: NODEUP_PKI_FAILED' });
    expect(listFiles(root)).toEqual([STATUS_FILE]);
    const ok = run(['--conf', conf, '--root', root, '--state', store]);
    expect(ok.status).toBe(0);
    expect(JSON.parse(fs.readFileSync(path.join(root, STATUS_FILE), 'utf8'))).toMatchObject({ stage: 'done' });
    expect(fs.readFileSync(path.join(root, 'var/lib/kubelet/bootstrap-kubeconfig'), 'utf8')).toBe(fs.readFileSync(path.join(nodeRoot, 'var/lib/kubelet/bootstrap-kubeconfig'), 'utf8'));
  });
});
