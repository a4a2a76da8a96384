import { AutoScalingClient, AutoScalingGroup, DescribeAutoScalingGroupsCommand } from '@aws-sdk/client-auto-scaling';
import { DescribeTargetGroupsCommand, ElasticLoadBalancingV2Client } from '@aws-sdk/client-elastic-load-balancing-v2';
import { DescribeInstancesCommand, DescribeKeyPairsCommand, DescribeLaunchTemplatesCommand, DescribeLaunchTemplateVersionsCommand, DescribeSecurityGroupsCommand, DescribeVolumesCommand, DescribeVpcsCommand, EC2Client, Filter, CreateSecurityGroupCommand, ImportKeyPairCommand } from '@aws-sdk/client-ec2';
import { createHash, generateKeyPairSync } from 'node:crypto';
import type { Cluster, InstanceGroup } from '../../../src/api/types';
import { AwsCloud } from '../../../src/cloud/aws/aws-cloud';
import { classifyAwsError } from '../../../src/cloud/aws/aws-errors';
import { awsPreflight } from '../../../src/cloud/aws/aws-preflight';
import { awsTaskExecutor } from '../../../src/cloud/aws/aws-task-executor';
import { GROUP_METRICS } from '../../../src/cloud/aws/tasks/auto-scaling-group-task';
import { LIFECYCLE_HOOK_RECORD_TAG } from '../../../src/cloud/aws/tasks/auto-scaling-lifecycle-hook-task';
import { newCluster } from '../../../src/create/new-cluster';
import { normalizedRole } from '../../../src/expand/expand-context';
import { buildAwsTasks } from '../../../src/model/aws/aws-model-builder';
import type { AwsModelInputs } from '../../../src/model/aws/aws-model-inputs';
import { completeCluster, derivedFiles } from '../../../src/ops/expand-cluster';
import { StatePaths } from '../../../src/state/state-paths';
import { applyPlan } from '../../../src/targets/direct-target';
import { renderPlan } from '../../../src/targets/dry-run-target';
import { KOPS_CONTROLLER_CA_FIXTURE } from '../../helpers/kops-controller-ca-fixture';
import { MotoServer, startMotoServer } from '../../helpers/moto-server';
import { losingProxy } from './losing-proxy';
import { TEST_CLUSTER_UID } from '../../helpers/cluster-layout';

const CREDENTIALS = { accessKeyId: 'test', secretAccessKey: 'test' };
// moto 5.2.1 knows no Ubuntu 24.04 image (only Canonical's 14.04 and 16.04 of 2017), so the groups name one it has.
const MOTO_IMAGE = '099720109477/ubuntu/images/hvm-ssd/ubuntu-xenial-16.04-amd64-server-20170721';
let moto: MotoServer;
let ec2: EC2Client;
let autoScaling: AutoScalingClient;

beforeAll(async () => {
  moto = await startMotoServer();
  ec2 = new EC2Client({ region: 'us-east-1', endpoint: moto.endpoint, credentials: CREDENTIALS });
  autoScaling = new AutoScalingClient({ region: 'us-east-1', endpoint: moto.endpoint, credentials: CREDENTIALS });
});

afterAll(async () => {
  ec2?.destroy();
  autoScaling?.destroy();
  await moto?.stop();
});

interface Spec {
  cluster: Cluster;
  instanceGroups: InstanceGroup[];
  inputs: AwsModelInputs;
}

/** An OpenSSH `ssh-rsa` public key and its kops fingerprint (md5 of the key blob). */
function sshKey(): { publicKey: string; fingerprint: string } {
  const jwk = generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({ format: 'jwk' });
  const field = (b: Buffer): Buffer => Buffer.concat([Buffer.from([b.length >>> 24, (b.length >>> 16) & 255, (b.length >>> 8) & 255, b.length & 255]), b]);
  const mpint = (b64url: string): Buffer => {
    const b = Buffer.from(b64url, 'base64url');
    return field(b[0] & 0x80 ? Buffer.concat([Buffer.from([0]), b]) : b);
  };
  const blob = Buffer.concat([field(Buffer.from('ssh-rsa')), mpint(jwk.e as string), mpint(jwk.n as string)]);
  return { publicKey: `ssh-rsa ${blob.toString('base64')} test@example\n`, fingerprint: createHash('md5').update(blob).digest('hex') };
}
const SSH_KEY = sshKey();

/** A completed three-zone cluster (one control-plane group, three node groups) plus `extraGroups` node groups, with real nodeup config hashes. */
function spec(name: string, edit: (s: Spec) => void = () => {}, extraGroups = 0): Spec {
  const { cluster, instanceGroups } = newCluster({ name, zones: ['us-east-1a', 'us-east-1b', 'us-east-1c'], cloudLabels: { team: 'infra' } });
  const template = instanceGroups.find((ig) => ig.spec.role === 'Node') as InstanceGroup;
  for (let i = 0; i < extraGroups; i++) instanceGroups.push({ ...template, metadata: { ...template.metadata, name: `extra-${i}` }, spec: { ...template.spec } });
  for (const ig of instanceGroups) ig.spec.image = MOTO_IMAGE;
  const completed = completeCluster(cluster, instanceGroups, 's3://kforge-state/team');
  const s: Spec = { cluster: completed, instanceGroups, inputs: { nodeupConfigHashes: {}, sshPublicKey: SSH_KEY, kopsControllerCa: KOPS_CONTROLLER_CA_FIXTURE } };
  edit(s);
  const files = derivedFiles(s.cluster, s.instanceGroups);
  s.inputs = {
    ...s.inputs,
    nodeupConfigHashes: Object.fromEntries(
      s.instanceGroups.map((ig) => [ig.metadata.name, createHash('sha256').update(files.get(StatePaths.nodeupConfig(name, normalizedRole(ig), ig.metadata.name)) as string).digest('hex')]),
    ),
  };
  return s;
}

function awsCloud(name: string, endpoint = moto.endpoint): AwsCloud {
  return new AwsCloud({ clusterName: name, region: 'us-east-1', env: { AWS_ENDPOINT_URL: endpoint }, credentials: CREDENTIALS, maxAttempts: 2, clusterUid: TEST_CLUSTER_UID });
}

/** Finds, plans and (optionally) applies the whole AWS model in a fresh run, as a command would. */
async function run(s: Spec, apply: boolean, endpoint?: string): Promise<{ cloud: AwsCloud; text: string; hasChanges: boolean }> {
  const cloud = awsCloud(s.cluster.metadata.name, endpoint);
  const executor = awsTaskExecutor(cloud, buildAwsTasks(s.cluster, s.instanceGroups, s.inputs), { backoffMs: 20 });
  const plan = await executor.plan();
  const text = renderPlan(plan);
  if (apply) await applyPlan(executor, plan);
  return { cloud, text, hasChanges: plan.hasChanges };
}

const tagFilter = (name: string): Filter[] => [{ Name: 'tag:KubernetesCluster', Values: [name] }];
const tags = (list: { Key?: string; Value?: string }[] | undefined): Record<string, string> => Object.fromEntries((list ?? []).map((t) => [t.Key ?? '', t.Value ?? '']));

describe('AWS compute tasks against moto', () => {
  const name = 'compute.example.com';
  const base = spec(name);

  it('creates volumes, a key pair, launch templates and ASGs, then plans no changes and mutates nothing', async () => {
    const first = await run(base, true);
    expect(first.hasChanges).toBe(true);
    for (const key of [
      `EBSVolume/a.etcd-main.${name}`,
      `EBSVolume/a.etcd-events.${name}`,
      `LaunchTemplate/control-plane-us-east-1a.${name}`,
      `AutoScalingGroup/nodes-us-east-1c.${name}`,
      `EC2KeyPair/kubernetes.${name}-${SSH_KEY.fingerprint.match(/../g)?.join(':')}`,
    ]) {
      expect(first.text).toContain(`+ create ${key}\n`);
    }

    const second = await run(base, true);
    expect(second.text).toMatch(/^No changes \(\d+ resources\)$/m);
    expect(second.hasChanges).toBe(false);
    expect(second.cloud.calls.mutating).toBe(0);
    console.log(`no-op plan of the whole model: ${second.cloud.calls.calls} calls ${JSON.stringify(second.cloud.calls.snapshot())}`);
  });

  it('made one VPC, tagged encrypted gp3 etcd volumes, templates and groups with running instances', async () => {
    expect((await ec2.send(new DescribeVpcsCommand({ Filters: tagFilter(name) }))).Vpcs).toHaveLength(1);

    const volumes = (await ec2.send(new DescribeVolumesCommand({ Filters: tagFilter(name) }))).Volumes ?? [];
    expect(volumes.map((v) => tags(v.Tags).Name).sort()).toEqual([`a.etcd-events.${name}`, `a.etcd-main.${name}`]);
    for (const v of volumes) {
      expect({ type: v.VolumeType, size: v.Size, encrypted: v.Encrypted, zone: v.AvailabilityZone }).toEqual({ type: 'gp3', size: 20, encrypted: true, zone: 'us-east-1a' });
    }
    const main = tags(volumes.find((v) => tags(v.Tags).Name === `a.etcd-main.${name}`)?.Tags);
    expect(main).toEqual({
      KubernetesCluster: name,
      [`kubernetes.io/cluster/${name}`]: 'owned',
      Name: `a.etcd-main.${name}`,
      'k8s.io/etcd/main': 'a/a',
      'k8s.io/role/control-plane': '1',
      'k8s.io/role/master': '1',
      team: 'infra',
    });

    const keyPairs = (await ec2.send(new DescribeKeyPairsCommand({ Filters: tagFilter(name) }))).KeyPairs ?? [];
    expect(keyPairs.map((k) => k.KeyName)).toEqual([`kubernetes.${name}-${SSH_KEY.fingerprint.match(/../g)?.join(':')}`]);

    const templates = (await ec2.send(new DescribeLaunchTemplatesCommand({ Filters: tagFilter(name) }))).LaunchTemplates ?? [];
    const groupNames = ['control-plane-us-east-1a', 'nodes-us-east-1a', 'nodes-us-east-1b', 'nodes-us-east-1c'];
    expect(templates.map((t) => t.LaunchTemplateName).sort()).toEqual(groupNames.map((g) => `${g}.${name}`));
    const sgs = (await ec2.send(new DescribeSecurityGroupsCommand({ Filters: tagFilter(name) }))).SecurityGroups ?? [];
    const sgName = new Map(sgs.map((g) => [g.GroupId, g.GroupName]));
    const cp = (await ec2.send(new DescribeLaunchTemplateVersionsCommand({ LaunchTemplateName: `control-plane-us-east-1a.${name}`, Versions: ['$Latest'] }))).LaunchTemplateVersions?.[0]
      ?.LaunchTemplateData;
    expect(cp?.ImageId).toBe('ami-785db401');
    expect(cp?.InstanceType).toBe('t3.medium');
    expect(cp?.MetadataOptions).toMatchObject({ HttpTokens: 'required', HttpPutResponseHopLimit: 1 });
    expect(cp?.BlockDeviceMappings?.[0]?.Ebs).toMatchObject({ VolumeSize: 64, VolumeType: 'gp3', Encrypted: true });
    expect(cp?.SecurityGroupIds?.map((id) => sgName.get(id))).toEqual([`masters.${name}`]);
    expect(cp?.IamInstanceProfile?.Name).toBe(`masters.${name}`);
    expect(cp?.KeyName).toBe(keyPairs[0].KeyName);
    const script = Buffer.from(cp?.UserData ?? '', 'base64').toString('utf8');
    expect(script).toContain(`NodeupConfigHash: ${base.inputs.nodeupConfigHashes['control-plane-us-east-1a']}\n`);
    expect(script).toContain('InstanceGroupRole: ControlPlane\n');
    const node = (await ec2.send(new DescribeLaunchTemplateVersionsCommand({ LaunchTemplateName: `nodes-us-east-1b.${name}`, Versions: ['$Latest'] }))).LaunchTemplateVersions?.[0]?.LaunchTemplateData;
    expect(node?.BlockDeviceMappings?.[0]?.Ebs?.VolumeSize).toBe(128);
    expect(node?.SecurityGroupIds?.map((id) => sgName.get(id))).toEqual([`nodes.${name}`]);
    // Each node group has its own role and profile, so its nodes read only its own nodeup config.
    expect(node?.IamInstanceProfile?.Name).toBe(`nodes-nodes-us-east-1b.${name}`);

    const groups = (await autoScaling.send(new DescribeAutoScalingGroupsCommand({ Filters: [{ Name: 'tag:KubernetesCluster', Values: [name] }] }))).AutoScalingGroups ?? [];
    expect(groups.map((g) => g.AutoScalingGroupName).sort()).toEqual(groupNames.map((g) => `${g}.${name}`));
    for (const g of groups) {
      expect(g.LaunchTemplate).toMatchObject({ LaunchTemplateName: g.AutoScalingGroupName, Version: '$Latest' });
      expect(g.Instances?.length).toBe(g.MinSize);
      expect(g.DesiredCapacity).toBe(g.MinSize);
      // Every tag reaches the instances but the record of the node-termination-handler's lifecycle hook, which is the group's own.
      expect(g.Tags?.filter((t) => !t.PropagateAtLaunch).map((t) => t.Key)).toEqual([LIFECYCLE_HOOK_RECORD_TAG]);
      expect(tags(g.Tags)).toMatchObject({ 'aws-node-termination-handler/managed': '' });
    }
    const cpGroup = tags(groups.find((g) => g.AutoScalingGroupName === `control-plane-us-east-1a.${name}`)?.Tags);
    expect(cpGroup).toMatchObject({ 'k8s.io/role/control-plane': '1', 'kops.k8s.io/instancegroup': 'control-plane-us-east-1a', Name: `control-plane-us-east-1a.${name}` });

    const reservations = (await ec2.send(new DescribeInstancesCommand({ Filters: [...tagFilter(name), { Name: 'instance-state-name', Values: ['running'] }] }))).Reservations ?? [];
    const instances = reservations.flatMap((r) => r.Instances ?? []);
    expect(instances).toHaveLength(groups.reduce((n, g) => n + (g.MinSize ?? 0), 0));
    for (const i of instances) expect(tags(i.Tags)['kops.k8s.io/instancegroup']).toMatch(/^(control-plane|nodes)-us-east-1[abc]$/);
  });

  it('makes a new launch template version for a new machine type, never a new template', async () => {
    const bigger = spec(name, (s) => {
      const ig = s.instanceGroups.find((g) => g.metadata.name === 'nodes-us-east-1a') as InstanceGroup;
      ig.spec.machineType = 't3.large';
    });
    const plan = await run(bigger, true);
    expect(plan.text).toContain(`~ update LaunchTemplate/nodes-us-east-1a.${name}: instanceType: "t3.medium" -> "t3.large"\n`);
    expect(plan.text).not.toContain('+ create');
    expect(plan.cloud.calls.byOperation.get('CreateLaunchTemplate')).toBeUndefined();
    expect(plan.cloud.calls.byOperation.get('CreateLaunchTemplateVersion')).toBe(1);
    const templates = (await ec2.send(new DescribeLaunchTemplatesCommand({ Filters: tagFilter(name) }))).LaunchTemplates ?? [];
    expect(templates).toHaveLength(4);
    const changed = templates.find((t) => t.LaunchTemplateName === `nodes-us-east-1a.${name}`);
    expect({ latest: changed?.LatestVersionNumber, default: changed?.DefaultVersionNumber }).toEqual({ latest: 2, default: 2 });
    const data = (await ec2.send(new DescribeLaunchTemplateVersionsCommand({ LaunchTemplateId: changed?.LaunchTemplateId, Versions: ['2'] }))).LaunchTemplateVersions?.[0]?.LaunchTemplateData;
    // The full data, not just the changed field (no SourceVersion).
    expect(data).toMatchObject({ InstanceType: 't3.large', ImageId: 'ami-785db401', IamInstanceProfile: { Name: `nodes-nodes-us-east-1a.${name}` } });
    const again = await run(bigger, false);
    expect(again.hasChanges).toBe(false);
  });

  it('an instance type with an instance store maps its disks as kops does (/dev/sdc = ephemeral0), read from DescribeInstanceTypes; then no changes', async () => {
    const withStore = spec(name, (s) => {
      const ig = s.instanceGroups.find((g) => g.metadata.name === 'nodes-us-east-1a') as InstanceGroup;
      ig.spec.machineType = 'm3.medium';
    });
    const plan = await run(withStore, true);
    expect(plan.text).toContain(`~ update LaunchTemplate/nodes-us-east-1a.${name}:`);
    expect(plan.text).toContain('ephemeralDevices');
    const changed = ((await ec2.send(new DescribeLaunchTemplatesCommand({ Filters: tagFilter(name) }))).LaunchTemplates ?? []).find((t) => t.LaunchTemplateName === `nodes-us-east-1a.${name}`);
    const data = (await ec2.send(new DescribeLaunchTemplateVersionsCommand({ LaunchTemplateId: changed?.LaunchTemplateId, Versions: ['$Latest'] }))).LaunchTemplateVersions?.[0]?.LaunchTemplateData;
    // moto's m3.medium has one 4 GB instance-store disk (AWS's description); the EBS root volume stays first.
    expect(data?.BlockDeviceMappings?.map((m) => [m.DeviceName, m.VirtualName ?? 'ebs'])).toEqual([['/dev/sda1', 'ebs'], ['/dev/sdc', 'ephemeral0']]);
    expect((await run(withStore, false)).hasChanges).toBe(false);
  });

  it('changes sizes in place and leaves the desired capacity to AWS and the autoscaler', async () => {
    const grown = spec(name, (s) => {
      const ig = s.instanceGroups.find((g) => g.metadata.name === 'nodes-us-east-1b') as InstanceGroup;
      ig.spec.machineType = 't3.large';
      ig.spec.maxSize = 3;
    });
    const plan = await run(grown, true);
    expect(plan.text).toContain(`~ update AutoScalingGroup/nodes-us-east-1b.${name}: maxSize: 1 -> 3\n`);
    expect(plan.cloud.calls.byOperation.get('UpdateAutoScalingGroup')).toBe(1);
    const g = (await autoScaling.send(new DescribeAutoScalingGroupsCommand({ AutoScalingGroupNames: [`nodes-us-east-1b.${name}`] }))).AutoScalingGroups?.[0];
    expect({ min: g?.MinSize, max: g?.MaxSize, desired: g?.DesiredCapacity }).toEqual({ min: 1, max: 3, desired: 1 });
  });
});


describe('target groups', () => {
  it('the control-plane ASG registers with the API load balancer’s target group (--dns none); node groups do not', async () => {
    const clusterName = 'tg.example.com';
    const s = spec(clusterName);
    expect((await run(s, true)).hasChanges).toBe(true);
    const elbv2 = new ElasticLoadBalancingV2Client({ region: 'us-east-1', endpoint: moto.endpoint, credentials: CREDENTIALS });
    try {
      const groups = (await elbv2.send(new DescribeTargetGroupsCommand({}))).TargetGroups ?? [];
      const arn = groups.find((g) => g.TargetGroupName?.startsWith('tcp-tg-example-com'))?.TargetGroupArn;
      expect(arn).toBeDefined();
      // Without DNS the node-identity service's target group (port 3988) too, as in kops.
      const kc = groups.find((g) => g.TargetGroupName?.startsWith('kops-controller-tg-exampl'))?.TargetGroupArn;
      expect(kc).toBeDefined();
      const asgs = (await autoScaling.send(new DescribeAutoScalingGroupsCommand({}))).AutoScalingGroups ?? [];
      const arns = (name: string) => asgs.find((g) => g.AutoScalingGroupName === `${name}.${clusterName}`)?.TargetGroupARNs;
      expect(arns('control-plane-us-east-1a')?.sort()).toEqual([arn, kc].sort());
      expect(arns('nodes-us-east-1a')).toEqual([]);
      expect((await run(s, false)).hasChanges).toBe(false);
    } finally {
      elbv2.destroy();
    }
  });
});

describe('bad input', () => {
  it('an unknown image fails the plan, naming the group and field, before anything is made', async () => {
    const s = spec('noimage.example.com', (x) => ((x.instanceGroups[1].spec.image = '099720109477/no/such/image'), undefined));
    const cloud = awsCloud('noimage.example.com');
    const failure = await awsTaskExecutor(cloud, buildAwsTasks(s.cluster, s.instanceGroups, s.inputs), { backoffMs: 20 })
      .plan()
      .then(
        () => undefined,
        (e: unknown) => e as { message: string; cause?: { code?: string } },
      );
    expect(failure?.message).toMatch(/InstanceGroup\/nodes-us-east-1a spec\.image: no image "099720109477\/no\/such\/image"/);
    expect(failure?.cause?.code).toBe('IMAGE_NOT_FOUND');
    expect(cloud.calls.mutating).toBe(0);
  });

  it('preflight reports unknown instance types and images and a zone the account lacks, all at once, in 3 calls', async () => {
    const s = spec('preflight.example.com');
    s.instanceGroups[0].spec.machineType = 'x9.huge';
    s.instanceGroups[3].spec.image = 'amazon/no-such-image';
    s.instanceGroups[2].spec.machineType = 'x9.tiny';
    (s.cluster.spec.subnets ?? [])[2].zone = 'us-east-1z';
    const cloud = awsCloud('preflight.example.com');
    const error = await awsPreflight(cloud, s.cluster, s.instanceGroups).then(
      () => undefined,
      (e: unknown) => e as { code: string; message: string },
    );
    expect(error?.code).toBe('PREFLIGHT_FAILED');
    expect(error?.message).toContain('InstanceGroup/control-plane-us-east-1a: spec.machineType: instance type "x9.huge" is not offered in region us-east-1');
    expect(error?.message).toContain('InstanceGroup/nodes-us-east-1b: spec.machineType: instance type "x9.tiny"');
    expect(error?.message).toContain('Cluster/preflight.example.com: spec.subnets[2].zone: zone "us-east-1z" is not an available zone');
    expect(error?.message).toContain('InstanceGroup/nodes-us-east-1c: spec.image: no image "amazon/no-such-image" is visible to this account in region us-east-1');
    expect(error?.message).toMatch(/\(4 problems\)/);
    expect(cloud.calls.snapshot()).toEqual({ DescribeAvailabilityZones: 1, DescribeImages: 1, DescribeInstanceTypes: 1 });
    await expect(awsPreflight(awsCloud('preflight.example.com'), spec('preflight.example.com').cluster, spec('preflight.example.com').instanceGroups)).resolves.toBeUndefined();
  });

  it('a missing nodeup config hash is an error naming the group', () => {
    const s = spec('nohash.example.com');
    expect(() => buildAwsTasks(s.cluster, s.instanceGroups, { nodeupConfigHashes: {} })).toThrow(expect.objectContaining({ code: 'MISSING_MODEL_INPUT' }));
  });

  it('quota errors have their own category', () => {
    for (const name of ['VcpuLimitExceeded', 'InstanceLimitExceeded', 'VolumeLimitExceeded', 'AddressLimitExceeded', 'LimitExceeded']) {
      expect(classifyAwsError({ name, $metadata: { httpStatusCode: 400 } })).toBe('quota-exceeded');
    }
    expect(classifyAwsError({ name: 'RequestLimitExceeded' })).toBe('throttled');
  });
});

describe('a create whose answer is lost', () => {
  // CreateVolume is left out: its ClientToken makes a resend return the same volume on AWS, but moto 5.2.1
  // ignores the token and makes a second volume.
  it.each([
    ['ImportKeyPair', 'key pairs'],
    ['CreateLaunchTemplate', 'launch templates'],
    ['CreateAutoScalingGroup', 'Auto Scaling groups'],
  ])('%s: is found again or made once (%s)', async (action) => {
    const clusterName = `lost-${action.toLowerCase()}.example.com`;
    const s = spec(clusterName);
    const proxy = await losingProxy(moto.endpoint, `Action=${action}&`);
    try {
      await run(s, true, proxy.endpoint);
      expect(proxy.lost).toBe(1);
    } finally {
      await proxy.stop();
    }
    const volumes = (await ec2.send(new DescribeVolumesCommand({ Filters: tagFilter(clusterName) }))).Volumes ?? [];
    expect(volumes).toHaveLength(2);
    const keyPairs = (await ec2.send(new DescribeKeyPairsCommand({ Filters: tagFilter(clusterName) }))).KeyPairs ?? [];
    expect(keyPairs).toHaveLength(1);
    const templates = (await ec2.send(new DescribeLaunchTemplatesCommand({ Filters: tagFilter(clusterName) }))).LaunchTemplates ?? [];
    expect(templates).toHaveLength(4);
    const groups = (await autoScaling.send(new DescribeAutoScalingGroupsCommand({ Filters: [{ Name: 'tag:KubernetesCluster', Values: [clusterName] }] }))).AutoScalingGroups ?? [];
    expect(groups).toHaveLength(4);
    expect((await run(s, false)).hasChanges).toBe(false);
  });
});

describe('API cost of a no-op plan of the whole model', () => {
  it('is the same for 2 and for 20 instance groups (one worker group or 19)', async () => {
    const counts: Record<number, { calls: number; byOperation: Record<string, number> }> = {};
    for (const groups of [2, 20]) {
      // Not igcost20: its node-identity target group would be kops-controller-igcost20--<hash>, a name kops
      // gives and AWS accepts, but moto 5.2.1 refuses any target group name with "--".
      const clusterName = `cost${groups}.example.com`;
      // One control-plane group plus node groups: 2 means the control plane and one worker group (a worker's
      // template reads the load balancer's interfaces, once for all, so the control plane alone would cost one less).
      const s = spec(clusterName, (x) => (x.instanceGroups = x.instanceGroups.filter((ig) => ig.spec.role === 'ControlPlane' || ig.metadata.name.startsWith('extra-'))), groups - 1);
      expect(s.instanceGroups).toHaveLength(groups);
      await run(s, true);
      const noop = await run(s, false);
      expect(noop.text.split('\n').filter((l) => /^[+~] /.test(l))).toEqual([]);
      expect(noop.hasChanges).toBe(false);
      counts[groups] = { calls: noop.cloud.calls.calls, byOperation: noop.cloud.calls.snapshot() };
    }
    console.log(`no-op plan: ${counts[2].calls} calls for 2 instance groups, ${counts[20].calls} for 20: ${JSON.stringify(counts[20].byOperation)}`);
    expect(counts[20].byOperation).toEqual(counts[2].byOperation);
    expect(counts[20].calls).toBe(counts[2].calls);
    // The network's 7, the load balancer's 7 (--dns none), IAM's 1, one each for images, instance types (the
    // instance-store devices; in update both are the preflight's loads), volumes, key pairs, templates, their versions and ASGs (22); the node-identity service's target group adds three (its DescribeTargetGroups,
    // attributes and tags); the node-termination-handler's 12: the queue's 3 (GetQueueUrl,
    // GetQueueAttributes, ListQueueTags), one ListRules, and ListTagsForResource and ListTargetsByRule for each of
    // its 4 rules. The lifecycle hooks cost none (recorded on the groups, read with DescribeAutoScalingGroups).
    // Without DNS the workers' templates read the load balancer's interfaces (their APIServerIPs): one
    // DescribeNetworkInterfaces.
    expect(counts[2].byOperation.DescribeNetworkInterfaces).toBe(1);
    expect(counts[2].calls).toBe(38);
  });
});

describe('instance-group settings reach the launch template and the Auto Scaling group', () => {
  // Not settings.example.com: moto 5.2.1 refuses the "--" of kops-controller-settings--<hash> (AWS does not).
  const name = 'setting.example.com';

  it('cpuCredits, detailed monitoring, tenancy, extra security groups, a KMS key, lifetime, processes, protection and rebalance; then no changes; unset goes back', async () => {
    const sg = await ec2.send(new CreateSecurityGroupCommand({ GroupName: 'extra-settings', Description: 'extra' }));
    const extra = sg.GroupId as string;
    const key = 'arn:aws:kms:us-east-1:123456789012:key/1234abcd-12ab-34cd-56ef-1234567890ab';
    const set = spec(name, (s) => {
      const ig = s.instanceGroups.find((g) => g.metadata.name === 'nodes-us-east-1a') as InstanceGroup;
      Object.assign(ig.spec, {
        cpuCredits: 'unlimited',
        detailedInstanceMonitoring: true,
        tenancy: 'dedicated',
        additionalSecurityGroups: [extra],
        rootVolumeEncryptionKey: key,
        maxInstanceLifetime: '168h',
        suspendProcesses: ['AZRebalance'],
        instanceProtection: true,
        capacityRebalance: true,
      });
    });
    await awsPreflight(awsCloud(name), set.cluster, set.instanceGroups);
    await run(set, true);
    const lt = (await ec2.send(new DescribeLaunchTemplateVersionsCommand({ LaunchTemplateName: `nodes-us-east-1a.${name}`, Versions: ['$Latest'] }))).LaunchTemplateVersions?.[0]?.LaunchTemplateData;
    expect(lt?.CreditSpecification?.CpuCredits).toBe('unlimited');
    expect(lt?.Monitoring?.Enabled).toBe(true);
    expect(lt?.Placement?.Tenancy).toBe('dedicated');
    expect(lt?.SecurityGroupIds).toContain(extra);
    expect(lt?.SecurityGroupIds).toHaveLength(2);
    expect(lt?.BlockDeviceMappings?.[0]?.Ebs?.KmsKeyId).toBe(key);
    expect(lt?.TagSpecifications?.map((t) => t.ResourceType).filter((t) => t !== 'launch-template').sort()).toEqual(['instance', 'network-interface', 'volume']);
    const groups = (await autoScaling.send(new DescribeAutoScalingGroupsCommand({ AutoScalingGroupNames: [`nodes-us-east-1a.${name}`, `nodes-us-east-1b.${name}`] }))).AutoScalingGroups ?? [];
    const a = groups.find((g) => g.AutoScalingGroupName?.startsWith('nodes-us-east-1a')) as AutoScalingGroup;
    expect([a.CapacityRebalance, a.NewInstancesProtectedFromScaleIn]).toEqual([true, true]);
    expect(a.SuspendedProcesses?.map((p) => p.ProcessName)).toEqual(['AZRebalance']);
    // Every group collects kops's group metrics at one-minute granularity.
    for (const g of groups) expect(g.EnabledMetrics?.map((m) => `${m.Metric}@${m.Granularity}`).sort()).toEqual(GROUP_METRICS.map((m) => `${m}@1Minute`).sort());
    // moto 5.2.1 accepts MaxInstanceLifetime but does not return it (AWS does), so that one field stays a difference here.
    const again = await run(set, false);
    expect(again.text.split('\n').filter((l) => l.startsWith('~'))).toEqual([`~ update AutoScalingGroup/nodes-us-east-1a.${name}: maxInstanceLifetime: 0 -> 604800`]);

    // Settings removed from the spec are changes back to AWS's defaults.
    const unset = spec(name);
    const back = await run(unset, true);
    expect(back.text).toContain(`~ update LaunchTemplate/nodes-us-east-1a.${name}:`);
    const lt2 = (await ec2.send(new DescribeLaunchTemplateVersionsCommand({ LaunchTemplateName: `nodes-us-east-1a.${name}`, Versions: ['$Latest'] }))).LaunchTemplateVersions?.[0]?.LaunchTemplateData;
    expect([lt2?.CreditSpecification?.CpuCredits, lt2?.Monitoring?.Enabled, lt2?.Placement?.Tenancy, lt2?.SecurityGroupIds?.length]).toEqual([undefined, false, undefined, 1]);
    const a2 = (await autoScaling.send(new DescribeAutoScalingGroupsCommand({ AutoScalingGroupNames: [`nodes-us-east-1a.${name}`] }))).AutoScalingGroups?.[0];
    expect([a2?.NewInstancesProtectedFromScaleIn, a2?.SuspendedProcesses]).toEqual([false, []]);
    // moto 5.2.1's UpdateAutoScalingGroup ignores CapacityRebalance (AWS takes it), so only that difference remains.
    const after = await run(unset, false);
    expect(after.text.split('\n').filter((l) => l.startsWith('~'))).toEqual([`~ update AutoScalingGroup/nodes-us-east-1a.${name}: capacityRebalance: true -> false`]);
  });

  it('sshKeyName "" makes templates without a key pair; a name uses that key pair, and a missing one fails preflight naming the field', async () => {
    const none = spec('nokey.example.com', (s) => (s.cluster.spec.sshKeyName = ''));
    await run(none, true);
    const lt = (await ec2.send(new DescribeLaunchTemplateVersionsCommand({ LaunchTemplateName: 'nodes-us-east-1a.nokey.example.com', Versions: ['$Latest'] }))).LaunchTemplateVersions?.[0]?.LaunchTemplateData;
    expect(lt?.KeyName).toBeUndefined();
    expect((await ec2.send(new DescribeKeyPairsCommand({ Filters: [{ Name: 'tag:KubernetesCluster', Values: ['nokey.example.com'] }] }))).KeyPairs).toEqual([]);

    await ec2.send(new ImportKeyPairCommand({ KeyName: 'team-key', PublicKeyMaterial: Buffer.from(SSH_KEY.publicKey) }));
    const named = spec('named.example.com', (s) => (s.cluster.spec.sshKeyName = 'team-key'));
    await run(named, true);
    const lt2 = (await ec2.send(new DescribeLaunchTemplateVersionsCommand({ LaunchTemplateName: 'nodes-us-east-1a.named.example.com', Versions: ['$Latest'] }))).LaunchTemplateVersions?.[0]?.LaunchTemplateData;
    expect(lt2?.KeyName).toBe('team-key');

    const missing = spec('missing.example.com', (s) => (s.cluster.spec.sshKeyName = 'no-such-key'));
    await expect(awsPreflight(awsCloud('missing.example.com'), missing.cluster, missing.instanceGroups)).rejects.toThrow(/Cluster\/missing\.example\.com: spec\.sshKeyName: no key pair "no-such-key"/);
  });
});
