import * as fs from 'node:fs';
import { AutoScalingClient, DescribeAutoScalingGroupsCommand } from '@aws-sdk/client-auto-scaling';
import { DescribeInstancesCommand, DescribeLaunchTemplatesCommand, EC2Client } from '@aws-sdk/client-ec2';
import { IAMClient, ListRolesCommand } from '@aws-sdk/client-iam';
import type { InstanceGroup } from '../../../src/api/types';
import { newCluster } from '../../../src/create/new-cluster';
import { saveCluster } from '../../../src/ops/save-cluster';
import { openVfs } from '../../../src/state/vfs/open-vfs';
import { runCliAsync, tempDir } from '../../helpers/cli';
import { AWS_NO_CREDENTIALS, MOTO_WITH_DEFAULT_IMAGE, MotoServer, startMotoServer } from '../../helpers/moto-server';

// delete instancegroup --yes (issue 22, item 9): as kops, the group's cloud resources go at once, not at
// the next update --yes, and the command says what it deleted.

const CREDENTIALS = { accessKeyId: 'test', secretAccessKey: 'test' };
let moto: MotoServer;
let ec2: EC2Client;
let asg: AutoScalingClient;
let iam: IAMClient;
let store: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  moto = await startMotoServer({ env: MOTO_WITH_DEFAULT_IMAGE });
  const client = { region: 'us-east-1', endpoint: moto.endpoint, credentials: CREDENTIALS };
  ec2 = new EC2Client(client);
  asg = new AutoScalingClient(client);
  iam = new IAMClient(client);
  store = tempDir('kforge-delete-ig-');
  env = { ...moto.env, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true', CI: 'true' };
});

afterAll(async () => {
  for (const c of [ec2, asg, iam]) c?.destroy();
  await moto?.stop();
  if (store) fs.rmSync(store, { recursive: true, force: true });
});

async function save(name: string): Promise<void> {
  const planned = newCluster({ name, zones: ['us-east-1a'], cloud: 'aws' });
  const nodes = planned.instanceGroups.find((ig) => ig.spec.role === 'Node') as InstanceGroup;
  const extra: InstanceGroup = JSON.parse(JSON.stringify(nodes));
  extra.metadata.name = 'extra';
  planned.instanceGroups.push(extra);
  await saveCluster(openVfs(store), planned);
}

const asgNames = async (): Promise<string[]> => ((await asg.send(new DescribeAutoScalingGroupsCommand({ MaxRecords: 100 }))).AutoScalingGroups ?? []).map((g) => g.AutoScalingGroupName ?? '').sort();
const templateNames = async (): Promise<string[]> => ((await ec2.send(new DescribeLaunchTemplatesCommand({ MaxResults: 200 }))).LaunchTemplates ?? []).map((t) => t.LaunchTemplateName ?? '').sort();
const roleNames = async (): Promise<string[]> => ((await iam.send(new ListRolesCommand({ MaxItems: 1000 }))).Roles ?? []).map((r) => r.RoleName ?? '').sort();

it('delete ig --yes deletes the group’s Auto Scaling group, instances, launch template and own role at once, names them, and leaves the other groups', async () => {
  const name = 'dig.example.com';
  await save(name);
  const up = await runCliAsync(['update', 'cluster', name, '--yes', '--state', store], env);
  expect(up.stderr).not.toMatch(/Error/);
  expect(up.status).toBe(0);
  expect(await asgNames()).toContain(`extra.${name}`);
  expect(await roleNames()).toContain(`nodes-extra.${name}`);

  const plan = await runCliAsync(['delete', 'instancegroup', 'extra', '--name', name, '--state', store], env);
  expect(plan.status).toBe(0);
  expect(await asgNames()).toContain(`extra.${name}`);

  const del = await runCliAsync(['delete', 'instancegroup', 'extra', '--name', name, '--yes', '--state', store], env);
  expect(del.stderr).not.toMatch(/Error/);
  expect(del.status).toBe(0);
  expect(del.stdout).toBe(
    [
      `Deleted autoscaling-group extra.${name}`,
      `Deleted iam-instance-profile nodes-extra.${name}`,
      `Deleted iam-role nodes-extra.${name}`,
      `Deleted launch-template extra.${name}`,
      `InstanceGroup "extra" deleted from cluster "${name}"`,
      '',
    ].join('\n'),
  );
  expect(await asgNames()).toEqual([`control-plane-us-east-1a.${name}`, `nodes-us-east-1a.${name}`]);
  expect(await templateNames()).toEqual([`control-plane-us-east-1a.${name}`, `nodes-us-east-1a.${name}`]);
  expect(await roleNames()).not.toContain(`nodes-extra.${name}`);
  expect(await roleNames()).toContain(`nodes-nodes-us-east-1a.${name}`);
  const live = (await ec2.send(new DescribeInstancesCommand({ Filters: [{ Name: 'tag:kops.k8s.io/instancegroup', Values: ['extra'] }, { Name: 'instance-state-name', Values: ['pending', 'running'] }] }))).Reservations ?? [];
  expect(live.flatMap((r) => r.Instances ?? [])).toEqual([]);
  expect(fs.existsSync(`${store}/${name}/instancegroup/extra`)).toBe(false);
  // No cloud resource is left for the next update to prune; only the group's nodeup config, a state-store file update manages.
  const again = await runCliAsync(['update', 'cluster', name, '--state', store], env);
  expect(again.status).toBe(0);
  expect(again.stdout).toMatch(/^Will delete resources:\n {2}ManagedFile\n {4}dig\.example\.com\/igconfig\/node\/extra\/nodeupconfig\.yaml\n\n0 to create, 0 to modify, 1 to delete/m);
});

it('a cluster never applied needs no cloud: delete ig --yes works without AWS credentials and deletes only the spec', async () => {
  const name = 'spec-only.example.com';
  await save(name);
  const del = await runCliAsync(['delete', 'instancegroup', 'extra', '--name', name, '--yes', '--state', store], { ...env, ...AWS_NO_CREDENTIALS });
  expect(del.stderr).toBe('');
  expect(del.stdout).toBe(`InstanceGroup "extra" deleted from cluster "${name}"\n`);
  expect(fs.existsSync(`${store}/${name}/instancegroup/extra`)).toBe(false);
});
