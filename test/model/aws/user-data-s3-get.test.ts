import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CreateBucketCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { CreateRoleCommand, IAMClient, PutRolePolicyCommand } from '@aws-sdk/client-iam';
import { AssumeRoleCommand, STSClient } from '@aws-sdk/client-sts';
import { newCluster } from '../../../src/create/new-cluster';
import { buildIamPolicies } from '../../../src/model/aws/iam-model-builder';
import { renderUserData } from '../../../src/model/aws/render-user-data';
import { completeCluster } from '../../../src/ops/expand-cluster';
import { StatePaths } from '../../../src/state/state-paths';
import { tempDir } from '../../helpers/cli';
import { MotoServer, startMotoServer } from '../../helpers/moto-server';
import { FakeImds, startFakeImds } from '../../fakes/fake-imds';
import { sha256 } from '../../e2e/bootstrap-harness';

// user-data's s3-get (templates/nodeup-user-data.sh) against moto with IAM ENFORCED: the credentials come
// from the instance-metadata service (IMDSv2), those of a role holding the node group's real inline
// policy (buildIamPolicies), issued by moto's STS; curl signs the GET with --aws-sigv4 and moto checks the
// signature with botocore's S3 SigV4 and the action against the policy. The node may read the nodeup
// bundle and is refused (403, AccessDenied) a CA's private keyset.

const BUCKET = 'kforge-sigv4';
const NAME = 's3get.example.com';
const GROUP = 'nodes-us-east-1a';
const ROLE = `nodes-${GROUP}`;
const BUNDLE = Buffer.from('#!/opt/kforge/node/bin/node\nconsole.log("nodeup");\n');
const bundleKey = `team/${StatePaths.nodeupArtifact(NAME, sha256(BUNDLE))}`;
const caKey = `team/${StatePaths.privateKeyset(NAME, 'kubernetes-ca')}`;

let moto: MotoServer;
let imds: FakeImds;
let assumed: { accessKeyId: string; secretAccessKey: string; sessionToken: string; expiration: string };
let work: string;
let script: string;

beforeAll(async () => {
  // Setup is the first six requests (bucket, two objects, role, its policy, AssumeRole); every later one needs a valid key.
  moto = await startMotoServer({ env: { INITIAL_NO_AUTH_ACTION_COUNT: '6' } });
  const client = { region: 'us-east-1', endpoint: moto.endpoint, credentials: { accessKeyId: 'test', secretAccessKey: 'test' } };
  const s3 = new S3Client({ ...client, forcePathStyle: true });
  const iam = new IAMClient(client);
  const sts = new STSClient(client);
  try {
    await s3.send(new CreateBucketCommand({ Bucket: BUCKET }));
    await s3.send(new PutObjectCommand({ Bucket: BUCKET, Key: bundleKey, Body: BUNDLE }));
    await s3.send(new PutObjectCommand({ Bucket: BUCKET, Key: caKey, Body: 'a CA private key' }));
    const { cluster, instanceGroups } = newCluster({ name: NAME, zones: ['us-east-1a'] });
    const completed = completeCluster(cluster, instanceGroups, `s3://${BUCKET}/team`);
    const policy = buildIamPolicies(completed, instanceGroups).nodeGroups[GROUP];
    const trust = { Version: '2012-10-17', Statement: [{ Effect: 'Allow', Principal: { Service: 'ec2.amazonaws.com' }, Action: 'sts:AssumeRole' }] };
    const role = await iam.send(new CreateRoleCommand({ RoleName: ROLE, AssumeRolePolicyDocument: JSON.stringify(trust) }));
    await iam.send(new PutRolePolicyCommand({ RoleName: ROLE, PolicyName: ROLE, PolicyDocument: JSON.stringify(policy) }));
    const c = (await sts.send(new AssumeRoleCommand({ RoleArn: role.Role?.Arn, RoleSessionName: 'i-0123456789abcdef0' }))).Credentials;
    assumed = { accessKeyId: c?.AccessKeyId ?? '', secretAccessKey: c?.SecretAccessKey ?? '', sessionToken: c?.SessionToken ?? '', expiration: c?.Expiration?.toISOString() ?? '' };
    imds = await startFakeImds(ROLE, assumed);
    script = renderUserData({ clusterName: NAME, configBase: completed.spec.configBase as string, region: 'us-east-1', instanceGroup: GROUP, role: 'Node', nodeupConfigHash: '0'.repeat(64) });
  } finally {
    s3.destroy();
    iam.destroy();
    sts.destroy();
  }
  work = tempDir('kforge-s3-get-');
});

afterAll(async () => {
  await imds?.stop();
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
  expect(imds.requests).toEqual(expect.arrayContaining(['PUT /latest/api/token', 'GET /latest/meta-data/iam/security-credentials/', `GET /latest/meta-data/iam/security-credentials/${ROLE}`]));
  // Nothing secret on the command line or in the output: the credentials went to curl on its stdin.
  expect(r.out).not.toMatch(/ASIA|AKIA|FQoG/);
});

it("is refused (403 AccessDenied) what the node's policy does not grant: a CA's private keyset", async () => {
  const file = path.join(work, 'ca');
  const r = await download(file, '0'.repeat(64), `s3://${BUCKET}/${caKey}`);
  expect(r.status).toBe(1);
  expect(r.out).toContain('The requested URL returned error: 403');
  expect(r.out).toContain(`== Failed to read s3://${BUCKET}/${caKey} with this instance's role ==`);
  expect(r.out).toContain('== kforge bootstrap FAILED: could not download');
  expect(fs.existsSync(file)).toBe(false);
});

it('is refused (403) when the signature does not match: moto checks what curl signed', async () => {
  const wrong = await startFakeImds(ROLE, { ...assumed, secretAccessKey: `${assumed.secretAccessKey.slice(0, -1)}${assumed.secretAccessKey.endsWith('A') ? 'B' : 'A'}` });
  try {
    const file = path.join(work, 'unsigned');
    const r = await download(file, sha256(BUNDLE), `s3://${BUCKET}/${bundleKey}`, wrong);
    expect([r.status, r.out]).toEqual([1, expect.stringContaining('The requested URL returned error: 403')]);
    expect(fs.existsSync(file)).toBe(false);
  } finally {
    await wrong.stop();
  }
});
