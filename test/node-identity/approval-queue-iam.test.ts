import { generateKeyPairSync } from 'node:crypto';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { CreateRoleCommand, IAMClient, PutRolePolicyCommand } from '@aws-sdk/client-iam';
import { AssumeRoleCommand, STSClient } from '@aws-sdk/client-sts';
import { newCluster } from '../../src/create/new-cluster';
import { buildIamPolicies } from '../../src/model/aws/iam-model-builder';
import { nodeKeyFingerprint, NodeRequestRecord, nodeRequestKey, serializeNodeRequest } from '../../src/node-identity/node-request-record';
import { completeCluster } from '../../src/ops/expand-cluster';
import { StatePaths } from '../../src/state/state-paths';
import { S3Vfs } from '../../src/state/vfs/s3-vfs';
import { MotoServer, startMotoServer } from '../helpers/moto-server';

// The approval queue writes with the control plane's role, against moto with IAM ENFORCED: a role holding
// the control plane's real inline policy (buildIamPolicies) of a cluster in Approval mode may create a
// request record under <cluster>/node-requests/ and nothing else of the store (AccessDenied for the
// cluster's config); the same role in Automatic mode has no such write at all. The queue also lists the
// prefix and reads records, which the control plane's policy grants in every mode (kforgeControlPlaneListState,
// kforgeControlPlaneReadState); moto refused the signature of those ListObjectsV2 calls under enforced IAM
// here (SignatureDoesNotMatch), so the queue's create-only write is made directly.

const BUCKET = 'kforge-approval-iam';
const NAME = 'queue.example.com';

let moto: MotoServer;
const creds: Record<string, NodeJS.ProcessEnv> = {};

beforeAll(async () => {
  // Setup requests: the bucket, then per mode a role, its policy and AssumeRole (7 in all); every later one is checked.
  moto = await startMotoServer({ env: { INITIAL_NO_AUTH_ACTION_COUNT: '7' } });
  const client = { region: 'us-east-1', endpoint: moto.endpoint, credentials: { accessKeyId: 'test', secretAccessKey: 'test' } };
  const s3 = new S3Client({ ...client, forcePathStyle: true });
  const iam = new IAMClient(client);
  const sts = new STSClient(client);
  try {
    await s3.send(new CreateBucketCommand({ Bucket: BUCKET }));
    for (const mode of ['Approval', 'Automatic'] as const) {
      const { cluster, instanceGroups } = newCluster({ name: NAME, zones: ['us-east-1a'] });
      cluster.spec.nodeIdentity = { mode };
      const completed = completeCluster(cluster, instanceGroups, `s3://${BUCKET}/team`);
      const policy = buildIamPolicies(completed, instanceGroups).controlPlane;
      const roleName = `masters-${mode}`;
      const trust = { Version: '2012-10-17', Statement: [{ Effect: 'Allow', Principal: { Service: 'ec2.amazonaws.com' }, Action: 'sts:AssumeRole' }] };
      const role = await iam.send(new CreateRoleCommand({ RoleName: roleName, AssumeRolePolicyDocument: JSON.stringify(trust) }));
      await iam.send(new PutRolePolicyCommand({ RoleName: roleName, PolicyName: roleName, PolicyDocument: JSON.stringify(policy) }));
      const c = (await sts.send(new AssumeRoleCommand({ RoleArn: role.Role?.Arn, RoleSessionName: 'i-0123456789abcdef0' }))).Credentials;
      creds[mode] = { ...moto.env, AWS_ACCESS_KEY_ID: c?.AccessKeyId, AWS_SECRET_ACCESS_KEY: c?.SecretAccessKey, AWS_SESSION_TOKEN: c?.SessionToken };
    }
  } finally {
    s3.destroy();
    iam.destroy();
    sts.destroy();
  }
}, 120_000);

afterAll(async () => {
  await moto?.stop();
});

/** Runs fn with the role's credentials in process.env (the SDK's credential chain reads process.env, not S3Vfs's env), then restores it. */
async function asRole<T>(mode: string, fn: (vfs: S3Vfs) => Promise<T>): Promise<T> {
  const vars = creds[mode];
  const saved: Record<string, string | undefined> = {};
  for (const k of Object.keys(vars)) saved[k] = process.env[k];
  Object.assign(process.env, vars);
  try {
    return await fn(new S3Vfs(`s3://${BUCKET}/team`, vars));
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}

function record(name: string): NodeRequestRecord {
  const key = generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).publicKey;
  const nodeName = name.slice(0, -17);
  return { apiVersion: 'kforge.dev/v1alpha1', kind: 'NodeRequest', name, nodeName, status: 'Pending', fingerprints: { kubelet: nodeKeyFingerprint(key) }, publicKeys: { kubelet: key.export({ type: 'spki', format: 'pem' }).toString() }, source: '10.0.0.9', created: new Date().toISOString() };
}

test("the control plane's role in Approval mode records a pending request, and may write nothing else of the store", async () => {
  await asRole('Approval', async (vfs) => {
    // The queue's write: create-only (If-None-Match), JSON, public keys only.
    const key = nodeRequestKey(NAME, 'metal-1.example.com-0123456789abcdef');
    await vfs.write(key, serializeNodeRequest(record('metal-1.example.com-0123456789abcdef')), { ifNotExists: true });
    expect((await vfs.read(key))?.data.toString()).toContain('"status": "Pending"');
    await expect(vfs.write(StatePaths.config(NAME), 'not a cluster')).rejects.toMatchObject({ code: 'STATE_STORE', message: expect.stringContaining('AccessDenied') as unknown });
  });
});

test("the control plane's role in Automatic mode cannot record requests", async () => {
  await asRole('Automatic', async (vfs) => {
    const key = nodeRequestKey(NAME, 'metal-2.example.com-0123456789abcdef');
    await expect(vfs.write(key, serializeNodeRequest(record('metal-2.example.com-0123456789abcdef')), { ifNotExists: true })).rejects.toMatchObject({ code: 'STATE_STORE', message: expect.stringContaining('AccessDenied') as unknown });
  });
});
