import { spawnSync } from 'node:child_process';
import { createHash, createPrivateKey, X509Certificate } from 'node:crypto';
import { createStorePathCluster } from '../helpers/store-path-cluster';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as yaml from 'js-yaml';
import type { NodeupConfig } from '../../src/model/nodeup-config-builder';
import { kubeletNodeName } from '../../src/nodeup/kubelet-node-name';
import { issueNodeCertificates } from '../../src/nodeup/node-certificates';
import { fetchNodeKeysets } from '../../src/nodeup/node-keysets';
import { planManagedFiles, writeManagedFiles } from '../../src/ops/plan-managed-files';
import { StatePaths } from '../../src/state/state-paths';
import { openVfs } from '../../src/state/vfs/open-vfs';
import { ensureAptTool } from '../helpers/apt-tool';
import { expectCleanFailure, listFiles, runCli, tempDir } from '../helpers/cli';
import { splitStages, STATUS_FILE } from './stage-lines';

// kubelet's identity, against a store made by the real pipeline (create, then what `update cluster --yes`
// writes): the control plane's kubelet gets a system:node:<name> certificate issued on the node; a worker's
// kubelet gets the shared kubelet-bootstrap identity at --bootstrap-kubeconfig and requests its own
// certificate through a CSR, so nodeup writes nothing at --kubeconfig. Checked with openssl.

const NAME = 'identity.k8s.local';
const ZONE = 'us-east-1a';
const LOCK = { command: 'kforge test', ttlSeconds: 60, warn: () => undefined };
// The name kubelet registers under on this machine (no --hostname-override): the hostname, lowercased.
const HOST = os.hostname().trim().toLowerCase();
let work: string;
let cpConf: string;
let nodeConf: string;
let cpRoot: string;
let nodeRoot: string;
let openssl: string;

function readConfig(file: string): NodeupConfig {
  return yaml.load(fs.readFileSync(file, 'utf8')) as NodeupConfig;
}

function writeConfig(config: NodeupConfig, name: string): string {
  const file = path.join(work, name);
  fs.writeFileSync(file, yaml.dump(config));
  return file;
}

function run(args: string[]) {
  return splitStages(runCli(['nodeup', ...args], { env: { KFORGE_NODEUP_CONSOLE: path.join(work, 'console.log') } }));
}

/** The value of one of kubelet's rendered flags in a nodeup config. */
function kubeletFlag(config: NodeupConfig, flag: string): string | undefined {
  const prefix = `--${flag}=`;
  return config.ComponentFlags.kubelet.find((a) => a.startsWith(prefix))?.slice(prefix.length);
}

function ssl(args: string[]): { status: number; stdout: string } {
  const r = spawnSync(openssl, args, { encoding: 'utf8' });
  return { status: r.status ?? -1, stdout: r.stdout };
}

/** A kubeconfig's server, its client certificate written to a file for openssl, and whether the embedded key is the certificate's. */
function kubeconfigIdentity(file: string): { server: string; certFile: string; subject: string; keyMatches: boolean; user: string } {
  const kc = yaml.load(fs.readFileSync(file, 'utf8')) as { clusters: Array<{ cluster: { server: string } }>; users: Array<{ name: string; user: Record<string, string> }> };
  const cert = Buffer.from(kc.users[0].user['client-certificate-data'], 'base64').toString();
  const certFile = path.join(work, `${path.basename(path.dirname(file))}-${path.basename(file)}-${Math.random().toString(36).slice(2)}.crt`);
  fs.writeFileSync(certFile, cert);
  const subject = ssl(['x509', '-in', certFile, '-noout', '-subject', '-nameopt', 'RFC2253']).stdout.trim();
  const keyMatches = new X509Certificate(cert).checkPrivateKey(createPrivateKey(Buffer.from(kc.users[0].user['client-key-data'], 'base64')));
  return { server: kc.clusters[0].cluster.server, certFile, subject, keyMatches, user: kc.users[0].name };
}

/** Each file's sha256 and mode, except the status file, which records the time of the run. */
function snapshot(root: string): Map<string, string> {
  const files = listFiles(root).filter((f) => f !== STATUS_FILE);
  return new Map(files.map((f) => [f, `${createHash('sha256').update(fs.readFileSync(path.join(root, f))).digest('hex')} ${(fs.statSync(path.join(root, f)).mode & 0o777).toString(8)}`]));
}

beforeAll(async () => {
  openssl = ensureAptTool('openssl', 'openssl');
  work = tempDir('kforge-kubelet-identity-');
  const store = path.join(work, 'store');
  const vfs = openVfs(store);
  await createStorePathCluster(vfs, { name: NAME, zones: [ZONE], networking: 'calico' }, LOCK);
  await writeManagedFiles(vfs, await planManagedFiles(vfs, NAME));
  cpConf = path.join(store, StatePaths.nodeupConfig(NAME, 'ControlPlane', `control-plane-${ZONE}`));
  nodeConf = path.join(store, StatePaths.nodeupConfig(NAME, 'Node', `nodes-${ZONE}`));
  cpRoot = path.join(work, 'cp');
  nodeRoot = path.join(work, 'node');
  expect(run(['--conf', cpConf, '--root', cpRoot]).status).toBe(0);
  expect(run(['--conf', nodeConf, '--root', nodeRoot]).status).toBe(0);
}, 120_000);

afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

describe('the flags update cluster renders', () => {
  it('a worker kubelet bootstraps and rotates its certificate; the control-plane kubelet does neither', () => {
    const node = readConfig(nodeConf);
    expect([kubeletFlag(node, 'bootstrap-kubeconfig'), kubeletFlag(node, 'rotate-certificates'), kubeletFlag(node, 'kubeconfig')]).toEqual([
      '/var/lib/kubelet/bootstrap-kubeconfig',
      'true',
      '/var/lib/kubelet/kubeconfig',
    ]);
    const cp = readConfig(cpConf);
    expect([kubeletFlag(cp, 'bootstrap-kubeconfig'), kubeletFlag(cp, 'rotate-certificates'), kubeletFlag(cp, 'kubeconfig')]).toEqual([undefined, undefined, '/var/lib/kubelet/kubeconfig']);
  });
});

describe('control plane: a node certificate issued on the node', () => {
  it(`kubelet's --kubeconfig carries O=system:nodes, CN=system:node:<hostname>, which openssl verifies against the cluster CA`, () => {
    const file = path.join(cpRoot, kubeletFlag(readConfig(cpConf), 'kubeconfig') as string);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const id = kubeconfigIdentity(file);
    expect({ server: id.server, subject: id.subject, keyMatches: id.keyMatches }).toEqual({ server: 'https://127.0.0.1', subject: `subject=CN=system:node:${HOST},O=system:nodes`, keyMatches: true });
    const caFile = path.join(cpRoot, 'srv/kubernetes/ca.crt');
    expect(ssl(['verify', '-x509_strict', '-CAfile', caFile, id.certFile])).toEqual({ status: 0, stdout: `${id.certFile}: OK\n` });
    expect(ssl(['x509', '-in', id.certFile, '-noout', '-ext', 'extendedKeyUsage']).stdout).toContain('TLS Web Client Authentication');
    // The check can fail: the etcd clients CA does not verify it.
    expect(ssl(['verify', '-CAfile', path.join(cpRoot, 'srv/kubernetes/kube-apiserver/etcd-ca.crt'), id.certFile]).status).not.toBe(0);
    expect(fs.existsSync(path.join(cpRoot, 'var/lib/kubelet/bootstrap-kubeconfig'))).toBe(false);
  });

  it('a second run changes nothing: the certificate and its key are kept', () => {
    const before = snapshot(cpRoot);
    const r = run(['--conf', cpConf, '--root', cpRoot]);
    expect(r.stdout).toMatch(/No changes: \d+ files up to date\./);
    expect(snapshot(cpRoot)).toEqual(before);
  });

  it('--hostname-override names the node (lowercased, as kubelet does); a changed name re-issues only that certificate', async () => {
    const root = path.join(work, 'cp-override');
    fs.cpSync(cpRoot, root, { recursive: true });
    const config = readConfig(cpConf);
    config.ComponentFlags.kubelet = [...config.ComponentFlags.kubelet, '--hostname-override=CP-1.Example.Internal'];
    expect(kubeletNodeName(config, 'ignored')).toBe('cp-1.example.internal');
    const conf = writeConfig(config, 'override.yaml');
    const r = run(['--conf', conf, '--root', root, '-o', 'json']);
    expect(r.status).toBe(0);
    const changed = (JSON.parse(r.stdout).files as Array<{ path: string; action: string }>).filter((f) => f.action !== 'unchanged').map((f) => f.path);
    // The kubelet unit changes with its flags; of the PKI, only kubelet's kubeconfig.
    expect(changed).toEqual(['/etc/systemd/system/kubelet.service', '/var/lib/kubelet/kubeconfig']);
    expect(kubeconfigIdentity(path.join(root, 'var/lib/kubelet/kubeconfig')).subject).toBe('subject=CN=system:node:cp-1.example.internal,O=system:nodes');
    expect(run(['--conf', conf, '--root', root]).stdout).toMatch(/No changes/);
    // Back to the hostname: the certificate for the other name is not kept.
    const certs = await issueNodeCertificates(readConfig(cpConf), await fetchNodeKeysets(readConfig(cpConf)), root, HOST);
    expect(certs.filter((c) => !c.reused).map((c) => c.request.name)).toEqual(['kubelet client']);
  });

  it("with --bootstrap-kubeconfig set by the user, the control plane bootstraps too: no node certificate, nothing at --kubeconfig", () => {
    const config = readConfig(cpConf);
    config.ComponentFlags.kubelet = [...config.ComponentFlags.kubelet, '--bootstrap-kubeconfig=/var/lib/kubelet/bootstrap-kubeconfig'];
    const root = path.join(work, 'cp-bootstrap');
    expect(run(['--conf', writeConfig(config, 'cp-bootstrap.yaml'), '--root', root]).status).toBe(0);
    expect(kubeconfigIdentity(path.join(root, 'var/lib/kubelet/bootstrap-kubeconfig')).subject).toBe('subject=CN=kubelet-bootstrap,O=system:bootstrappers');
    expect(fs.existsSync(path.join(root, 'var/lib/kubelet/kubeconfig'))).toBe(false);
  });
});

describe('worker: the bootstrap identity at --bootstrap-kubeconfig', () => {
  it('holds kubelet-bootstrap (O=system:bootstrappers) for the internal API name, verified by openssl; nothing at --kubeconfig', () => {
    const config = readConfig(nodeConf);
    const file = path.join(nodeRoot, kubeletFlag(config, 'bootstrap-kubeconfig') as string);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const id = kubeconfigIdentity(file);
    expect({ server: id.server, subject: id.subject, keyMatches: id.keyMatches, user: id.user }).toEqual({
      server: `https://api.internal.${NAME}`,
      subject: 'subject=CN=kubelet-bootstrap,O=system:bootstrappers',
      keyMatches: true,
      user: 'kubelet-bootstrap',
    });
    const caFile = path.join(work, 'worker-ca.crt');
    fs.writeFileSync(caFile, config.CAs?.['kubernetes-ca'] as string);
    expect(ssl(['verify', '-CAfile', caFile, id.certFile]).status).toBe(0);
    // kubelet writes --kubeconfig itself once its CSR is signed.
    expect(fs.existsSync(path.join(nodeRoot, kubeletFlag(config, 'kubeconfig') as string))).toBe(false);
  });

  it('a second run changes nothing', () => {
    const before = snapshot(nodeRoot);
    expect(run(['--conf', nodeConf, '--root', nodeRoot]).stdout).toMatch(/No changes: \d+ files up to date\./);
    expect(snapshot(nodeRoot)).toEqual(before);
  });

  it('a worker config without --bootstrap-kubeconfig is refused, naming the flag, and installs nothing', () => {
    const config = readConfig(nodeConf);
    config.ComponentFlags.kubelet = config.ComponentFlags.kubelet.filter((a) => !a.startsWith('--bootstrap-kubeconfig='));
    const root = path.join(work, 'node-no-bootstrap');
    const r = run(['--conf', writeConfig(config, 'no-bootstrap.yaml'), '--root', root]);
    expectCleanFailure(r);
    expect(r.stderr).toMatch(/^Error: .*no-bootstrap\.yaml: ComponentFlags\.kubelet: a worker's kubelet needs --bootstrap-kubeconfig/);
    expect(r.stages).toEqual(['config-fetched', 'keysets-read', 'failed: INVALID_NODEUP_CONFIG']);
    expect(listFiles(root)).toEqual([STATUS_FILE]);
  });
});
