import * as fs from 'node:fs';
import { AutoScalingClient, DescribeAutoScalingGroupsCommand } from '@aws-sdk/client-auto-scaling';
import { DescribeInstancesCommand, DescribeLaunchTemplatesCommand, DescribeVpcsCommand, EC2Client, Filter } from '@aws-sdk/client-ec2';
import { IAMClient, ListRolesCommand } from '@aws-sdk/client-iam';
import type { InstanceGroup } from '../../../src/api/types';
import { newCluster } from '../../../src/create/new-cluster';
import { saveCluster } from '../../../src/ops/save-cluster';
import { openVfs } from '../../../src/state/vfs/open-vfs';
import { runCliAsync, tempDir } from '../../helpers/cli';
import { MOTO_WITH_DEFAULT_IMAGE, MotoServer, startMotoServer } from '../../helpers/moto-server';

// delete cluster with more launch templates than one default page (issue 22, item 2). Without MaxResults,
// moto 5.2.1 answers DescribeLaunchTemplates with 15 templates and no NextToken, as an API's default page
// would cut a real list: with 21 instance groups, delete --yes left 6 templates and reported success.

const CREDENTIALS = { accessKeyId: 'test', secretAccessKey: 'test' };
const NAME = 'many.example.com';
const GROUPS = 21;
let moto: MotoServer;
let ec2: EC2Client;
let asg: AutoScalingClient;
let iam: IAMClient;
let store: string;

beforeAll(async () => {
  moto = await startMotoServer({ env: MOTO_WITH_DEFAULT_IMAGE });
  const client = { region: 'us-east-1', endpoint: moto.endpoint, credentials: CREDENTIALS };
  ec2 = new EC2Client(client);
  asg = new AutoScalingClient(client);
  iam = new IAMClient(client);
  store = tempDir('kforge-delete-many-');
});

afterAll(async () => {
  for (const c of [ec2, asg, iam]) c?.destroy();
  await moto?.stop();
  if (store) fs.rmSync(store, { recursive: true, force: true });
});

const tagged: Filter[] = [{ Name: 'tag:KubernetesCluster', Values: [NAME] }];
// Asked for with the largest page, so that this count is not cut the way the lister's was.
const templates = async (): Promise<string[]> =>
  ((await ec2.send(new DescribeLaunchTemplatesCommand({ Filters: tagged, MaxResults: 200 }))).LaunchTemplates ?? []).map((t) => t.LaunchTemplateName ?? '').sort();

it(`delete --yes of a cluster with ${GROUPS} instance groups leaves no launch template, group, instance, role or VPC`, async () => {
  const planned = newCluster({ name: NAME, zones: ['us-east-1a'], cloud: 'aws' });
  const nodes = planned.instanceGroups.find((ig) => ig.spec.role === 'Node') as InstanceGroup;
  // Empty groups: the launch templates and Auto Scaling groups are what this test is about, not instances.
  nodes.spec.minSize = 0;
  nodes.spec.maxSize = 0;
  for (let i = planned.instanceGroups.length; i < GROUPS; i++) {
    const ig: InstanceGroup = JSON.parse(JSON.stringify(nodes));
    ig.metadata.name = `nodes-${String(i).padStart(2, '0')}`;
    planned.instanceGroups.push(ig);
  }
  expect(planned.instanceGroups).toHaveLength(GROUPS);
  await saveCluster(openVfs(store), planned);
  const env = { ...moto.env, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true', CI: 'true' };

  const up = await runCliAsync(['update', 'cluster', NAME, '--yes', '--state', store], env);
  expect(up.stderr).not.toMatch(/Error/);
  expect(up.status).toBe(0);
  expect(await templates()).toHaveLength(GROUPS);

  const del = await runCliAsync(['delete', 'cluster', NAME, '--yes', '--state', store], env);
  expect(del.stderr).not.toMatch(/Error/);
  expect(del.status).toBe(0);
  expect(await templates()).toEqual([]);
  const groups = (await asg.send(new DescribeAutoScalingGroupsCommand({ Filters: [{ Name: 'tag:KubernetesCluster', Values: [NAME] }], MaxRecords: 100 }))).AutoScalingGroups ?? [];
  expect(groups.map((g) => g.AutoScalingGroupName)).toEqual([]);
  const live = (await ec2.send(new DescribeInstancesCommand({ Filters: [...tagged, { Name: 'instance-state-name', Values: ['pending', 'running', 'stopping', 'stopped'] }] }))).Reservations ?? [];
  expect(live.flatMap((r) => r.Instances ?? []).map((i) => i.InstanceId)).toEqual([]);
  expect(((await iam.send(new ListRolesCommand({ MaxItems: 1000 }))).Roles ?? []).map((r) => r.RoleName).filter((r) => r?.endsWith(NAME))).toEqual([]);
  expect((await ec2.send(new DescribeVpcsCommand({ Filters: tagged }))).Vpcs).toEqual([]);
  expect(fs.existsSync(`${store}/${NAME}`)).toBe(false);
});
