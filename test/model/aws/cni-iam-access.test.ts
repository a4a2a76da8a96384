import { CreateRoleCommand, IAMClient, PutRolePolicyCommand } from '@aws-sdk/client-iam';
import { AssumeRoleCommand, STSClient } from '@aws-sdk/client-sts';
import { CreateNetworkInterfaceCommand, CreateSubnetCommand, CreateVpcCommand, EC2Client, ModifyNetworkInterfaceAttributeCommand } from '@aws-sdk/client-ec2';
import { newCluster } from '../../../src/create/new-cluster';
import { buildIamPolicies } from '../../../src/model/aws/iam-model-builder';
import { completeCluster } from '../../../src/ops/expand-cluster';
import { MotoServer, startMotoServer } from '../../helpers/moto-server';

// The CNIs' grants are least privilege, proven against moto's IAM enforcement: a node role of a calico cluster may
// turn an ENI's source/destination check off (Felix does) and one of an amazonvpc cluster may create ENIs
// (aws-node does); the node role of a cilium cluster with kubernetes IPAM may do neither (AccessDenied).

const GROUP = 'nodes-us-east-1a';
/** Calls moto answers without authentication: the setup below (2 roles x 3 calls, VPC, subnet, ENI). */
const SETUP_CALLS = 3 * 3 + 3;

let moto: MotoServer;
let eni: string;
let subnet: string;
const creds: Record<string, { accessKeyId: string; secretAccessKey: string; sessionToken: string }> = {};

beforeAll(async () => {
  moto = await startMotoServer({ env: { INITIAL_NO_AUTH_ACTION_COUNT: String(SETUP_CALLS) } });
  const client = { region: 'us-east-1', endpoint: moto.endpoint, credentials: { accessKeyId: 'test', secretAccessKey: 'test' } };
  const iam = new IAMClient(client);
  const sts = new STSClient(client);
  const ec2 = new EC2Client(client);
  try {
    const vpc = await ec2.send(new CreateVpcCommand({ CidrBlock: '172.20.0.0/16' }));
    subnet = (await ec2.send(new CreateSubnetCommand({ VpcId: vpc.Vpc?.VpcId, CidrBlock: '172.20.32.0/19' }))).Subnet?.SubnetId as string;
    eni = (await ec2.send(new CreateNetworkInterfaceCommand({ SubnetId: subnet }))).NetworkInterface?.NetworkInterfaceId as string;
    for (const networking of ['calico', 'amazonvpc', 'cilium']) {
      const name = `${networking}.example.com`;
      const { cluster, instanceGroups } = newCluster({ name, zones: ['us-east-1a'], networking, cloud: 'aws' });
      const policy = buildIamPolicies(completeCluster(cluster, instanceGroups, 's3://kforge-cni-iam/team'), instanceGroups).nodeGroups[GROUP];
      const trust = { Version: '2012-10-17', Statement: [{ Effect: 'Allow', Principal: { Service: 'ec2.amazonaws.com' }, Action: 'sts:AssumeRole' }] };
      const role = await iam.send(new CreateRoleCommand({ RoleName: `nodes.${name}`, AssumeRolePolicyDocument: JSON.stringify(trust) }));
      await iam.send(new PutRolePolicyCommand({ RoleName: `nodes.${name}`, PolicyName: `nodes.${name}`, PolicyDocument: JSON.stringify(policy) }));
      const c = (await sts.send(new AssumeRoleCommand({ RoleArn: role.Role?.Arn, RoleSessionName: 'i-0123456789abcdef0' }))).Credentials;
      creds[networking] = { accessKeyId: c?.AccessKeyId ?? '', secretAccessKey: c?.SecretAccessKey ?? '', sessionToken: c?.SessionToken ?? '' };
    }
  } finally {
    iam.destroy();
    sts.destroy();
    ec2.destroy();
  }
});

afterAll(async () => {
  await moto?.stop();
});

/** The error name of a call made with a node role's credentials, or 'ok'. */
async function outcome(networking: string, call: (ec2: EC2Client) => Promise<unknown>): Promise<string> {
  const ec2 = new EC2Client({ region: 'us-east-1', endpoint: moto.endpoint, credentials: creds[networking], maxAttempts: 1 });
  try {
    await call(ec2);
    return 'ok';
  } catch (e) {
    return (e as Error).name;
  } finally {
    ec2.destroy();
  }
}

const modifySrcDst = (ec2: EC2Client) => ec2.send(new ModifyNetworkInterfaceAttributeCommand({ NetworkInterfaceId: eni, SourceDestCheck: { Value: false } }));
const createEni = (ec2: EC2Client) => ec2.send(new CreateNetworkInterfaceCommand({ SubnetId: subnet }));

it('calico\'s node role may switch an ENI\'s source/destination check; cilium\'s may not', async () => {
  expect(await outcome('calico', modifySrcDst)).toBe('ok');
  expect(await outcome('cilium', modifySrcDst)).toMatch(/AccessDenied|UnauthorizedOperation/);
});

it('amazonvpc\'s node role may create ENIs; calico\'s and cilium\'s may not', async () => {
  expect(await outcome('amazonvpc', createEni)).toBe('ok');
  expect(await outcome('calico', createEni)).toMatch(/AccessDenied|UnauthorizedOperation/);
  expect(await outcome('cilium', createEni)).toMatch(/AccessDenied|UnauthorizedOperation/);
});
