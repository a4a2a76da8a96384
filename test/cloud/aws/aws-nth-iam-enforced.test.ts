import { AssumeRoleCommand, STSClient } from '@aws-sdk/client-sts';
import { CreateRoleCommand, IAMClient, PutRolePolicyCommand } from '@aws-sdk/client-iam';
import { AwsJsonClient } from '../../../src/cloud/aws/aws-json-client';
import { classifyAwsError } from '../../../src/cloud/aws/aws-errors';
import { newCluster } from '../../../src/create/new-cluster';
import { buildIamPolicies } from '../../../src/model/aws/iam-model-builder';
import { completeCluster } from '../../../src/ops/expand-cluster';
import { MotoServer, startMotoServer } from '../../helpers/moto-server';

// The control plane's queue permissions (kops's AddNodeTerminationHandlerSQSPermissions) against moto with IAM
// enforced: what NTH does (receive, delete a message) is allowed, anything else on the queue is refused.
const NAME = 'nthiam.example.com';
const QUEUE = 'nthiam-example-com-nth';
let moto: MotoServer;
let asRole: (service: 'sqs') => AwsJsonClient;
let queueUrl: string;

beforeAll(async () => {
  // Setup is the first four requests (the queue, the role, its policy, AssumeRole); every later one is checked.
  moto = await startMotoServer({ env: { INITIAL_NO_AUTH_ACTION_COUNT: '4' } });
  const admin = { region: 'us-east-1', endpoint: moto.endpoint, credentials: { accessKeyId: 'test', secretAccessKey: 'test' } };
  queueUrl = (await new AwsJsonClient({ service: 'sqs', ...admin, maxAttempts: 1 }).send<{ QueueUrl: string }>({ operation: 'CreateQueue', input: { QueueName: QUEUE } })).QueueUrl;
  const iam = new IAMClient(admin);
  const sts = new STSClient(admin);
  try {
    const { cluster, instanceGroups } = newCluster({ name: NAME, zones: ['us-east-1a'] });
    const policy = buildIamPolicies(completeCluster(cluster, instanceGroups, 's3://kforge-state/team'), instanceGroups).controlPlane;
    const trust = { Version: '2012-10-17', Statement: [{ Effect: 'Allow', Principal: { Service: 'ec2.amazonaws.com' }, Action: 'sts:AssumeRole' }] };
    const role = await iam.send(new CreateRoleCommand({ RoleName: `masters.${NAME}`, AssumeRolePolicyDocument: JSON.stringify(trust) }));
    await iam.send(new PutRolePolicyCommand({ RoleName: `masters.${NAME}`, PolicyName: `masters.${NAME}`, PolicyDocument: JSON.stringify(policy) }));
    const c = (await sts.send(new AssumeRoleCommand({ RoleArn: role.Role?.Arn, RoleSessionName: 'i-0123456789abcdef0' }))).Credentials;
    const credentials = { accessKeyId: c?.AccessKeyId ?? '', secretAccessKey: c?.SecretAccessKey ?? '', sessionToken: c?.SessionToken ?? '' };
    asRole = (service) => new AwsJsonClient({ service, region: 'us-east-1', endpoint: moto.endpoint, credentials, maxAttempts: 1 });
  } finally {
    iam.destroy();
    sts.destroy();
  }
});

afterAll(async () => {
  await moto?.stop();
});

const outcome = (p: Promise<unknown>): Promise<string> => p.then(() => 'allowed', (e: unknown) => classifyAwsError(e));

describe('the control plane role and the node-termination-handler queue (moto, IAM enforced)', () => {
  it('may receive and delete messages, as NTH does', async () => {
    expect(await outcome(asRole('sqs').send({ operation: 'ReceiveMessage', input: { QueueUrl: queueUrl, MaxNumberOfMessages: 1 } }))).toBe('allowed');
    expect(await outcome(asRole('sqs').send({ operation: 'DeleteMessage', input: { QueueUrl: queueUrl, ReceiptHandle: 'none' } }))).not.toBe('access-denied');
  });

  it('may not send to the queue, change it or delete it', async () => {
    expect(await outcome(asRole('sqs').send({ operation: 'SendMessage', input: { QueueUrl: queueUrl, MessageBody: 'x' } }))).toBe('access-denied');
    expect(await outcome(asRole('sqs').send({ operation: 'SetQueueAttributes', input: { QueueUrl: queueUrl, Attributes: { MessageRetentionPeriod: '60' } } }))).toBe('access-denied');
    expect(await outcome(asRole('sqs').send({ operation: 'DeleteQueue', input: { QueueUrl: queueUrl } }))).toBe('access-denied');
  });
});
