import * as fs from 'node:fs';
import {
  AllocateAddressCommand,
  AttachInternetGatewayCommand,
  CreateInternetGatewayCommand,
  DescribeInternetGatewaysCommand,
  CreateNatGatewayCommand,
  CreateSecurityGroupCommand,
  CreateSubnetCommand,
  CreateVpcCommand,
  DescribeLaunchTemplatesCommand,
  DescribeLaunchTemplateVersionsCommand,
  DescribeNatGatewaysCommand,
  DescribeRouteTablesCommand,
  DescribeSecurityGroupsCommand,
  DescribeSubnetsCommand,
  DescribeVpcsCommand,
  EC2Client,
  Tag,
} from '@aws-sdk/client-ec2';
import {
  AddRoleToInstanceProfileCommand,
  CreateAccessKeyCommand,
  CreateInstanceProfileCommand,
  CreateRoleCommand,
  CreateUserCommand,
  GetInstanceProfileCommand,
  IAMClient,
  ListRolesCommand,
  PutUserPolicyCommand,
} from '@aws-sdk/client-iam';
import type { Cluster, InstanceGroup } from '../../../src/api/types';
import { newCluster } from '../../../src/create/new-cluster';
import { saveCluster } from '../../../src/ops/save-cluster';
import { openVfs } from '../../../src/state/vfs/open-vfs';
import { runCliAsync, tempDir } from '../../helpers/cli';
import { FaultProxy, startFaultProxy } from '../../helpers/fault-proxy';
import { MOTO_WITH_DEFAULT_IMAGE, MotoServer, startMotoServer } from '../../helpers/moto-server';

// A cluster inside a VPC another team owns (kops's shared VPC): kforge finds the VPC, subnets and NAT
// gateway by id, checks them, tags the VPC and subnets `kubernetes.io/cluster/<c>=shared` and nothing else,
// never changes or deletes them, and `delete cluster` takes only that tag away. All through the CLI.

const CREDENTIALS = { accessKeyId: 'test', secretAccessKey: 'test' };
const FOREIGN: Tag[] = [
  { Key: 'Name', Value: 'corp-vpc' },
  { Key: 'team', Value: 'network' },
];
let moto: MotoServer;
/** Forwards every call untouched and lets a test see which AWS actions a command called. */
let recorder: FaultProxy;
let ec2: EC2Client;
let iam: IAMClient;
let store: string;
let env: NodeJS.ProcessEnv;
/** The network team's resources, made once: a VPC, a utility (public) and a private subnet, a NAT gateway, a security group. */
let corp: { vpc: string; utility: string; private: string; other: string; nat: string; sg: string; profileArn: string };

beforeAll(async () => {
  moto = await startMotoServer({ env: MOTO_WITH_DEFAULT_IMAGE });
  recorder = await startFaultProxy(moto.endpoint, 0);
  const client = { region: 'us-east-1', endpoint: moto.endpoint, credentials: CREDENTIALS };
  ec2 = new EC2Client(client);
  iam = new IAMClient(client);
  store = tempDir('kforge-shared-vpc-');
  env = { ...moto.env, AWS_ENDPOINT_URL: moto.endpoint, AWS_EC2_METADATA_DISABLED: 'true', AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true', CI: 'true', KFORGE_TEST_DELETE_PACE: '50/20' };
  const tags = (type: 'vpc' | 'subnet' | 'natgateway' | 'security-group' | 'elastic-ip', name: string) => [{ ResourceType: type, Tags: [...FOREIGN.filter((t) => t.Key !== 'Name'), { Key: 'Name', Value: name }] }];
  const vpc = (await ec2.send(new CreateVpcCommand({ CidrBlock: '10.0.0.0/16', TagSpecifications: tags('vpc', 'corp-vpc') }))).Vpc?.VpcId as string;
  const subnet = async (cidr: string, zone: string, name: string, vpcId = vpc) =>
    (await ec2.send(new CreateSubnetCommand({ VpcId: vpcId, CidrBlock: cidr, AvailabilityZone: zone, TagSpecifications: tags('subnet', name) }))).Subnet?.SubnetId as string;
  const utility = await subnet('10.0.0.0/24', 'us-east-1a', 'corp-utility-a');
  const priv = await subnet('10.0.1.0/24', 'us-east-1a', 'corp-private-a');
  const otherVpc = (await ec2.send(new CreateVpcCommand({ CidrBlock: '192.168.0.0/16', TagSpecifications: tags('vpc', 'corp-other') }))).Vpc?.VpcId as string;
  const other = await subnet('192.168.1.0/24', 'us-east-1a', 'corp-other-a', otherVpc);
  const eip = (await ec2.send(new AllocateAddressCommand({ Domain: 'vpc', TagSpecifications: tags('elastic-ip', 'corp-nat-a') }))).AllocationId as string;
  const nat = (await ec2.send(new CreateNatGatewayCommand({ SubnetId: utility, AllocationId: eip, TagSpecifications: tags('natgateway', 'corp-nat-a') }))).NatGateway?.NatGatewayId as string;
  const sg = (await ec2.send(new CreateSecurityGroupCommand({ GroupName: 'corp-nodes', Description: 'corp nodes', VpcId: vpc, TagSpecifications: tags('security-group', 'corp-nodes') }))).GroupId as string;
  const trust = JSON.stringify({ Version: '2012-10-17', Statement: [{ Effect: 'Allow', Principal: { Service: 'ec2.amazonaws.com' }, Action: 'sts:AssumeRole' }] });
  await iam.send(new CreateRoleCommand({ RoleName: 'corp-nodes', AssumeRolePolicyDocument: trust }));
  const profile = await iam.send(new CreateInstanceProfileCommand({ InstanceProfileName: 'corp-nodes', Path: '/corp/' }));
  await iam.send(new AddRoleToInstanceProfileCommand({ InstanceProfileName: 'corp-nodes', RoleName: 'corp-nodes' }));
  corp = { vpc, utility, private: priv, other, nat, sg, profileArn: profile.InstanceProfile?.Arn as string };
});

afterAll(async () => {
  ec2?.destroy();
  iam?.destroy();
  await recorder?.stop();
  await moto?.stop();
  if (store) fs.rmSync(store, { recursive: true, force: true });
});

/** The network team's resources as AWS describes them, tags sorted: what must not change. */
async function snapshot(): Promise<unknown> {
  // AvailableIpAddressCount is a usage counter (instances and load balancers that ran there move it), not the subnet's settings.
  const sortTags = <T extends { Tags?: Tag[] }>(x: T): T => ({ ...x, AvailableIpAddressCount: undefined, Tags: [...(x.Tags ?? [])].sort((a, b) => ((a.Key ?? '') < (b.Key ?? '') ? -1 : 1)) });
  const vpcs = (await ec2.send(new DescribeVpcsCommand({ VpcIds: [corp.vpc] }))).Vpcs ?? [];
  const subnets = (await ec2.send(new DescribeSubnetsCommand({ SubnetIds: [corp.utility, corp.private] }))).Subnets ?? [];
  const nats = (await ec2.send(new DescribeNatGatewaysCommand({ NatGatewayIds: [corp.nat] }))).NatGateways ?? [];
  const sgs = (await ec2.send(new DescribeSecurityGroupsCommand({ GroupIds: [corp.sg] }))).SecurityGroups ?? [];
  return { vpcs: vpcs.map(sortTags), subnets: subnets.map(sortTags).sort((a, b) => ((a.SubnetId ?? '') < (b.SubnetId ?? '') ? -1 : 1)), nats: nats.map(sortTags), sgs: sgs.map(sortTags) };
}

/** A private one-zone cluster in the corp VPC: the corp subnets, one more private subnet of its own leaving through the corp NAT gateway. */
function sharedCluster(name: string, edit: (c: Cluster, igs: InstanceGroup[]) => void = () => {}): { cluster: Cluster; instanceGroups: InstanceGroup[] } {
  const p = newCluster({ name, zones: ['us-east-1a'], topology: 'private', networking: 'calico', vpc: corp.vpc, networkCidr: '10.0.0.0/16', subnets: [corp.private], utilitySubnets: [corp.utility] });
  // create makes no cloud call: the existing subnets' ranges are stated in the spec, and update checks them.
  for (const s of p.cluster.spec.subnets ?? []) s.cidr = s.type === 'Utility' ? '10.0.0.0/24' : '10.0.1.0/24';
  p.cluster.spec.subnets?.push({ name: 'own-us-east-1a', type: 'Private', zone: 'us-east-1a', cidr: '10.0.64.0/20', egress: corp.nat });
  edit(p.cluster, p.instanceGroups);
  return p;
}

it('update --yes then delete --yes: the VPC, subnets, NAT gateway and security group are as before, foreign tags included; only the shared tag came and went', async () => {
  const name = 'shared.example.com';
  const planned = sharedCluster(name, (_c, igs) => {
    const nodes = igs.find((ig) => ig.spec.role === 'Node') as InstanceGroup;
    nodes.spec.subnets = ['own-us-east-1a'];
    nodes.spec.iam = { profile: corp.profileArn };
    nodes.spec.securityGroupOverride = corp.sg;
  });
  await saveCluster(openVfs(store), planned);
  const before = await snapshot();

  const up = await runCliAsync(['update', 'cluster', name, '--yes', '--state', store], env);
  expect(up.stderr).not.toMatch(/Error/);
  expect(up.status).toBe(0);
  const key = `kubernetes.io/cluster/${name}`;
  const vpc = (await ec2.send(new DescribeVpcsCommand({ VpcIds: [corp.vpc] }))).Vpcs?.[0];
  expect(vpc?.Tags).toEqual(expect.arrayContaining([{ Key: key, Value: 'shared' }, { Key: 'team', Value: 'network' }, { Key: 'Name', Value: 'corp-vpc' }]));
  const corpSubnets = (await ec2.send(new DescribeSubnetsCommand({ SubnetIds: [corp.utility, corp.private] }))).Subnets ?? [];
  for (const s of corpSubnets) expect(s.Tags).toEqual(expect.arrayContaining([{ Key: key, Value: 'shared' }, { Key: 'team', Value: 'network' }]));
  expect(corpSubnets.every((s) => !s.Tags?.some((t) => t.Key === 'KubernetesCluster'))).toBe(true);
  // The zone's private route table (the cluster's) sends its own subnet to the corp NAT gateway.
  const tables = (await ec2.send(new DescribeRouteTablesCommand({ Filters: [{ Name: `tag:${key}`, Values: ['owned'] }] }))).RouteTables ?? [];
  expect(tables.map((t) => t.Tags?.find((x) => x.Key === 'Name')?.Value)).toEqual([`private-us-east-1a.${name}`]);
  expect(tables[0].VpcId).toBe(corp.vpc);
  expect(tables[0].Routes?.find((r) => r.DestinationCidrBlock === '0.0.0.0/0')?.NatGatewayId).toBe(corp.nat);
  expect(tables[0].Associations?.map((a) => a.SubnetId)).toHaveLength(1);
  expect([corp.utility, corp.private]).not.toContain(tables[0].Associations?.[0].SubnetId);
  // The node group's launch template names the corp profile and group; no kforge role was made for it.
  const lts = (await ec2.send(new DescribeLaunchTemplatesCommand({ Filters: [{ Name: `tag:${key}`, Values: ['owned'] }] }))).LaunchTemplates ?? [];
  const nodeLt = lts.find((t) => t.LaunchTemplateName === `nodes-us-east-1a.${name}`);
  const data = (await ec2.send(new DescribeLaunchTemplateVersionsCommand({ LaunchTemplateId: nodeLt?.LaunchTemplateId, Versions: ['$Latest'] }))).LaunchTemplateVersions?.[0].LaunchTemplateData;
  expect(data?.IamInstanceProfile?.Name).toBe('corp-nodes');
  expect(data?.SecurityGroupIds).toEqual([corp.sg]);
  const roles = ((await iam.send(new ListRolesCommand({}))).Roles ?? []).map((r) => r.RoleName);
  expect(roles).toContain(`masters.${name}`);
  expect(roles.some((r) => r?.startsWith('nodes-'))).toBe(false);

  // A second plan finds everything as it should be.
  const again = await runCliAsync(['update', 'cluster', name, '--state', store], env);
  expect(again.status).toBe(0);
  expect(again.stdout).toMatch(/^No changes/);

  const del = await runCliAsync(['delete', 'cluster', name, '--yes', '--state', store, '-o', 'json'], env);
  expect(del.stderr).not.toMatch(/Error/);
  expect(del.status).toBe(0);
  const report = JSON.parse(del.stdout) as { deleted: Array<{ type: string; id: string }>; shared: Array<{ type: string; id: string; untagged: boolean }> };
  expect(report.shared).toEqual(
    expect.arrayContaining([
      { type: 'vpc', name: 'corp-vpc', id: corp.vpc, untagged: true },
      { type: 'subnet', name: 'corp-private-a', id: corp.private, untagged: true },
      { type: 'subnet', name: 'corp-utility-a', id: corp.utility, untagged: true },
      { type: 'nat-gateway', name: corp.nat, id: corp.nat, untagged: false },
      { type: 'security-group', name: corp.sg, id: corp.sg, untagged: false },
      { type: 'iam-instance-profile', name: corp.profileArn, id: corp.profileArn, untagged: false },
    ]),
  );
  const sharedIds = new Set([corp.vpc, corp.utility, corp.private, corp.nat, corp.sg]);
  expect(report.deleted.filter((r) => sharedIds.has(r.id))).toEqual([]);
  expect(report.deleted.map((r) => r.type)).toEqual(expect.arrayContaining(['subnet', 'route-table', 'security-group', 'launch-template', 'autoscaling-group']));

  expect(await snapshot()).toEqual(before);
  expect((await iam.send(new GetInstanceProfileCommand({ InstanceProfileName: 'corp-nodes' }))).InstanceProfile?.Roles?.map((r) => r.RoleName)).toEqual(['corp-nodes']);
  expect(fs.existsSync(`${store}/${name}`)).toBe(false);
}, 120_000);

describe('bad shared inputs fail before any change, naming the field', () => {
  const cases: Array<[string, (c: Cluster) => void, RegExp]> = [
    ['a VPC id that does not exist', (c) => (c.spec.networkID = 'vpc-0123456789abcdef0'), /spec\.networkID: VPC vpc-0123456789abcdef0 does not exist/],
    ['a networkCIDR that is not the VPC’s', (c) => (c.spec.networkCIDR = '10.0.0.0/8'), /spec\.networkCIDR: 10\.0\.0\.0\/8 is not a range of VPC/],
    ['a subnet outside the VPC (another VPC’s range)', (c) => Object.assign((c.spec.subnets ?? [])[0], { id: corp.other, cidr: '10.0.1.0/24' }), /spec\.subnets\[0\]\.id: subnet subnet-\w+ is in VPC vpc-\w+, not in the cluster's VPC/],
    ['a zone that is not the subnet’s', (c) => Object.assign((c.spec.subnets ?? [])[0], { zone: 'us-east-1b' }), /spec\.subnets\[0\]\.zone: is us-east-1b, but subnet subnet-\w+ is in us-east-1a/],
    ['a CIDR that is not the subnet’s', (c) => Object.assign((c.spec.subnets ?? [])[0], { cidr: '10.0.32.0/19' }), /spec\.subnets\[0\]\.cidr: is 10\.0\.32\.0\/19, but subnet subnet-\w+ has 10\.0\.1\.0\/24/],
    ['a NAT gateway that does not exist', (c) => Object.assign((c.spec.subnets ?? [])[2], { egress: 'nat-0123456789abcdef0' }), /spec\.subnets\[2\]\.egress: NAT gateway nat-0123456789abcdef0 does not exist/],
  ];
  it.each(cases)('%s', async (title, edit, message) => {
    const name = `bad-${cases.findIndex((c) => c[0] === title)}.example.com`;
    await saveCluster(openVfs(store), sharedCluster(name, (c, igs) => {
      edit(c);
      // Zone edits move the control plane's subnet too; keep the groups where the subnets are.
      for (const ig of igs) if (ig.spec.role !== 'Bastion') ig.spec.subnets = ['us-east-1a'];
    }));
    const before = await snapshot();
    const actions: string[] = [];
    recorder.setRule((req) => {
      const action = /(?:^|&)Action=(\w+)/.exec(req.body)?.[1];
      if (action) actions.push(action);
      return undefined;
    });
    const r = await runCliAsync(['update', 'cluster', name, '--yes', '--state', store], { ...env, AWS_ENDPOINT_URL: recorder.endpoint });
    recorder.setRule(undefined);
    // update prints its steps first; then one error line, no stack.
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/^Error: \S/m);
    expect(r.stderr).not.toContain('    at ');
    expect(r.stderr).toMatch(message);
    // Every AWS call the failed update made only read.
    expect(actions).toContain('DescribeVpcs');
    expect(actions.filter((a) => !/^(Describe|Get|List)/.test(a))).toEqual([]);
    expect(await snapshot()).toEqual(before);
    expect(fs.existsSync(`${store}/${name}/cluster-completed.spec`)).toBe(false);
  }, 60_000);
});

it('an existing subnet given by id without its zone (as kops allows) is found in its own zone; a control-plane subnet without one is refused at validation', async () => {
  const name = 'nozone.example.com';
  await saveCluster(openVfs(store), sharedCluster(name, (c) => {
    for (const s of c.spec.subnets ?? []) if (s.type === 'Utility') delete s.zone;
  }));
  const before = await snapshot();
  const plan = await runCliAsync(['update', 'cluster', name, '--state', store], env);
  expect(plan.stderr).not.toMatch(/Error/);
  expect(plan.status).toBe(0);
  expect(plan.stdout).not.toMatch(/Subnet\/utility/);
  expect(await snapshot()).toEqual(before);

  const cp = sharedCluster('nozone-cp.example.com', (c) => {
    for (const s of c.spec.subnets ?? []) if (s.id) delete s.zone;
  });
  await expect(saveCluster(openVfs(store), cp)).rejects.toThrow(/spec\.subnets\[0\]: subnet "us-east-1a" has no zone \(Cluster spec\.subnets\[0\]\.zone\): the control plane's etcd volumes/);
}, 60_000);

it('create cluster --vpc --subnets --utility-subnets records the ids (no cloud call); --vpc without --network-cidr is refused', async () => {
  const args = ['create', 'cluster', 'flags.example.com', '--zones', 'us-east-1a,us-east-1b', '--topology', 'private', '--networking', 'calico', '--state', store, '--dry-run', '-o', 'json'];
  const shared = ['--vpc', 'vpc-0abc', '--subnets', 'subnet-0a1,subnet-0b1', '--utility-subnets', 'subnet-0a2,subnet-0b2'];
  // No AWS endpoint at all: create must not need one.
  const ok = await runCliAsync([...args, ...shared, '--network-cidr', '10.0.0.0/16'], { AWS_ENDPOINT_URL: 'http://127.0.0.1:9' });
  expect(ok.stderr).toBe('');
  expect(ok.status).toBe(0);
  const objects = JSON.parse(ok.stdout) as { items?: unknown[] } | unknown[];
  const list = (Array.isArray(objects) ? objects : objects.items ?? []) as Array<{ kind: string; spec: { networkID?: string; networkCIDR?: string; subnets?: Array<{ name: string; id?: string }> } }>;
  const cluster = list.find((o) => o.kind === 'Cluster');
  expect(cluster?.spec.networkID).toBe('vpc-0abc');
  expect(cluster?.spec.networkCIDR).toBe('10.0.0.0/16');
  expect(cluster?.spec.subnets?.map((s) => [s.name, s.id])).toEqual([
    ['us-east-1a', 'subnet-0a1'],
    ['us-east-1b', 'subnet-0b1'],
    ['utility-us-east-1a', 'subnet-0a2'],
    ['utility-us-east-1b', 'subnet-0b2'],
  ]);
  const refused = await runCliAsync([...args, ...shared]);
  expect(refused.status).toBe(1);
  expect(refused.stderr).toMatch(/^Error: .*\n {2}--network-cidr: is required with --network-id/);
  expect(refused.stderr).not.toContain('    at ');
}, 60_000);

it('a public subnet kforge makes in a shared VPC routes through the VPC’s own internet gateway, which delete leaves attached; a VPC without one is refused', async () => {
  const vpc = (await ec2.send(new CreateVpcCommand({ CidrBlock: '10.1.0.0/16', TagSpecifications: [{ ResourceType: 'vpc', Tags: FOREIGN }] }))).Vpc?.VpcId as string;
  const name = 'igw.example.com';
  await saveCluster(openVfs(store), newCluster({ name, zones: ['us-east-1a'], vpc, networkCidr: '10.1.0.0/16' }));
  const missing = await runCliAsync(['update', 'cluster', name, '--yes', '--state', store], env);
  expect(missing.status).toBe(1);
  expect(missing.stderr).toMatch(new RegExp(`Cluster/${name.replace(/\./g, '\\.')} spec\\.networkID: VPC ${vpc} has no internet gateway`));

  const igw = (await ec2.send(new CreateInternetGatewayCommand({ TagSpecifications: [{ ResourceType: 'internet-gateway', Tags: FOREIGN }] }))).InternetGateway?.InternetGatewayId as string;
  await ec2.send(new AttachInternetGatewayCommand({ InternetGatewayId: igw, VpcId: vpc }));
  const describeIgw = async () => (await ec2.send(new DescribeInternetGatewaysCommand({ InternetGatewayIds: [igw] }))).InternetGateways?.[0];
  const before = await describeIgw();
  const up = await runCliAsync(['update', 'cluster', name, '--yes', '--state', store], env);
  expect(up.stderr).not.toMatch(/Error/);
  expect(up.status).toBe(0);
  const key = `kubernetes.io/cluster/${name}`;
  const tables = (await ec2.send(new DescribeRouteTablesCommand({ Filters: [{ Name: `tag:${key}`, Values: ['owned'] }] }))).RouteTables ?? [];
  expect(tables.map((t) => [t.VpcId, t.Routes?.find((r) => r.DestinationCidrBlock === '0.0.0.0/0')?.GatewayId])).toEqual([[vpc, igw]]);
  expect(await describeIgw()).toEqual(before);
  const del = await runCliAsync(['delete', 'cluster', name, '--yes', '--state', store], env);
  expect(del.status).toBe(0);
  expect(await describeIgw()).toEqual(before);
  expect((await ec2.send(new DescribeVpcsCommand({ VpcIds: [vpc] }))).Vpcs?.[0].Tags).toEqual(expect.not.arrayContaining([{ Key: key, Value: 'shared' }]));
}, 120_000);

describe('where the account may not tag the shared VPC and subnets', () => {
  let authMoto: MotoServer;
  let user: { accessKeyId: string; secretAccessKey: string };
  let ids: { vpc: string; subnet: string };

  beforeAll(async () => {
    // The first five calls (the setup below) are unauthenticated; every later one is checked against IAM.
    authMoto = await startMotoServer({ env: { ...MOTO_WITH_DEFAULT_IMAGE, INITIAL_NO_AUTH_ACTION_COUNT: '5' } });
    const client = { region: 'us-east-1', endpoint: authMoto.endpoint, credentials: CREDENTIALS };
    const setupIam = new IAMClient(client);
    const setupEc2 = new EC2Client(client);
    await setupIam.send(new CreateUserCommand({ UserName: 'cluster-admin' }));
    const key = (await setupIam.send(new CreateAccessKeyCommand({ UserName: 'cluster-admin' }))).AccessKey;
    user = { accessKeyId: key?.AccessKeyId as string, secretAccessKey: key?.SecretAccessKey as string };
    // The proxy that makes the API load balancer's interfaces (as AWS does) calls the IAM-enforcing moto as this user.
    await authMoto.setProxyKeys(user);
    // Everything but tagging, as for a VPC another account shares with this one.
    const policy = { Version: '2012-10-17', Statement: [{ Effect: 'Allow', Action: '*', Resource: '*' }, { Effect: 'Deny', Action: 'ec2:CreateTags', Resource: '*' }] };
    await setupIam.send(new PutUserPolicyCommand({ UserName: 'cluster-admin', PolicyName: 'no-tagging', PolicyDocument: JSON.stringify(policy) }));
    const vpc = (await setupEc2.send(new CreateVpcCommand({ CidrBlock: '10.0.0.0/16', TagSpecifications: [{ ResourceType: 'vpc', Tags: FOREIGN }] }))).Vpc?.VpcId as string;
    const subnet = (await setupEc2.send(new CreateSubnetCommand({ VpcId: vpc, CidrBlock: '10.0.1.0/24', AvailabilityZone: 'us-east-1a', TagSpecifications: [{ ResourceType: 'subnet', Tags: FOREIGN }] }))).Subnet?.SubnetId as string;
    ids = { vpc, subnet };
    setupIam.destroy();
    setupEc2.destroy();
  });

  afterAll(async () => {
    await authMoto?.stop();
  });

  it('update --yes uses them untagged (UnauthorizedOperation is not an error), and delete --yes reports them', async () => {
    const name = 'untaggable.example.com';
    const p = newCluster({ name, zones: ['us-east-1a'], vpc: ids.vpc, networkCidr: '10.0.0.0/16', subnets: [ids.subnet] });
    for (const s of p.cluster.spec.subnets ?? []) s.cidr = '10.0.1.0/24';
    await saveCluster(openVfs(store), p);
    const userEnv = { ...env, ...authMoto.env, AWS_ENDPOINT_URL: authMoto.endpoint, AWS_ACCESS_KEY_ID: user.accessKeyId, AWS_SECRET_ACCESS_KEY: user.secretAccessKey };
    const up = await runCliAsync(['update', 'cluster', name, '--yes', '--state', store], userEnv);
    expect(up.stderr).not.toMatch(/Error/);
    expect(up.status).toBe(0);
    const check = new EC2Client({ region: 'us-east-1', endpoint: authMoto.endpoint, credentials: user });
    const tagsOf = async () => [
      (await check.send(new DescribeVpcsCommand({ VpcIds: [ids.vpc] }))).Vpcs?.[0].Tags,
      (await check.send(new DescribeSubnetsCommand({ SubnetIds: [ids.subnet] }))).Subnets?.[0].Tags,
    ];
    const sorted = (tags: Tag[] | undefined) => [...(tags ?? [])].sort((a, b) => ((a.Key ?? '') < (b.Key ?? '') ? -1 : 1));
    expect((await tagsOf()).map(sorted)).toEqual([sorted(FOREIGN), sorted(FOREIGN)]);
    const del = await runCliAsync(['delete', 'cluster', name, '--yes', '--state', store, '-o', 'json'], userEnv);
    expect(del.status).toBe(0);
    expect((JSON.parse(del.stdout) as { shared: unknown[] }).shared).toEqual([
      { type: 'subnet', name: ids.subnet, id: ids.subnet, untagged: false },
      { type: 'vpc', name: ids.vpc, id: ids.vpc, untagged: false },
    ]);
    expect((await tagsOf()).map(sorted)).toEqual([sorted(FOREIGN), sorted(FOREIGN)]);
    check.destroy();
  }, 120_000);
});
