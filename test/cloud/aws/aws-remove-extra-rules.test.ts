import { AuthorizeSecurityGroupIngressCommand, DescribeSecurityGroupsCommand, EC2Client, IpPermission, SecurityGroup } from '@aws-sdk/client-ec2';
import { KOPS_CONTROLLER_CA_FIXTURE } from '../../helpers/kops-controller-ca-fixture';
import { createHash } from 'node:crypto';
import type { Cluster, InstanceGroup } from '../../../src/api/types';
import { AwsCloud } from '../../../src/cloud/aws/aws-cloud';
import { awsTaskExecutor } from '../../../src/cloud/aws/aws-task-executor';
import { newCluster } from '../../../src/create/new-cluster';
import { buildAwsTasks } from '../../../src/model/aws/aws-model-builder';
import { completeCluster } from '../../../src/ops/expand-cluster';
import { applyPlan } from '../../../src/targets/direct-target';
import { renderPlan } from '../../../src/targets/dry-run-target';
import { TEST_CLUSTER_UID } from '../../helpers/cluster-layout';
import { MotoServer, startMotoServer } from '../../helpers/moto-server';

// Issue 22 §1: an address taken out of sshAccess or kubernetesApiAccess is closed again at the next update
// (kops's RemoveExtraRules); rules kforge does not own (another port, a group source) are left alone.

const CREDENTIALS = { accessKeyId: 'test', secretAccessKey: 'test' };
const MOTO_IMAGE = '099720109477/ubuntu/images/hvm-ssd/ubuntu-xenial-16.04-amd64-server-20170721';
const NAME = 'extra.example.com';
const OLD = '198.51.100.0/24';
const NEW = '203.0.113.0/24';
const USERS = '192.0.2.0/24';
let moto: MotoServer;
let ec2: EC2Client;

beforeAll(async () => {
  moto = await startMotoServer();
  ec2 = new EC2Client({ region: 'us-east-1', endpoint: moto.endpoint, credentials: CREDENTIALS });
});
afterAll(async () => {
  ec2?.destroy();
  await moto?.stop();
});

function objects(sshAccess: string[]): { cluster: Cluster; instanceGroups: InstanceGroup[] } {
  const { cluster, instanceGroups } = newCluster({ name: NAME, zones: ['us-east-1a'], cloud: 'aws', dns: 'none', sshAccess });
  cluster.spec.kubernetesApiAccess = sshAccess;
  for (const ig of instanceGroups) ig.spec.image = MOTO_IMAGE;
  return { cluster: completeCluster(cluster, instanceGroups, 's3://kforge-state/team'), instanceGroups };
}

async function update(sshAccess: string[], apply: boolean): Promise<string> {
  const { cluster, instanceGroups } = objects(sshAccess);
  const hashes = Object.fromEntries(instanceGroups.map((ig) => [ig.metadata.name, createHash('sha256').update(ig.metadata.name).digest('hex')]));
  const cloud = new AwsCloud({ clusterName: NAME, region: 'us-east-1', env: { AWS_ENDPOINT_URL: moto.endpoint }, credentials: CREDENTIALS, maxAttempts: 2, clusterUid: TEST_CLUSTER_UID });
  const executor = awsTaskExecutor(cloud, buildAwsTasks(cluster, instanceGroups, { kopsControllerCa: KOPS_CONTROLLER_CA_FIXTURE, nodeupConfigHashes: hashes }), { backoffMs: 20 });
  const plan = await executor.plan();
  if (apply) await applyPlan(executor, plan);
  return plan.hasChanges ? renderPlan(plan) : '';
}

async function groups(): Promise<Map<string, SecurityGroup>> {
  const all = (await ec2.send(new DescribeSecurityGroupsCommand({}))).SecurityGroups ?? [];
  return new Map(all.map((g) => [g.GroupName ?? '', g]));
}
const cidrsOn = (g: SecurityGroup | undefined, port: number): string[] =>
  (g?.IpPermissions ?? []).filter((p: IpPermission) => p.IpProtocol === 'tcp' && p.FromPort === port).flatMap((p) => (p.IpRanges ?? []).map((r) => r.CidrIp ?? '')).sort();

describe('address rules the model no longer has', () => {
  it('are listed by the plan and revoked by the update; rules kforge does not own stay', async () => {
    await update([OLD], true);
    let sgs = await groups();
    const nodes = sgs.get(`nodes.${NAME}`) as SecurityGroup;
    // A user's own rules: another port, and port 22 from a group.
    await ec2.send(new AuthorizeSecurityGroupIngressCommand({ GroupId: nodes.GroupId, IpPermissions: [{ IpProtocol: 'tcp', FromPort: 8080, ToPort: 8080, IpRanges: [{ CidrIp: USERS }] }] }));
    await ec2.send(new AuthorizeSecurityGroupIngressCommand({ GroupId: nodes.GroupId, IpPermissions: [{ IpProtocol: 'tcp', FromPort: 22, ToPort: 22, UserIdGroupPairs: [{ GroupId: nodes.GroupId }] }] }));
    expect(cidrsOn(nodes, 22)).toEqual([OLD]);

    const plan = await update([NEW], false);
    expect(plan).toContain(`ingress tcp 22 from ${OLD}`);
    expect(plan).toContain(`ingress tcp 443 from ${OLD}`);
    await update([NEW], true);

    sgs = await groups();
    expect(cidrsOn(sgs.get(`nodes.${NAME}`), 22)).toEqual([NEW]);
    expect(cidrsOn(sgs.get(`api-elb.${NAME}`), 443)).toEqual([NEW]);
    expect(cidrsOn(sgs.get(`nodes.${NAME}`), 8080)).toEqual([USERS]);
    const fromGroup = (sgs.get(`nodes.${NAME}`)?.IpPermissions ?? []).filter((p) => p.FromPort === 22).flatMap((p) => (p.UserIdGroupPairs ?? []).map((g) => g.GroupId));
    expect(fromGroup).toContain(nodes.GroupId);
    // Then nothing is left to do.
    expect(await update([NEW], false)).toBe('');
  }, 120_000);
});
