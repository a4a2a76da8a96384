import { EC2Client } from '@aws-sdk/client-ec2';
import { CreateAccessKeyCommand, CreateRoleCommand, CreateUserCommand, IAMClient, PutUserPolicyCommand } from '@aws-sdk/client-iam';
import { STSClient } from '@aws-sdk/client-sts';
import { AwsCloud } from '../../src/cloud/aws/aws-cloud';
import { nodeGroupIamName } from '../../src/model/aws/iam-names';
import { AWS_TOKEN_PREFIX, createAwsIdentityToken, requestSha } from '../../src/node-identity/aws-identity-token';
import { AwsIdentityVerifier } from '../../src/node-identity/aws-identity-verifier';
import { describeInstanceFacts } from '../../src/node-identity/describe-instance-facts';
import { IdentityDenied } from '../../src/node-identity/identity-denied';
import { MOTO_WITH_DEFAULT_IMAGE, MotoServer, startMotoServer } from '../helpers/moto-server';
import { bootstrapBody, instanceRoleCredentials, launchInstance, MOTO_ACCOUNT } from './node-identity-helpers';

// moto checks SigV4 signatures only while it enforces IAM (INITIAL_NO_AUTH_ACTION_COUNT): here STS itself
// decides whether a token's signature holds, so a forged or altered token is refused by STS, not by us.

const CLUSTER = 'sig.example.com';
const GROUP = 'nodes-a';
jest.setTimeout(120_000);

let moto: MotoServer;
let verifier: AwsIdentityVerifier;
let node: { instance: { id: string; privateDnsName: string }; credentials: { accessKeyId: string; secretAccessKey: string; sessionToken?: string } };

beforeAll(async () => {
  // Four unauthenticated calls make an administrator; every later call is checked (and signed calls verified).
  moto = await startMotoServer({ env: { ...MOTO_WITH_DEFAULT_IMAGE, INITIAL_NO_AUTH_ACTION_COUNT: '4' } });
  const bootstrap = { endpoint: moto.endpoint, region: 'us-east-1', credentials: { accessKeyId: 'test', secretAccessKey: 'test' } };
  const iam = new IAMClient(bootstrap);
  const step = async <T>(what: string, p: Promise<T>): Promise<T> => p.catch((e: unknown) => { throw new Error(`${what}: ${String(e)}`); });
  // The test stands in for EC2, which assumes an instance's role for it: the trust policy lets the test's
  // user assume it (with ec2.amazonaws.com as the only principal moto 5.2.1 fails the AssumeRole with a 500).
  const trust = JSON.stringify({ Version: '2012-10-17', Statement: [{ Effect: 'Allow', Principal: { AWS: `arn:aws:iam::${MOTO_ACCOUNT}:user/admin` }, Action: 'sts:AssumeRole' }] });
  const roleArn = (await step('role', iam.send(new CreateRoleCommand({ RoleName: nodeGroupIamName(GROUP, CLUSTER), AssumeRolePolicyDocument: trust })))).Role?.Arn ?? '';
  await step('user', iam.send(new CreateUserCommand({ UserName: 'admin' })));
  await step('policy', iam.send(new PutUserPolicyCommand({ UserName: 'admin', PolicyName: 'all', PolicyDocument: JSON.stringify({ Version: '2012-10-17', Statement: [{ Effect: 'Allow', Action: '*', Resource: '*' }] }) })));
  const key = (await step('key', iam.send(new CreateAccessKeyCommand({ UserName: 'admin' })))).AccessKey;
  const admin = { endpoint: moto.endpoint, region: 'us-east-1', credentials: { accessKeyId: key?.AccessKeyId ?? '', secretAccessKey: key?.SecretAccessKey ?? '' } };
  const instance = await step('run', launchInstance(new EC2Client(admin), CLUSTER, GROUP));
  node = { instance, credentials: await step('assume', instanceRoleCredentials(new STSClient(admin), roleArn, instance.id)) };
  const cloud = new AwsCloud({ clusterName: CLUSTER, region: 'us-east-1', env: moto.env, credentials: admin.credentials });
  verifier = new AwsIdentityVerifier({
    clusterName: CLUSTER,
    region: 'us-east-1',
    stsEndpoint: moto.endpoint,
    accountId: MOTO_ACCOUNT,
    roles: new Map([[nodeGroupIamName(GROUP, CLUSTER), [GROUP]]]),
    describeInstance: (id) => describeInstanceFacts(cloud, id),
  });
});

afterAll(async () => {
  await moto?.stop();
});

const sign = (body: string, secretAccessKey = node.credentials.secretAccessKey) =>
  createAwsIdentityToken(body, { region: 'us-east-1', stsEndpoint: moto.endpoint, credentials: { ...node.credentials, secretAccessKey } });

async function reason(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (e) {
    if (e instanceof IdentityDenied) return `${e.status} ${e.reason}`;
    throw e;
  }
  return 'accepted';
}

test('a token signed with the instance credentials passes STS and names the node', async () => {
  const { body } = bootstrapBody(node.instance.privateDnsName);
  await expect(verifier.verify(sign(body), Buffer.from(body))).resolves.toEqual({ instanceId: node.instance.id, instanceGroup: GROUP, role: nodeGroupIamName(GROUP, CLUSTER), nodeName: node.instance.privateDnsName });
});

test('a token signed with a wrong secret key is refused by STS', async () => {
  const { body } = bootstrapBody(node.instance.privateDnsName);
  expect(await reason(verifier.verify(sign(body, 'not-the-secret'), Buffer.from(body)))).toBe('403 STS refused the signed request (HTTP 403, SignatureDoesNotMatch)');
});

test("a token whose body hash was swapped for another request's is refused by STS (the hash is signed)", async () => {
  const { body } = bootstrapBody(node.instance.privateDnsName);
  const other = bootstrapBody(node.instance.privateDnsName).body;
  const headers = JSON.parse(Buffer.from(sign(body).slice(AWS_TOKEN_PREFIX.length), 'base64').toString()) as Record<string, string[]>;
  headers['X-Kops-Request-Sha'] = [requestSha(other)];
  const altered = AWS_TOKEN_PREFIX + Buffer.from(JSON.stringify(headers)).toString('base64');
  expect(await reason(verifier.verify(altered, Buffer.from(other)))).toBe('403 STS refused the signed request (HTTP 403, SignatureDoesNotMatch)');
});
