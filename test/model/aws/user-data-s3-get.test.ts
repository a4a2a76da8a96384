import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CreateBucketCommand, GetObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { CreateRoleCommand, IAMClient, PutRolePolicyCommand } from '@aws-sdk/client-iam';
import { AssumeRoleCommand, STSClient } from '@aws-sdk/client-sts';
import { newCluster } from '../../../src/create/new-cluster';
import { buildIamPolicies } from '../../../src/model/aws/iam-model-builder';
import { controlPlaneIamName, nodeGroupIamName } from '../../../src/model/aws/iam-names';
import { renderUserData } from '../../../src/model/aws/render-user-data';
import { completeCluster } from '../../../src/ops/expand-cluster';
import { StatePaths } from '../../../src/state/state-paths';
import { tempDir } from '../../helpers/cli';
import { MotoServer, startMotoServer } from '../../helpers/moto-server';
import { FakeImds, RoleCredentials, startFakeImds } from '../../fakes/fake-imds';
import { sha256 } from '../../e2e/bootstrap-harness';

// user-data's s3-get (templates/nodeup-user-data.sh) against moto with IAM ENFORCED: the credentials come
// from the instance-metadata service (IMDSv2), those of a role holding the real inline policy
// (buildIamPolicies), issued by moto's STS; curl signs the GET with --aws-sigv4 and moto checks the
// signature with botocore's S3 SigV4 and the action against the policy. The control plane (which still
// boots from the store) may read the nodeup bundle and the nodes' configs; a worker's role (issue 19 §5:
// workers get everything from the node-identity service) is refused (403, AccessDenied) every key of the
// store, its own nodeup config and the nodeup bundle included, by curl and by the SDK alike.

const BUCKET = 'kforge-sigv4';
const NAME = 's3get.example.com';
const GROUP = 'nodes-us-east-1a';
const CP_ROLE = controlPlaneIamName(NAME);
const NODE_ROLE = nodeGroupIamName(GROUP, NAME);
const BUNDLE = Buffer.from('#!/opt/kforge/node/bin/node\nconsole.log("nodeup");\n');
const CONFIG = Buffer.from('ClusterName: s3get.example.com\n');
const bundleKey = `team/${StatePaths.nodeupArtifact(NAME, sha256(BUNDLE))}`;
const configKey = `team/${StatePaths.nodeupConfig(NAME, 'Node', GROUP)}`;
const caKey = `team/${StatePaths.privateKeyset(NAME, 'kubernetes-ca')}`;
// A cluster without DNS (create cluster's default): its workers reach the service through the API load balancer.
const LOCAL = 's3get.k8s.local';
const LOCAL_ROLE = nodeGroupIamName(GROUP, LOCAL);
const localKeys = [StatePaths.nodeupArtifact(LOCAL, sha256(BUNDLE)), StatePaths.nodeupConfig(LOCAL, 'Node', GROUP), StatePaths.privateKeyset(LOCAL, 'kubernetes-ca')].map((k) => `team/${k}`);

let moto: MotoServer;
let imds: FakeImds;
let nodeImds: FakeImds;
let localImds: FakeImds;
let assumed: RoleCredentials;
let nodeCredentials: RoleCredentials;
let work: string;
let script: string;

beforeAll(async () => {
  // Setup is the first sixteen requests (bucket, six objects, three roles and their policies, three AssumeRoles); every later one needs a valid key.
  moto = await startMotoServer({ env: { INITIAL_NO_AUTH_ACTION_COUNT: '16' } });
  const client = { region: 'us-east-1', endpoint: moto.endpoint, credentials: { accessKeyId: 'test', secretAccessKey: 'test' } };
  const s3 = new S3Client({ ...client, forcePathStyle: true });
  const iam = new IAMClient(client);
  const sts = new STSClient(client);
  try {
    await s3.send(new CreateBucketCommand({ Bucket: BUCKET }));
    await s3.send(new PutObjectCommand({ Bucket: BUCKET, Key: bundleKey, Body: BUNDLE }));
    await s3.send(new PutObjectCommand({ Bucket: BUCKET, Key: configKey, Body: CONFIG }));
    await s3.send(new PutObjectCommand({ Bucket: BUCKET, Key: caKey, Body: 'a CA private key' }));
    for (const key of localKeys) await s3.send(new PutObjectCommand({ Bucket: BUCKET, Key: key, Body: BUNDLE }));
    // With DNS: the workers of such a cluster boot from the node-identity service (src/model/config-server.ts).
    const { cluster, instanceGroups } = newCluster({ name: NAME, zones: ['us-east-1a'], dnsZone: 'example.com' });
    const completed = completeCluster(cluster, instanceGroups, `s3://${BUCKET}/team`);
    const policies = buildIamPolicies(completed, instanceGroups);
    const trust = { Version: '2012-10-17', Statement: [{ Effect: 'Allow', Principal: { Service: 'ec2.amazonaws.com' }, Action: 'sts:AssumeRole' }] };
    const roleWith = async (name: string, policy: object): Promise<string> => {
      const role = await iam.send(new CreateRoleCommand({ RoleName: name, AssumeRolePolicyDocument: JSON.stringify(trust) }));
      await iam.send(new PutRolePolicyCommand({ RoleName: name, PolicyName: name, PolicyDocument: JSON.stringify(policy) }));
      return role.Role?.Arn ?? '';
    };
    const cpArn = await roleWith(CP_ROLE, policies.controlPlane);
    const nodeArn = await roleWith(NODE_ROLE, policies.nodeGroups[GROUP]);
    const assume = async (arn: string): Promise<RoleCredentials> => {
      const c = (await sts.send(new AssumeRoleCommand({ RoleArn: arn, RoleSessionName: 'i-0123456789abcdef0' }))).Credentials;
      return { accessKeyId: c?.AccessKeyId ?? '', secretAccessKey: c?.SecretAccessKey ?? '', sessionToken: c?.SessionToken ?? '', expiration: c?.Expiration?.toISOString() ?? '' };
    };
    assumed = await assume(cpArn);
    nodeCredentials = await assume(nodeArn);
    const local = newCluster({ name: LOCAL, zones: ['us-east-1a'] });
    const localCompleted = completeCluster(local.cluster, local.instanceGroups, `s3://${BUCKET}/team`);
    expect(localCompleted.spec.topology?.dns?.type ?? 'None').toBe('None');
    localImds = await startFakeImds(LOCAL_ROLE, await assume(await roleWith(LOCAL_ROLE, buildIamPolicies(localCompleted, local.instanceGroups).nodeGroups[GROUP])));
    imds = await startFakeImds(CP_ROLE, assumed);
    nodeImds = await startFakeImds(NODE_ROLE, nodeCredentials);
    script = renderUserData({ clusterName: NAME, configBase: completed.spec.configBase as string, region: 'us-east-1', instanceGroup: 'control-plane-us-east-1a', role: 'ControlPlane', nodeupConfigHash: '0'.repeat(64) });
  } finally {
    s3.destroy();
    iam.destroy();
    sts.destroy();
  }
  work = tempDir('kforge-s3-get-');
});

afterAll(async () => {
  await imds?.stop();
  await nodeImds?.stop();
  await localImds?.stop();
  await moto?.stop();
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

/** user-data's functions (everything before its main part), then one download with a single round. */
function download(file: string, hash: string, url: string, metadata: FakeImds = imds): Promise<{ status: number; out: string }> {
  const functions = script.slice(0, script.indexOf('\n####'));
  const text = `${functions}\nROUNDS=1\ndownload ${file} ${hash} ${url}\n`;
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', AWS_EC2_METADATA_SERVICE_ENDPOINT: metadata.endpoint, AWS_ENDPOINT_URL_S3: moto.endpoint };
  const child = spawn('bash', ['-c', text], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ status: code ?? -1, out })));
}

it("names the bundle's s3:// object, and reads it with the role's credentials from IMDSv2 and a GET curl signs", async () => {
  expect(script).toMatch(/^NODEUP_URLS=s3:\/\/kforge-sigv4\/team\/s3get\.example\.com\/assets\/nodeup\/[0-9a-f]{64}\/nodeup$/m);
  const file = path.join(work, 'nodeup');
  const r = await download(file, sha256(BUNDLE), `s3://${BUCKET}/${bundleKey}`);
  expect([r.status, r.out]).toEqual([0, expect.not.stringContaining('Failed')]);
  expect(fs.readFileSync(file)).toEqual(BUNDLE);
  expect(imds.requests).toEqual(expect.arrayContaining(['PUT /latest/api/token', 'GET /latest/meta-data/iam/security-credentials/', `GET /latest/meta-data/iam/security-credentials/${CP_ROLE}`]));
  // Nothing secret on the command line or in the output: the credentials went to curl on its stdin.
  expect(r.out).not.toMatch(/ASIA|AKIA|FQoG/);
});

it("reads a worker group's nodeup config with the control plane's role (the service serves it from there)", async () => {
  const file = path.join(work, 'nodeupconfig.yaml');
  const r = await download(file, sha256(CONFIG), `s3://${BUCKET}/${configKey}`);
  expect([r.status, r.out]).toEqual([0, expect.not.stringContaining('Failed')]);
  expect(fs.readFileSync(file)).toEqual(CONFIG);
});

it("refuses a worker's role (403 AccessDenied) every key of the state store: the bundle, its own nodeup config, a CA's keyset", async () => {
  for (const key of [bundleKey, configKey, caKey]) {
    const file = path.join(work, `node-${path.basename(key)}`);
    const r = await download(file, '0'.repeat(64), `s3://${BUCKET}/${key}`, nodeImds);
    expect(r.status).toBe(1);
    expect(r.out).toContain('The requested URL returned error: 403');
    expect(r.out).toContain(`== Failed to read s3://${BUCKET}/${key} with this instance's role ==`);
    expect(fs.existsSync(file)).toBe(false);
  }
  expect(nodeImds.requests).toContain(`GET /latest/meta-data/iam/security-credentials/${NODE_ROLE}`);
});

it("refuses a worker's role of a cluster without DNS (.k8s.local) every key of its store too: it boots through the API load balancer", async () => {
  for (const key of localKeys) {
    const file = path.join(work, `local-${path.basename(key)}`);
    const r = await download(file, '0'.repeat(64), `s3://${BUCKET}/${key}`, localImds);
    expect(r.status).toBe(1);
    expect(r.out).toContain('The requested URL returned error: 403');
    expect(fs.existsSync(file)).toBe(false);
  }
  expect(localImds.requests).toContain(`GET /latest/meta-data/iam/security-credentials/${LOCAL_ROLE}`);
});

it("refuses a worker's role through the SDK too: GetObject and ListObjectsV2 are AccessDenied, while the control plane's role may", async () => {
  const as = (c: RoleCredentials): S3Client =>
    new S3Client({ region: 'us-east-1', endpoint: moto.endpoint, forcePathStyle: true, credentials: { accessKeyId: c.accessKeyId, secretAccessKey: c.secretAccessKey, sessionToken: c.sessionToken } });
  const node = as(nodeCredentials);
  const cp = as(assumed);
  try {
    await expect(node.send(new GetObjectCommand({ Bucket: BUCKET, Key: configKey }))).rejects.toMatchObject({ name: 'AccessDenied' });
    // Listed at the bucket root: moto's SigV4 check rejects a '/' in a query parameter (Prefix=a/b) as SignatureDoesNotMatch.
    await expect(node.send(new ListObjectsV2Command({ Bucket: BUCKET }))).rejects.toMatchObject({ name: 'AccessDenied' });
    const got = await cp.send(new GetObjectCommand({ Bucket: BUCKET, Key: configKey }));
    expect(Buffer.from(await (got.Body as { transformToByteArray(): Promise<Uint8Array> }).transformToByteArray())).toEqual(CONFIG);
    // The control plane may list only under its cluster's prefix (s3:prefix condition), which moto cannot sign here: not listed.
  } finally {
    node.destroy();
    cp.destroy();
  }
});

it('is refused (403) when the signature does not match: moto checks what curl signed', async () => {
  const wrong = await startFakeImds(CP_ROLE, { ...assumed, secretAccessKey: `${assumed.secretAccessKey.slice(0, -1)}${assumed.secretAccessKey.endsWith('A') ? 'B' : 'A'}` });
  try {
    const file = path.join(work, 'unsigned');
    const r = await download(file, sha256(BUNDLE), `s3://${BUCKET}/${bundleKey}`, wrong);
    expect([r.status, r.out]).toEqual([1, expect.stringContaining('The requested URL returned error: 403')]);
    expect(fs.existsSync(file)).toBe(false);
  } finally {
    await wrong.stop();
  }
});
