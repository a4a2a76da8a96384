import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { renderUserData } from '../../../src/model/aws/render-user-data';
import { configServerUrl } from '../../../src/model/config-server';
import type { NodeupArtifacts } from '../../../src/model/nodeup-artifacts';
import { IdentityDenied } from '../../../src/node-identity/identity-denied';
import { NodeIdentityServer, startNodeIdentityServer } from '../../../src/node-identity/node-identity-server';
import { issueKeypair } from '../../../src/pki/issue-keypair';
import { tempDir } from '../../helpers/cli';

// A worker's user-data (templates/nodeup-user-data.sh as rendered for a ConfigServer cluster) downloads the
// nodeup bundle from the node-identity service with real curl, over TLS pinned to the kops-controller-ca
// certificate user-data itself carries: a real server (startNodeIdentityServer) on loopback, reached as
// kops-controller.internal.<cluster>:3988 through curl's --connect-to (in a .curlrc under HOME), as DNS
// would resolve it on EC2. No AWS peer is needed: the bundle needs no authentication.

const NAME = 'cs.example.com';
const BUNDLE = Buffer.from('#!/opt/kforge/node/bin/node\nconsole.log("nodeup");\n');
const sha = (b: Buffer): string => createHash('sha256').update(b).digest('hex');
const YEAR = 365 * 86400_000;

let work: string;
let ca: string;
let good: NodeIdentityServer;
let impostor: NodeIdentityServer;
let script: string;
const served: string[] = [];

async function server(caName: string): Promise<{ server: NodeIdentityServer; ca: string }> {
  const authority = await issueKeypair({ subject: { commonName: caName }, usage: 'ca', validityMs: 10 * YEAR });
  const serving = await issueKeypair({ subject: { commonName: 'kops-controller' }, usage: 'server', validityMs: YEAR, dnsNames: [`kops-controller.internal.${NAME}`] }, authority);
  const s = await startNodeIdentityServer(
    {
      tls: { cert: serving.certificatePem, key: serving.privateKeyPem ?? '' },
      ca: authority,
      verify: () => Promise.reject(new IdentityDenied('no identity is verified in this test')),
      log: (line) => served.push(line),
      nodeupArtifact: (h) => Promise.resolve(h === sha(BUNDLE) ? BUNDLE : undefined),
    },
    { port: 0, host: '127.0.0.1' },
  );
  return { server: s, ca: authority.certificatePem };
}

beforeAll(async () => {
  work = tempDir('kforge-ud-cs-');
  const made = await server('kops-controller-ca');
  good = made.server;
  ca = made.ca;
  // The same name, a certificate from another CA: what a machine in the path could present.
  impostor = (await server('kops-controller-ca')).server;
  const artifacts: NodeupArtifacts = {
    runtime: { amd64: { sha256: '1'.repeat(64), urls: ['https://nodejs.org/x'] }, arm64: { sha256: '2'.repeat(64), urls: ['https://nodejs.org/y'] } },
    nodeup: { sha256: sha(BUNDLE), urls: [`s3://kforge-state/${NAME}/assets/nodeup/${sha(BUNDLE)}/nodeup`] },
  };
  script = renderUserData({ clusterName: NAME, configBase: `s3://kforge-state/${NAME}`, region: 'us-east-1', instanceGroup: 'nodes', role: 'Node', nodeupConfigHash: '0'.repeat(64), artifacts, configServer: { servers: [configServerUrl(NAME)], caCertificates: ca } });
});

afterAll(async () => {
  await good?.close();
  await impostor?.close();
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

/** user-data's functions and its CA file, then the nodeup download, one round, with kops-controller.internal.<cluster>:3988 reaching `port`. */
function installNodeup(port: number, hash = sha(BUNDLE)): Promise<{ status: number; out: string; dir: string }> {
  const dir = fs.mkdtempSync(path.join(work, 'root-'));
  fs.writeFileSync(path.join(dir, '.curlrc'), `connect-to = kops-controller.internal.${NAME}:3988:127.0.0.1:${port}\n`);
  const functions = script.slice(0, script.indexOf('\n####'));
  const caFile = /cat > "\$\{CONFIG_SERVER_CA\}" << '__EOF_CONFIG_SERVER_CA'\n([\s\S]*?)\n__EOF_CONFIG_SERVER_CA\n/.exec(script)?.[1] ?? '';
  fs.writeFileSync(path.join(dir, 'ca.crt'), `${caFile}\n`);
  const urls = /^NODEUP_URLS=(\S+)$/m.exec(script)?.[1] ?? '';
  const text = `${functions}\nROUNDS=1\nSERVICE_ROUNDS=1\nCONFIG_SERVER_CA=${dir}/ca.crt\ndownload ${dir}/nodeup ${hash} ${urls}\n`;
  const child = spawn('bash', ['-c', text], { env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ status: code ?? -1, out, dir })));
}

it("names the service's bundle URL and carries exactly the kops-controller-ca certificate, and no state-store location", () => {
  expect(script).toContain(`NODEUP_URLS=https://kops-controller.internal.${NAME}:3988/nodeup/${sha(BUNDLE)}\n`);
  expect(script).toContain(`<< '__EOF_CONFIG_SERVER_CA'\n${ca.trimEnd()}\n__EOF_CONFIG_SERVER_CA\n`);
  expect(script).not.toContain('s3://kforge-state');
  expect(script).not.toMatch(/PRIVATE KEY/);
});

it('downloads the bundle from the service over TLS pinned to that certificate, and checks its sha256', async () => {
  const r = await installNodeup(good.port);
  expect([r.status, r.out]).toEqual([0, expect.not.stringContaining('Failed')]);
  expect(fs.readFileSync(path.join(r.dir, 'nodeup'))).toEqual(BUNDLE);
  expect(served.filter((l) => l.endsWith(` GET /nodeup/${sha(BUNDLE)} 200 sent nodeup bundle ${sha(BUNDLE)} (${BUNDLE.length} bytes)`))).toHaveLength(1);
});

it('refuses a server whose certificate another CA issued for the same name: nothing is installed', async () => {
  const r = await installNodeup(impostor.port);
  expect(r.status).toBe(1);
  expect(r.out).toContain('== Failed to download https://kops-controller.internal.cs.example.com:3988/nodeup/');
  expect(r.out).toMatch(/curl: \(60\)/);
  expect(fs.existsSync(path.join(r.dir, 'nodeup'))).toBe(false);
});

it('fails closed on a bundle whose sha256 is not the one user-data names', async () => {
  const r = await installNodeup(good.port, 'f'.repeat(64));
  expect(r.status).toBe(1);
  expect(r.out).toContain(`has sha256 ${sha(BUNDLE)}, not the expected ${'f'.repeat(64)}; nothing was installed`);
  expect(fs.existsSync(path.join(r.dir, 'nodeup'))).toBe(false);
});

describe('without DNS: the service reached through the API load balancer (ConfigServer via)', () => {
  const LB = 'api-cs-0123456789.elb.us-east-1.amazonaws.com';
  let viaScript: string;
  beforeAll(() => {
    const artifacts: NodeupArtifacts = {
      runtime: { amd64: { sha256: '1'.repeat(64), urls: ['https://nodejs.org/x'] }, arm64: { sha256: '2'.repeat(64), urls: ['https://nodejs.org/y'] } },
      nodeup: { sha256: sha(BUNDLE), urls: [`s3://kforge-state/${NAME}/assets/nodeup/${sha(BUNDLE)}/nodeup`] },
    };
    viaScript = renderUserData({ clusterName: NAME, configBase: `s3://kforge-state/${NAME}`, region: 'us-east-1', instanceGroup: 'nodes', role: 'Node', nodeupConfigHash: '0'.repeat(64), artifacts, configServer: { servers: [configServerUrl(NAME)], caCertificates: ca, via: LB } });
  });

  /** The download with user-data's own --connect-to, the load balancer's name standing for the loopback server (what its DNS would give on EC2). */
  function viaDownload(port: number): Promise<{ status: number; out: string; dir: string }> {
    const dir = fs.mkdtempSync(path.join(work, 'via-'));
    const functions = viaScript.slice(0, viaScript.indexOf('\n####'));
    const caFile = /cat > "\$\{CONFIG_SERVER_CA\}" << '__EOF_CONFIG_SERVER_CA'\n([\s\S]*?)\n__EOF_CONFIG_SERVER_CA\n/.exec(viaScript)?.[1] ?? '';
    fs.writeFileSync(path.join(dir, 'ca.crt'), `${caFile}\n`);
    const connect = /^CONFIG_SERVER_CONNECT_TO="(\S+)"$/m.exec(viaScript)?.[1] ?? '';
    const urls = /^NODEUP_URLS=(\S+)$/m.exec(viaScript)?.[1] ?? '';
    const text = `${functions}\nROUNDS=1\nSERVICE_ROUNDS=1\nCONFIG_SERVER_CA=${dir}/ca.crt\nCONFIG_SERVER_CONNECT_TO=${connect.replace(`${LB}:3988`, `127.0.0.1:${port}`)}\ndownload ${dir}/nodeup ${sha(BUNDLE)} ${urls}\n`;
    const child = spawn('bash', ['-c', text], { env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    return new Promise((resolve) => child.on('close', (code) => resolve({ status: code ?? -1, out, dir })));
  }

  it("names the service by its name, connects that name to the load balancer's, and boots nodeup with the load balancer's address", () => {
    expect(viaScript).toContain(`NODEUP_URLS=https://kops-controller.internal.${NAME}:3988/nodeup/${sha(BUNDLE)}\n`);
    expect(viaScript).toContain(`CONFIG_SERVER_CONNECT_TO="kops-controller.internal.${NAME}:3988:${LB}:3988"\n`);
    expect(viaScript).toContain(`  Servers:\n  - https://${LB}:3988\n`);
    expect(viaScript).not.toContain('s3://kforge-state');
  });

  it('downloads the bundle through the load balancer over TLS still checked for kops-controller.internal.<cluster>', async () => {
    const r = await viaDownload(good.port);
    expect([r.status, r.out]).toEqual([0, expect.not.stringContaining('Failed')]);
    expect(fs.readFileSync(path.join(r.dir, 'nodeup'))).toEqual(BUNDLE);
  });

  it('refuses what answers at the load balancer with a certificate from another CA', async () => {
    const r = await viaDownload(impostor.port);
    expect(r.status).toBe(1);
    expect(r.out).toMatch(/curl: \(60\)/);
    expect(fs.existsSync(path.join(r.dir, 'nodeup'))).toBe(false);
  });
});
