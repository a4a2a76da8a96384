import { SignatureV4 } from '@smithy/signature-v4';
import { createHash, createHmac } from 'node:crypto';
import { AwsCloud } from '../../src/cloud/aws/aws-cloud';
import { controlPlaneIamName, nodeGroupIamName } from '../../src/model/aws/iam-names';
import { AwsIdentityVerifier } from '../../src/node-identity/aws-identity-verifier';
import { createAwsIdentityToken, AWS_TOKEN_PREFIX, STS_GET_CALLER_IDENTITY_BODY } from '../../src/node-identity/aws-identity-token';
import { describeInstanceFacts } from '../../src/node-identity/describe-instance-facts';
import { MAX_BOOTSTRAP_BODY, NodeIdentityServer, startNodeIdentityServer } from '../../src/node-identity/node-identity-server';
import { issueKeypair } from '../../src/pki/issue-keypair';
import type { Keypair } from '../../src/pki/keypair';
import { MOTO_WITH_DEFAULT_IMAGE, MotoServer, startMotoServer } from '../helpers/moto-server';
import { bootstrapBody, createRole, instanceRoleCredentials, launchInstance, MOTO_ACCOUNT, motoClients, opensslSubject, opensslVerify, post, terminate } from './node-identity-helpers';

// Against moto: IAM roles, AssumeRole sessions named after instance ids (what EC2 hands out through IMDS),
// GetCallerIdentity executed by the verifier itself, DescribeInstances. moto ties the session credentials
// to the role and session name (it answers assumed-role/<role>/<instance id>), so no recorded STS answer is
// needed; what moto does not do is check SigV4 signatures without IAM enforcement, so the signer is checked
// against the AWS SDK's own SigV4 implementation below.

const CLUSTER = 'a.example.com';
const OTHER = 'b.example.com';
const REGION = 'us-east-1';
jest.setTimeout(120_000);

let moto: MotoServer;
let server: NodeIdentityServer;
let ca: Keypair;
let controllerCa: Keypair;
const logs: string[] = [];
let roleArns: Record<string, string>;
let clock: Date | undefined;

beforeAll(async () => {
  moto = await startMotoServer({ env: MOTO_WITH_DEFAULT_IMAGE });
  const { iam } = motoClients(moto);
  roleArns = {};
  for (const name of [nodeGroupIamName('nodes-a', CLUSTER), nodeGroupIamName('nodes-b', CLUSTER), controlPlaneIamName(CLUSTER), nodeGroupIamName('nodes', OTHER)]) roleArns[name] = await createRole(iam, name);
  ca = await issueKeypair({ subject: { commonName: 'kubernetes-ca' }, usage: 'ca', validityMs: 10 * 365 * 86400_000 });
  controllerCa = await issueKeypair({ subject: { commonName: 'kops-controller-ca' }, usage: 'ca', validityMs: 10 * 365 * 86400_000 });
  const serving = await issueKeypair({ subject: { commonName: 'kops-controller' }, usage: 'server', validityMs: 365 * 86400_000, dnsNames: [`kops-controller.internal.${CLUSTER}`] }, controllerCa);
  const cloud = new AwsCloud({ clusterName: CLUSTER, region: REGION, env: moto.env, credentials: { accessKeyId: 'test', secretAccessKey: 'test' } });
  const verifier = new AwsIdentityVerifier({
    clusterName: CLUSTER,
    region: REGION,
    stsEndpoint: moto.endpoint,
    accountId: MOTO_ACCOUNT,
    roles: new Map([
      [nodeGroupIamName('nodes-a', CLUSTER), ['nodes-a']],
      [nodeGroupIamName('nodes-b', CLUSTER), ['nodes-b']],
      [controlPlaneIamName(CLUSTER), ['control-plane-us-east-1a']],
    ]),
    describeInstance: (id) => describeInstanceFacts(cloud, id),
    now: () => clock ?? new Date(),
  });
  server = await startNodeIdentityServer({ tls: { cert: serving.certificatePem, key: serving.privateKeyPem ?? '' }, ca, verify: (a, b) => verifier.verify(a, b), log: (l) => logs.push(l) }, { port: 0, host: '127.0.0.1' });
});

afterAll(async () => {
  await server?.close();
  await moto?.stop();
});

beforeEach(() => {
  logs.length = 0;
  clock = undefined;
});

/** A node of `group` in `cluster` with its instance-role credentials. */
async function node(group: string, cluster = CLUSTER, roleOf = group) {
  const { ec2, sts } = motoClients(moto);
  const instance = await launchInstance(ec2, cluster, group);
  const role = cluster === CLUSTER ? nodeGroupIamName(roleOf, CLUSTER) : nodeGroupIamName('nodes', OTHER);
  const credentials = await instanceRoleCredentials(sts, roleArns[role], instance.id);
  return { instance, credentials };
}

function token(body: string, credentials: Awaited<ReturnType<typeof node>>['credentials'], options: { now?: Date; stsEndpoint?: string } = {}): string {
  return createAwsIdentityToken(body, { region: REGION, stsEndpoint: options.stsEndpoint ?? moto.endpoint, credentials, now: options.now });
}

function expectOneDenial(reason: RegExp): void {
  expect(logs).toHaveLength(1);
  expect(logs[0]).toMatch(/ 403 denied: /);
  expect(logs[0]).toMatch(reason);
}

test('an honest node gets exactly its own kubelet and kube-proxy certificates, which openssl verifies against kubernetes-ca', async () => {
  const { instance, credentials } = await node('nodes-a');
  expect(instance.privateDnsName).toMatch(/^ip-[\d-]+\.ec2\.internal$/);
  const { body } = bootstrapBody(instance.privateDnsName, ['kubelet', 'kube-proxy']);
  const res = await post(server.port, controllerCa.certificatePem, body, token(body, credentials));
  expect({ status: res.status, logs }).toEqual({ status: 200, logs: [expect.stringContaining('issued')] });
  const certs = (JSON.parse(res.body) as { certs: Record<string, string> }).certs;
  expect(Object.keys(certs).sort()).toEqual(['kube-proxy', 'kubelet']);
  expect(opensslVerify(ca.certificatePem, Object.values(certs)).status).toBe(0);
  expect(opensslVerify(controllerCa.certificatePem, [certs.kubelet]).status).not.toBe(0);
  expect(opensslSubject(certs.kubelet)).toBe(`subject=CN=system:node:${instance.privateDnsName},O=system:nodes`);
  expect(opensslSubject(certs['kube-proxy'])).toBe('subject=CN=system:kube-proxy');
  expect(logs).toEqual([expect.stringMatching(new RegExp(` 200 issued kube-proxy, kubelet for node ${instance.privateDnsName.replace(/\./g, '\\.')} \\(instance ${instance.id}, group nodes-a, role nodes-nodes-a\\.a\\.example\\.com\\)$`))]);
});

test("another cluster's role is refused", async () => {
  const { instance, credentials } = await node('nodes', OTHER);
  const { body } = bootstrapBody(instance.privateDnsName);
  expect((await post(server.port, controllerCa.certificatePem, body, token(body, credentials))).status).toBe(403);
  expectOneDenial(/role nodes-nodes\.b\.example\.com is not an instance role of cluster a\.example\.com/);
});

test('a terminated instance is refused', async () => {
  const { instance, credentials } = await node('nodes-a');
  await terminate(motoClients(moto).ec2, instance.id);
  const { body } = bootstrapBody(instance.privateDnsName);
  expect((await post(server.port, controllerCa.certificatePem, body, token(body, credentials))).status).toBe(403);
  expectOneDenial(new RegExp(`instance ${instance.id} is terminated, not running`));
});

test("a node of another group cannot claim a node-a machine's name, nor use a role of a group it is not in", async () => {
  const victim = await node('nodes-a');
  const attacker = await node('nodes-b');
  const { body } = bootstrapBody(victim.instance.privateDnsName);
  expect((await post(server.port, controllerCa.certificatePem, body, token(body, attacker.credentials))).status).toBe(403);
  expectOneDenial(new RegExp(`instance ${attacker.instance.id} \\(group nodes-b\\) claims node name ${victim.instance.privateDnsName}, but its node name is ${attacker.instance.privateDnsName}`));
  // A session of nodes-a's role named after the nodes-b instance (a role the instance does not run with).
  logs.length = 0;
  const { sts } = motoClients(moto);
  const crossed = await instanceRoleCredentials(sts, roleArns[nodeGroupIamName('nodes-a', CLUSTER)], attacker.instance.id);
  const own = bootstrapBody(attacker.instance.privateDnsName).body;
  expect((await post(server.port, controllerCa.certificatePem, own, token(own, crossed))).status).toBe(403);
  expectOneDenial(/is in group nodes-b, and role nodes-nodes-a\.a\.example\.com is for nodes-a/);
});

test('a signature older than 15 minutes is refused; 14 minutes passes', async () => {
  const { instance, credentials } = await node('nodes-a');
  const { body } = bootstrapBody(instance.privateDnsName);
  const signed = new Date();
  const t = token(body, credentials, { now: signed });
  clock = new Date(signed.getTime() + 16 * 60_000);
  expect((await post(server.port, controllerCa.certificatePem, body, t)).status).toBe(403);
  expectOneDenial(/the signature is 16 minutes old \(at most 15\)/);
  logs.length = 0;
  const fresh = bootstrapBody(instance.privateDnsName).body;
  clock = new Date(signed.getTime() + 14 * 60_000);
  expect((await post(server.port, controllerCa.certificatePem, fresh, token(fresh, credentials, { now: signed }))).status).toBe(200);
});

test('a replayed request is refused', async () => {
  const { instance, credentials } = await node('nodes-a');
  const { body } = bootstrapBody(instance.privateDnsName);
  const t = token(body, credentials);
  expect((await post(server.port, controllerCa.certificatePem, body, t)).status).toBe(200);
  logs.length = 0;
  expect((await post(server.port, controllerCa.certificatePem, body, t)).status).toBe(403);
  expectOneDenial(/already used \(replay\)/);
});

test('a request signed for a foreign STS host is refused and that host is never called', async () => {
  const { instance, credentials } = await node('nodes-a');
  const { body } = bootstrapBody(instance.privateDnsName);
  // Not resolvable here (tests reach only loopback): were the verifier to call it, the log would say so.
  const t = token(body, credentials, { stsEndpoint: 'https://sts.attacker.invalid' });
  expect((await post(server.port, controllerCa.certificatePem, body, t)).status).toBe(403);
  expectOneDenial(/signed for host "sts\.attacker\.invalid", not this cluster's STS endpoint 127\.0\.0\.1:\d+/);
});

test('a token for another body, a malformed body and an oversized body are refused with one log line each', async () => {
  const { instance, credentials } = await node('nodes-a');
  const { body } = bootstrapBody(instance.privateDnsName);
  const other = bootstrapBody(instance.privateDnsName).body;
  expect((await post(server.port, controllerCa.certificatePem, other, token(body, credentials))).status).toBe(403);
  expectOneDenial(/does not sign this request body/);
  const cases: [string | Buffer, number, RegExp][] = [
    ['{"apiVersion":', 400, /denied: the body is not JSON/],
    [JSON.stringify({ apiVersion: 'bootstrap.kops.k8s.io/v1alpha1', nodeName: instance.privateDnsName, certs: { kubelet: 'x' } }), 400, /certs\.kubelet: not a PEM public key/],
    [JSON.stringify({ apiVersion: 'bootstrap.kops.k8s.io/v1alpha1', nodeName: 'Bad Name', certs: {} }), 400, /is not a node name/],
    [Buffer.alloc(MAX_BOOTSTRAP_BODY + 1, 'a'), 413, /denied: the body is \d+ bytes \(at most 16384\)/],
  ];
  for (const [b, status, line] of cases) {
    logs.length = 0;
    const res = await post(server.port, controllerCa.certificatePem, b, token(b.toString(), credentials)).catch(() => ({ status: 413, body: '' }));
    expect(res.status).toBe(status);
    expect(logs).toEqual([expect.stringMatching(line)]);
  }
  logs.length = 0;
  expect((await post(server.port, controllerCa.certificatePem, body)).status).toBe(403);
  expectOneDenial(/no AWS identity token/);
  logs.length = 0;
  expect((await post(server.port, controllerCa.certificatePem, body, `${AWS_TOKEN_PREFIX}not-json`)).status).toBe(400);
});

test('100 concurrent honest requests all get their own certificate', async () => {
  const nodes = await Promise.all(Array.from({ length: 4 }, (_, i) => node(i % 2 ? 'nodes-a' : 'nodes-b')));
  const requests = Array.from({ length: 100 }, (_, i) => {
    const n = nodes[i % nodes.length];
    const { body } = bootstrapBody(n.instance.privateDnsName);
    return { n, body, t: token(body, n.credentials) };
  });
  const answers = await Promise.all(requests.map((r) => post(server.port, controllerCa.certificatePem, r.body, r.t)));
  expect(answers.map((a) => a.status)).toEqual(Array(100).fill(200));
  const certs = answers.map((a) => (JSON.parse(a.body) as { certs: { kubelet: string } }).certs.kubelet);
  expect(opensslVerify(ca.certificatePem, certs)).toMatchObject({ status: 0 });
  certs.forEach((c, i) => expect(opensslSubject(c)).toBe(`subject=CN=system:node:${requests[i].n.instance.privateDnsName},O=system:nodes`));
  expect(logs).toHaveLength(100);
});

test("the token's SigV4 signature is the one the AWS SDK's signer computes", async () => {
  const credentials = { accessKeyId: 'ASIAEXAMPLE', secretAccessKey: 'secret', sessionToken: 'session' };
  const now = new Date('2026-11-26T12:00:00Z');
  const body = '{"x":1}';
  const ours = JSON.parse(Buffer.from(createAwsIdentityToken(body, { region: REGION, stsEndpoint: 'https://sts.us-east-1.amazonaws.com', credentials, now }).slice(AWS_TOKEN_PREFIX.length), 'base64').toString()) as Record<string, string[]>;
  class Sha256 {
    private readonly h;
    constructor(secret?: string | ArrayBuffer | ArrayBufferView) {
      this.h = secret ? createHmac('sha256', Buffer.from(secret as Buffer)) : createHash('sha256');
    }
    update(d: string | ArrayBuffer | ArrayBufferView): void {
      this.h.update(typeof d === 'string' ? d : Buffer.from(d as Buffer));
    }
    digest(): Promise<Uint8Array> {
      return Promise.resolve(new Uint8Array(this.h.digest()));
    }
  }
  const signer = new SignatureV4({ service: 'sts', region: REGION, credentials, sha256: Sha256, applyChecksum: false });
  const headers = Object.fromEntries(Object.entries(ours).filter(([k]) => !['Authorization', 'X-Amz-Date', 'X-Amz-Security-Token'].includes(k)).map(([k, v]) => [k, v[0]]));
  const signed = await signer.sign({ method: 'POST', protocol: 'https:', hostname: 'sts.us-east-1.amazonaws.com', path: '/', query: {}, headers, body: STS_GET_CALLER_IDENTITY_BODY }, { signingDate: now });
  expect(ours.Authorization[0]).toBe(signed.headers.authorization);
});
