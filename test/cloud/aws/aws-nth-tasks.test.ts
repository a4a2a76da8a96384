import { AutoScalingClient, DescribeAutoScalingGroupsCommand, DescribeLifecycleHooksCommand } from '@aws-sdk/client-auto-scaling';
import { KOPS_CONTROLLER_CA_FIXTURE } from '../../helpers/kops-controller-ca-fixture';
import type { Cluster, InstanceGroup } from '../../../src/api/types';
import { AwsCloud } from '../../../src/cloud/aws/aws-cloud';
import { classifyAwsError } from '../../../src/cloud/aws/aws-errors';
import { awsTaskExecutor } from '../../../src/cloud/aws/aws-task-executor';
import { deleteInRounds } from '../../../src/cloud/aws/cluster-resources/delete-in-rounds';
import { listClusterResources } from '../../../src/cloud/aws/cluster-resources/list-cluster-resources';
import { LIFECYCLE_HOOK_RECORD_TAG } from '../../../src/cloud/aws/tasks/auto-scaling-lifecycle-hook-task';
import { newCluster } from '../../../src/create/new-cluster';
import { buildAwsTasks } from '../../../src/model/aws/aws-model-builder';
import { completeCluster } from '../../../src/ops/expand-cluster';
import { applyPlan } from '../../../src/targets/direct-target';
import { renderPlan } from '../../../src/targets/dry-run-target';
import { TEST_CLUSTER_UID } from '../../helpers/cluster-layout';
import { MotoServer, startMotoServer } from '../../helpers/moto-server';

// The node-termination-handler's cloud side against moto 5.2.1, which implements SQS (JSON protocol), EventBridge
// rules, targets and tags, and Auto Scaling lifecycle hooks (it accepts them; it never sends events).
const CREDENTIALS = { accessKeyId: 'test', secretAccessKey: 'test' };
const MOTO_IMAGE = '099720109477/ubuntu/images/hvm-ssd/ubuntu-xenial-16.04-amd64-server-20170721';
const NAME = 'nth.example.com';
const RULES = ['ASGLifecycle', 'InstanceScheduledChange', 'InstanceStateChange', 'SpotInterruption'];
let moto: MotoServer;
let autoScaling: AutoScalingClient;

beforeAll(async () => {
  moto = await startMotoServer();
  autoScaling = new AutoScalingClient({ region: 'us-east-1', endpoint: moto.endpoint, credentials: CREDENTIALS });
});

afterAll(async () => {
  autoScaling?.destroy();
  await moto?.stop();
});

function spec(edit: (c: Cluster) => void = () => {}): { cluster: Cluster; instanceGroups: InstanceGroup[] } {
  const { cluster, instanceGroups } = newCluster({ name: NAME, zones: ['us-east-1a', 'us-east-1b'], dns: 'none' });
  for (const ig of instanceGroups) ig.spec.image = MOTO_IMAGE;
  edit(cluster);
  return { cluster: completeCluster(cluster, instanceGroups, 's3://kforge-state/team'), instanceGroups };
}

const cloudOf = () => new AwsCloud({ clusterName: NAME, region: 'us-east-1', env: { AWS_ENDPOINT_URL: moto.endpoint }, credentials: CREDENTIALS, maxAttempts: 2, clusterUid: TEST_CLUSTER_UID });

async function update(s: { cluster: Cluster; instanceGroups: InstanceGroup[] }, apply: boolean): Promise<{ cloud: AwsCloud; text: string; hasChanges: boolean }> {
  const cloud = cloudOf();
  const hashes = Object.fromEntries(s.instanceGroups.map((ig) => [ig.metadata.name, '0'.repeat(64)]));
  const executor = awsTaskExecutor(cloud, buildAwsTasks(s.cluster, s.instanceGroups, { kopsControllerCa: KOPS_CONTROLLER_CA_FIXTURE, nodeupConfigHashes: hashes }), { backoffMs: 20 });
  const plan = await executor.plan();
  if (apply) await applyPlan(executor, plan);
  return { cloud, text: renderPlan(plan), hasChanges: plan.hasChanges };
}

describe('node-termination-handler: queue, rules, targets, lifecycle hooks (moto)', () => {
  const s = spec();

  it('update --yes creates the queue with kops’s policy, the four rules with the queue as target, and a hook on every group', async () => {
    const first = await update(s, true);
    for (const key of ['SQSQueue/nth-example-com-nth', ...RULES.flatMap((r) => [`EventBridgeRule/${NAME}-${r}`, `EventBridgeTarget/${NAME}-${r}-Target`])]) expect(first.text).toContain(`+ create ${key}\n`);

    const check = cloudOf();
    const queue = await check.inventory.nth.queue('nth-example-com-nth');
    expect(queue?.attributes.MessageRetentionPeriod).toBe('300');
    const arn = 'arn:aws:sqs:us-east-1:123456789012:nth-example-com-nth';
    expect(queue?.attributes.QueueArn).toBe(arn);
    expect(JSON.parse(queue?.attributes.Policy ?? '{}')).toEqual({
      Version: '2012-10-17',
      Statement: [{ Effect: 'Allow', Principal: { Service: ['events.amazonaws.com', 'sqs.amazonaws.com'] }, Action: 'sqs:SendMessage', Resource: arn }],
    });
    expect(queue?.tags).toMatchObject({ KubernetesCluster: NAME, [`kubernetes.io/cluster/${NAME}`]: 'owned', Name: 'nth-example-com-nth' });

    const rules = await check.inventory.nth.rules(`${NAME}-`);
    expect(rules.map((r) => r.name).sort()).toEqual(RULES.map((r) => `${NAME}-${r}`));
    for (const r of rules) {
      expect(r.state).toBe('ENABLED');
      expect(r.targets).toEqual([{ Id: '1', Arn: arn }]);
      expect(r.tags).toMatchObject({ KubernetesCluster: NAME, Name: r.name });
    }
    expect(JSON.parse(rules.find((r) => r.name.endsWith('-ASGLifecycle'))?.eventPattern ?? '{}')).toEqual({ source: ['aws.autoscaling'], 'detail-type': ['EC2 Instance-terminate Lifecycle Action'] });

    const groups = (await autoScaling.send(new DescribeAutoScalingGroupsCommand({ Filters: [{ Name: 'tag:KubernetesCluster', Values: [NAME] }] }))).AutoScalingGroups ?? [];
    expect(groups.length).toBe(s.instanceGroups.length);
    for (const g of groups) {
      const ig = (g.AutoScalingGroupName as string).replace(`.${NAME}`, '');
      const hooks = (await autoScaling.send(new DescribeLifecycleHooksCommand({ AutoScalingGroupName: g.AutoScalingGroupName }))).LifecycleHooks ?? [];
      expect(hooks.map((h) => ({ name: h.LifecycleHookName, transition: h.LifecycleTransition, result: h.DefaultResult, heartbeat: h.HeartbeatTimeout }))).toEqual([
        { name: `${ig}-NTHLifecycleHook`, transition: 'autoscaling:EC2_INSTANCE_TERMINATING', result: 'CONTINUE', heartbeat: 300 },
      ]);
      const tags = Object.fromEntries((g.Tags ?? []).map((t) => [t.Key, t]));
      expect(tags['aws-node-termination-handler/managed']).toMatchObject({ Value: '', PropagateAtLaunch: true });
      expect(tags[LIFECYCLE_HOOK_RECORD_TAG]).toMatchObject({ PropagateAtLaunch: false });
    }
  });

  it('a second update says No changes and makes no mutating call, and no DescribeLifecycleHooks', async () => {
    const again = await update(s, false);
    expect(again.text.split('\n').filter((l) => /^[+~-] /.test(l))).toEqual([]);
    expect(again.hasChanges).toBe(false);
    expect(again.cloud.calls.mutating).toBe(0);
    expect(again.cloud.calls.snapshot().DescribeLifecycleHooks).toBeUndefined();
  });

  it('a hook deleted by hand is not seen while the group records it; once the record is gone it is made again', async () => {
    const { DeleteLifecycleHookCommand, DeleteTagsCommand } = await import('@aws-sdk/client-auto-scaling');
    const group = `nodes-us-east-1a.${NAME}`;
    await autoScaling.send(new DeleteLifecycleHookCommand({ AutoScalingGroupName: group, LifecycleHookName: 'nodes-us-east-1a-NTHLifecycleHook' }));
    // The documented limit of the record: the plan trusts it.
    expect((await update(s, false)).hasChanges).toBe(false);
    await autoScaling.send(new DeleteTagsCommand({ Tags: [{ ResourceId: group, ResourceType: 'auto-scaling-group', Key: LIFECYCLE_HOOK_RECORD_TAG }] }));
    const mend = await update(s, true);
    expect(mend.text).toContain('~ update AutoScalingLifecycleHook/nodes-us-east-1a-NTHLifecycleHook');
    expect(mend.cloud.calls.snapshot()).toMatchObject({ DescribeLifecycleHooks: 1, PutLifecycleHook: 1 });
    const hooks = (await autoScaling.send(new DescribeLifecycleHooksCommand({ AutoScalingGroupName: group }))).LifecycleHooks ?? [];
    expect(hooks.map((h) => h.LifecycleHookName)).toEqual(['nodes-us-east-1a-NTHLifecycleHook']);
    expect((await update(s, false)).hasChanges).toBe(false);
  });

  it('enableRebalanceDraining adds kops’s RebalanceRecommendation rule and its target', async () => {
    const r = await update(spec((c) => (c.spec.nodeTerminationHandler = { enableRebalanceDraining: true })), true);
    expect(r.text).toContain(`+ create EventBridgeRule/${NAME}-RebalanceRecommendation\n`);
    expect(r.text).toContain(`+ create EventBridgeTarget/${NAME}-RebalanceRecommendation-Target\n`);
    expect((await cloudOf().inventory.nth.rules(`${NAME}-`)).length).toBe(5);
  });

  it('delete lists the queue and the rules, and --yes leaves none', async () => {
    const cloud = cloudOf();
    const resources = await listClusterResources(cloud);
    expect(resources.filter((r) => r.type === 'sqs-queue').map((r) => r.name)).toEqual(['nth-example-com-nth']);
    expect(resources.filter((r) => r.type === 'eventbridge-rule').map((r) => r.name)).toEqual([...RULES, 'RebalanceRecommendation'].map((x) => `${NAME}-${x}`).sort());
    await deleteInRounds(resources, { sleep: () => Promise.resolve() });
    const after = cloudOf();
    expect(await after.inventory.nth.queue('nth-example-com-nth')).toBeUndefined();
    expect(await after.inventory.nth.rules(`${NAME}-`)).toEqual([]);
    // A queue that is gone answers QueueDoesNotExist, which kforge classifies as not-found.
    await expect(after.sqs().send({ operation: 'GetQueueUrl', input: { QueueName: 'nth-example-com-nth' } }).catch((e: unknown) => classifyAwsError(e))).resolves.toBe('not-found');
  });

  it('leaves an untagged queue of the cluster’s queue name alone, and refuses to adopt it (NOT_OWNED)', async () => {
    const cloud = cloudOf();
    await cloud.sqs().send({ operation: 'CreateQueue', input: { QueueName: 'nth-example-com-nth' } });
    expect((await listClusterResources(cloud)).filter((r) => r.type === 'sqs-queue')).toEqual([]);
    await expect(update(s, false)).rejects.toMatchObject({ code: 'TASK_FAILED', cause: { code: 'NOT_OWNED' } });
  });
});
