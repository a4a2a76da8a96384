import { AutoScalingClient, DescribeAutoScalingGroupsCommand } from '@aws-sdk/client-auto-scaling';
import { KOPS_CONTROLLER_CA_FIXTURE } from '../../helpers/kops-controller-ca-fixture';
import { DescribeListenersCommand, DescribeLoadBalancersCommand, DescribeTargetGroupsCommand, ElasticLoadBalancingV2Client } from '@aws-sdk/client-elastic-load-balancing-v2';
import { DescribeSecurityGroupsCommand, EC2Client, IpPermission } from '@aws-sdk/client-ec2';
import { createHash } from 'node:crypto';
import type { InstanceGroup } from '../../../src/api/types';
import { AwsCloud } from '../../../src/cloud/aws/aws-cloud';
import { awsTaskExecutor } from '../../../src/cloud/aws/aws-task-executor';
import { newCluster } from '../../../src/create/new-cluster';
import { buildAwsTasks } from '../../../src/model/aws/aws-model-builder';
import { completeCluster } from '../../../src/ops/expand-cluster';
import { applyPlan } from '../../../src/targets/direct-target';
import { renderPlan } from '../../../src/targets/dry-run-target';
import { TEST_CLUSTER_UID } from '../../helpers/cluster-layout';
import { MotoServer, startMotoServer } from '../../helpers/moto-server';

// Issue 22 §1: as kops's BastionModelBuilder, SSH reaches the bastion only through a network load balancer
// with a `bastion-elb` group; the bastion's own group takes 22 from that group and from no address.

const CREDENTIALS = { accessKeyId: 'test', secretAccessKey: 'test' };
const MOTO_IMAGE = '099720109477/ubuntu/images/hvm-ssd/ubuntu-xenial-16.04-amd64-server-20170721';
const NAME = 'bastion.example.com';
const SSH_FROM = '203.0.113.0/24';
let moto: MotoServer;

beforeAll(async () => {
  moto = await startMotoServer();
});
afterAll(async () => moto?.stop());

const sources = (p: IpPermission): string[] => [...(p.IpRanges ?? []).map((r) => r.CidrIp ?? ''), ...(p.UserIdGroupPairs ?? []).map((g) => g.GroupId ?? '')];

describe('a bastion behind its load balancer, applied to moto', () => {
  it('has an NLB listening on 22 whose target group the bastion ASG joins, and SSH only through its group', async () => {
    const { cluster, instanceGroups } = newCluster({ name: NAME, zones: ['us-east-1a'], topology: 'private', networking: 'calico', bastion: true, cloud: 'aws', dns: 'none', sshAccess: [SSH_FROM] });
    for (const ig of instanceGroups) ig.spec.image = MOTO_IMAGE;
    const completed = completeCluster(cluster, instanceGroups, 's3://kforge-state/team');
    const hashes = Object.fromEntries(instanceGroups.map((ig: InstanceGroup) => [ig.metadata.name, createHash('sha256').update(ig.metadata.name).digest('hex')]));
    const awsCloud = (): AwsCloud => new AwsCloud({ clusterName: NAME, region: 'us-east-1', env: { AWS_ENDPOINT_URL: moto.endpoint }, credentials: CREDENTIALS, maxAttempts: 2, clusterUid: TEST_CLUSTER_UID });
    const executor = awsTaskExecutor(awsCloud(), buildAwsTasks(completed, instanceGroups, { kopsControllerCa: KOPS_CONTROLLER_CA_FIXTURE, nodeupConfigHashes: hashes }), { backoffMs: 20 });
    await applyPlan(executor, await executor.plan());

    const elb = new ElasticLoadBalancingV2Client({ region: 'us-east-1', endpoint: moto.endpoint, credentials: CREDENTIALS });
    const ec2 = new EC2Client({ region: 'us-east-1', endpoint: moto.endpoint, credentials: CREDENTIALS });
    const asg = new AutoScalingClient({ region: 'us-east-1', endpoint: moto.endpoint, credentials: CREDENTIALS });
    try {
      const lbs = (await elb.send(new DescribeLoadBalancersCommand({}))).LoadBalancers ?? [];
      const bastionLb = lbs.find((l) => l.LoadBalancerName?.startsWith('bastion-'));
      expect(bastionLb?.Type).toBe('network');
      expect(bastionLb?.Scheme).toBe('internet-facing');
      const listeners = (await elb.send(new DescribeListenersCommand({ LoadBalancerArn: bastionLb?.LoadBalancerArn }))).Listeners ?? [];
      expect(listeners.map((l) => [l.Port, l.Protocol])).toEqual([[22, 'TCP']]);
      const tgArn = listeners[0].DefaultActions?.[0].TargetGroupArn;
      const tg = (await elb.send(new DescribeTargetGroupsCommand({ TargetGroupArns: [tgArn as string] }))).TargetGroups?.[0];
      expect(tg?.Port).toBe(22);

      const groups = (await asg.send(new DescribeAutoScalingGroupsCommand({}))).AutoScalingGroups ?? [];
      const bastionAsg = groups.find((g) => g.AutoScalingGroupName === `bastions.${NAME}`);
      expect(bastionAsg?.TargetGroupARNs).toEqual([tgArn]);

      const sgs = (await ec2.send(new DescribeSecurityGroupsCommand({}))).SecurityGroups ?? [];
      const byName = new Map(sgs.map((g) => [g.GroupName, g]));
      const lbGroup = byName.get(`bastion-elb.${NAME}`);
      const bastion = byName.get(`bastion.${NAME}`);
      expect(bastionLb?.SecurityGroups).toEqual([lbGroup?.GroupId]);
      // The bastion: SSH and path-MTU ICMP from the load balancer's group only, never from an address.
      const bastionIn = bastion?.IpPermissions ?? [];
      expect(bastionIn.flatMap((p) => (p.IpRanges ?? []).map((r) => r.CidrIp))).toEqual([]);
      expect(bastionIn.filter((p) => p.FromPort === 22).flatMap(sources)).toEqual([lbGroup?.GroupId]);
      // The load balancer's group: SSH and ICMP type 3 code 4 from sshAccess (and the LB subnets' ranges).
      const lbIn = lbGroup?.IpPermissions ?? [];
      expect(lbIn.filter((p) => p.IpProtocol === 'tcp' && p.FromPort === 22).flatMap(sources)).toContain(SSH_FROM);
      expect(lbIn.filter((p) => p.IpProtocol === 'icmp' && p.FromPort === 3 && p.ToPort === 4).flatMap(sources)).toEqual(expect.arrayContaining([SSH_FROM, bastion?.GroupId]));

      // A second run finds it all as built: nothing to change.
      const again = await awsTaskExecutor(awsCloud(), buildAwsTasks(completed, instanceGroups, { kopsControllerCa: KOPS_CONTROLLER_CA_FIXTURE, nodeupConfigHashes: hashes }), { backoffMs: 20 }).plan();
      expect(again.hasChanges ? renderPlan(again) : '').toBe('');
    } finally {
      elb.destroy();
      ec2.destroy();
      asg.destroy();
    }
  }, 120_000);
});
