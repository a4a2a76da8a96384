import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createPrivateKey, X509Certificate } from 'node:crypto';
import * as yaml from 'js-yaml';
import { runCli, tempDir } from '../helpers/cli';
import { writeManagedFilesOf } from '../helpers/write-managed-files';

interface Kubeconfig {
  'current-context': string;
  clusters: Array<{ name: string; cluster: { server: string; 'certificate-authority-data': string; 'tls-server-name'?: string } }>;
  users: Array<{ name: string; user: Record<string, string> }>;
  contexts: Array<{ name: string; context: { cluster: string; user: string } }>;
  preferences?: object;
}

const CLUSTER = 'demo.k8s.local';
let store: string;

beforeAll(async () => {
  store = tempDir();
  const r = runCli(['create', 'cluster', CLUSTER, '--zones', 'us-east-1a', '--state', store]);
  expect(r.status).toBe(0);
  // export kubeconfig needs the cluster CA, which (as in kops) the first update creates.
  await writeManagedFilesOf(store, CLUSTER);
});

function exportKc(args: string[], env: NodeJS.ProcessEnv = {}) {
  return runCli(['export', 'kubeconfig', CLUSTER, '--state', store, ...args], { env: { HOME: tempDir(), KUBECONFIG: undefined, ...env } });
}

function load(file: string): Kubeconfig {
  return yaml.load(fs.readFileSync(file, 'utf8')) as Kubeconfig;
}

/** Writes the kubeconfig's CA bundle and client certificate to files for openssl. */
function pemFiles(kc: Kubeconfig, user = CLUSTER): { ca: string; cert: string; key: string; dir: string } {
  const dir = tempDir();
  const cluster = kc.clusters.find((c) => c.name === CLUSTER);
  const u = kc.users.find((x) => x.name === user);
  const ca = path.join(dir, 'ca.pem');
  const cert = path.join(dir, 'admin.pem');
  const key = path.join(dir, 'admin-key.pem');
  fs.writeFileSync(ca, Buffer.from(cluster?.cluster['certificate-authority-data'] ?? '', 'base64'));
  fs.writeFileSync(cert, Buffer.from(u?.user['client-certificate-data'] ?? '', 'base64'));
  fs.writeFileSync(key, Buffer.from(u?.user['client-key-data'] ?? '', 'base64'));
  return { ca, cert, key, dir };
}

describe('kforge export kubeconfig', () => {
  it('--admin: a client certificate that verifies against the cluster CA, expires within 24h, in a 0600 file', () => {
    const file = path.join(tempDir(), 'nested', 'config');
    const r = exportKc(['--admin', '--kubeconfig', file]);
    // A .k8s.local cluster's API has no DNS record: its server is the load balancer's name, which only the first update --yes creates.
    expect(r.stderr).toBe(`Warning: cluster "${CLUSTER}" has no DNS name for its API and no load balancer yet: the server api.${CLUSTER} resolves nowhere until "kforge update cluster ${CLUSTER} --yes" creates the load balancer; export the kubeconfig again then\n`);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain(`kforge has set your kubectl context to ${CLUSTER}`);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const kc = load(file);
    expect(kc['current-context']).toBe(CLUSTER);
    expect(kc.clusters[0].cluster.server).toBe(`https://api.${CLUSTER}`);
    // As kops: TLS checks the internal API name, which every API server certificate names.
    expect(kc.clusters[0].cluster['tls-server-name']).toBe(`api.internal.${CLUSTER}`);
    expect(kc.contexts).toEqual([{ name: CLUSTER, context: { cluster: CLUSTER, user: CLUSTER } }]);
    const { ca, cert, key } = pemFiles(kc);
    expect(execFileSync('openssl', ['verify', '-x509_strict', '-purpose', 'sslclient', '-CAfile', ca, cert], { encoding: 'utf8' })).toBe(`${cert}: OK\n`);
    const x = new X509Certificate(fs.readFileSync(cert));
    const hours = (Date.parse(x.validTo) - Date.now()) / 3_600_000;
    expect(hours).toBeGreaterThan(17.9);
    expect(hours).toBeLessThan(24);
    expect(x.subject).toMatch(/^O=system:masters\nCN=kubecfg-.+$/);
    expect(x.checkPrivateKey(createPrivateKey(fs.readFileSync(key)))).toBe(true);
    // The CA is the stored kubernetes-ca certificate.
    const issued = yaml.load(fs.readFileSync(path.join(store, CLUSTER, 'pki/issued/kubernetes-ca/keyset.yaml'), 'utf8')) as { spec: { keys: Array<{ publicMaterial: string }> } };
    expect(fs.readFileSync(ca, 'utf8')).toBe(Buffer.from(issued.spec.keys[0].publicMaterial, 'base64').toString());
  });

  it('--admin=DURATION sets the lifetime; a bad duration names the flag', () => {
    const file = path.join(tempDir(), 'config');
    expect(exportKc(['--admin=2h', '--kubeconfig', file]).status).toBe(0);
    const x = new X509Certificate(fs.readFileSync(pemFiles(load(file)).cert));
    const hours = (Date.parse(x.validTo) - Date.now()) / 3_600_000;
    expect(hours).toBeGreaterThan(1.9);
    expect(hours).toBeLessThan(2.01);
    const bad = exportKc(['--admin=soon', '--kubeconfig', file]);
    expect(bad.status).toBe(1);
    expect(bad.stderr).toMatch(/^Error: --admin: "soon" is not a duration/);
  });

  it('merges into an existing kubeconfig without clobbering other entries, and replaces its own', () => {
    const file = path.join(tempDir(), 'config');
    const other = {
      apiVersion: 'v1',
      kind: 'Config',
      'current-context': 'prod',
      clusters: [{ name: 'prod', cluster: { server: 'https://prod.example.com' } }, { name: CLUSTER, cluster: { server: 'https://stale' } }],
      users: [{ name: 'prod-admin', user: { token: 'abc' } }],
      contexts: [{ name: 'prod', context: { cluster: 'prod', user: 'prod-admin' } }],
      preferences: { colors: true },
    };
    fs.writeFileSync(file, yaml.dump(other), { mode: 0o644 });
    expect(exportKc(['--admin', '--kubeconfig', file]).status).toBe(0);
    const kc = load(file);
    expect(kc.clusters.map((c) => [c.name, c.cluster.server])).toEqual([['prod', 'https://prod.example.com'], [CLUSTER, `https://api.${CLUSTER}`]]);
    expect(kc.users.map((u) => u.name)).toEqual(['prod-admin', CLUSTER]);
    expect(kc.users[0].user).toEqual({ token: 'abc' });
    expect(kc.contexts.map((c) => c.name)).toEqual(['prod', CLUSTER]);
    expect(kc.preferences).toEqual({ colors: true });
    expect(kc['current-context']).toBe(CLUSTER);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
  });

  it('uses $KUBECONFIG (its first existing file) when --kubeconfig is not given', () => {
    const dir = tempDir();
    const a = path.join(dir, 'a');
    const b = path.join(dir, 'b');
    fs.writeFileSync(b, yaml.dump({ apiVersion: 'v1', kind: 'Config', clusters: [], users: [], contexts: [] }));
    expect(exportKc(['--admin'], { KUBECONFIG: `${a}:${b}` }).status).toBe(0);
    expect(fs.existsSync(a)).toBe(false);
    expect(load(b)['current-context']).toBe(CLUSTER);
  });

  it('defaults to ~/.kube/config', () => {
    const home = tempDir();
    expect(runCli(['export', 'kubeconfig', CLUSTER, '--state', store, '--admin'], { env: { HOME: home, KUBECONFIG: undefined } }).status).toBe(0);
    expect(load(path.join(home, '.kube', 'config'))['current-context']).toBe(CLUSTER);
  });

  it('--user points the context at an existing user and writes no credentials; --internal uses the internal name', () => {
    const file = path.join(tempDir(), 'config');
    const r = exportKc(['--user', 'sso-user', '--internal', '--kubeconfig', file]);
    expect(r.status).toBe(0);
    expect(r.stderr).toBe('');
    const kc = load(file);
    expect(kc.users).toEqual([]);
    expect(kc.contexts[0].context).toEqual({ cluster: CLUSTER, user: 'sso-user' });
    expect(kc.clusters[0].cluster.server).toBe(`https://api.internal.${CLUSTER}`);
  });

  it('without --admin or --user warns that the context has no credentials', () => {
    const file = path.join(tempDir(), 'config');
    const r = exportKc(['--kubeconfig', file]);
    expect(r.status).toBe(0);
    expect(r.stderr).toContain('Warning: exported kubeconfig with no user authentication; use --admin or --user');
    expect(load(file).users).toEqual([]);
  });

  it.each([
    ['not YAML', 'clusters: [unclosed\n', /config:\d+: not valid YAML; fix or move the file, kforge will not overwrite it/],
    ['not a mapping', '- a\n- b\n', /not a kubeconfig/],
    ['clusters not a list', 'clusters: 3\n', /"clusters" is not a list/],
  ])('refuses to overwrite a kubeconfig that is %s', (_what, content, message) => {
    const file = path.join(tempDir(), 'config');
    fs.writeFileSync(file, content);
    const r = exportKc(['--admin', '--kubeconfig', file]);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(fs.readFileSync(file, 'utf8')).toBe(content);
  });

  it('a cluster that does not exist is a clear error and writes nothing', () => {
    const file = path.join(tempDir(), 'config');
    const r = runCli(['export', 'kubeconfig', 'nope.k8s.local', '--state', store, '--admin', '--kubeconfig', file]);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/^Error: cluster "nope.k8s.local" has no completed spec|^Error: cluster "nope.k8s.local" not found/);
    expect(fs.existsSync(file)).toBe(false);
  });

  it('--admin and --user together are refused', () => {
    const r = exportKc(['--admin', '--user', 'x', '--kubeconfig', path.join(tempDir(), 'c')]);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(/--user=x cannot also be provided when using --admin|cannot also be provided/);
  });

  it('--help shows examples', () => {
    const r = runCli(['export', 'kubeconfig', '--help']);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('EXAMPLES');
    expect(r.stdout).toContain('--admin');
  });
});
