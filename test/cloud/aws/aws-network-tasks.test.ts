import { DescribeAddressesCommand, DescribeInternetGatewaysCommand, DescribeNatGatewaysCommand, DescribeRouteTablesCommand, DescribeSecurityGroupsCommand, DescribeSubnetsCommand, DescribeVpcAttributeCommand, DescribeVpcsCommand, EC2Client, Filter, IpPermission } from '@aws-sdk/client-ec2';
import type { Cluster } from '../../../src/api/types';
import { AwsCloud } from '../../../src/cloud/aws/aws-cloud';
import { awsTaskExecutor } from '../../../src/cloud/aws/aws-task-executor';
import { newCluster } from '../../../src/create/new-cluster';
import { buildAwsTasks } from '../../../src/model/aws/aws-model-builder';
import { completeCluster } from '../../../src/ops/expand-cluster';
import { applyPlan } from '../../../src/targets/direct-target';
import { renderPlan } from '../../../src/targets/dry-run-target';
import { MotoServer, startMotoServer } from '../../helpers/moto-server';
import { losingProxy } from './losing-proxy';
import { TEST_CLUSTER_UID } from '../../helpers/cluster-layout';

const CREDENTIALS = { accessKeyId: 'test', secretAccessKey: 'test' };
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

function cluster(name: string, edit: (c: Cluster) => void = () => {}): Cluster {
  const { cluster: c, instanceGroups } = newCluster({ name, zones: ['us-east-1a', 'us-east-1b', 'us-east-1c'], cloudLabels: { team: 'infra' } });
  const completed = completeCluster(c, instanceGroups, 'memfs://store');
  edit(completed);
  return completed;
}

function awsCloud(name: string, endpoint = moto.endpoint): AwsCloud {
  return new AwsCloud({ clusterName: name, region: 'us-east-1', env: { AWS_ENDPOINT_URL: endpoint }, credentials: CREDENTIALS, maxAttempts: 2, clusterUid: TEST_CLUSTER_UID });
}

/** Finds, plans and (optionally) applies the cluster's tasks in a fresh run, as a command would. */
async function run(c: Cluster, apply: boolean, endpoint?: string): Promise<{ cloud: AwsCloud; text: string; hasChanges: boolean }> {
  const cloud = awsCloud(c.metadata.name, endpoint);
  // IAM and the API endpoint have their own moto tests (aws-iam-tasks.test.ts, aws-endpoint-tasks.test.ts);
  // their calls would blur the network's numbers here.
  const tasks = buildAwsTasks(c).filter((t) => !t.kind.startsWith('IAM') && !ENDPOINT_KINDS.has(t.kind));
  const executor = awsTaskExecutor(cloud, tasks, { backoffMs: 20 });
  const plan = await executor.plan();
  const text = renderPlan(plan);
  if (apply) await applyPlan(executor, plan);
  return { cloud, text, hasChanges: plan.hasChanges };
}

const ENDPOINT_KINDS = new Set(['NetworkLoadBalancer', 'TargetGroup', 'Listener', 'DNSRecord']);

const tagFilter = (name: string): Filter[] => [{ Name: 'tag:KubernetesCluster', Values: [name] }];

function rules(perms: IpPermission[] | undefined, groupNames: Map<string, string>): string[] {
  const out: string[] = [];
  for (const p of perms ?? []) {
    const ports = p.IpProtocol === 'tcp' || p.IpProtocol === 'udp' ? ` ${p.FromPort}-${p.ToPort}` : '';
    const head = `${p.IpProtocol}${ports}`;
    for (const r of p.IpRanges ?? []) out.push(`${head} ${r.CidrIp}`);
    for (const r of p.Ipv6Ranges ?? []) out.push(`${head} ${r.CidrIpv6}`);
    for (const g of p.UserIdGroupPairs ?? []) out.push(`${head} ${groupNames.get(g.GroupId ?? '') ?? g.GroupId}`);
  }
  return out.sort();
}

describe('AWS network tasks against moto', () => {
  const name = 'net.example.com';
  const spec = cluster(name, (c) => (c.spec.nodePortAccess = ['10.0.0.0/8']));

  it('plans creates, applies them, then plans and applies nothing', async () => {
    const first = await run(spec, true);
    expect(first.hasChanges).toBe(true);
    expect(first.text).toContain('+ create VPC/net.example.com\n');
    expect(first.text).toContain('+ create Subnet/us-east-1a.net.example.com\n');
    expect(first.text).toContain('+ create SecurityGroupRule/from-nodes.net.example.com-ingress-tcp-1to2379-masters.net.example.com\n');
    expect(first.text).not.toContain('~ update');
    expect(first.cloud.calls.mutating).toBeGreaterThan(0);

    const second = await run(spec, true);
    expect(second.hasChanges).toBe(false);
    expect(second.text).not.toMatch(/^[+~] /m);
    expect(second.text).toMatch(/^No changes \(\d+ resources\)$/m);
    expect(second.cloud.calls.mutating).toBe(0);
    expect(second.cloud.calls.snapshot()).toEqual({
      DescribeInternetGateways: 1,
      DescribeRouteTables: 1,
      DescribeSecurityGroups: 1,
      DescribeSubnets: 1,
      DescribeVpcAttribute: 2,
      DescribeVpcs: 1,
    });
  });

  it('made the resources with kops tags, CIDRs, attributes, routes and rules (read with a plain EC2 client)', async () => {
    const vpcs = (await ec2.send(new DescribeVpcsCommand({ Filters: tagFilter(name) }))).Vpcs ?? [];
    expect(vpcs).toHaveLength(1);
    const vpc = vpcs[0];
    expect(vpc.CidrBlock).toBe('172.20.0.0/16');
    const tags = Object.fromEntries((vpc.Tags ?? []).map((t) => [t.Key, t.Value]));
    expect(tags).toEqual({ KubernetesCluster: name, [`kubernetes.io/cluster/${name}`]: 'owned', Name: name, team: 'infra' });
    const dnsSupport = await ec2.send(new DescribeVpcAttributeCommand({ VpcId: vpc.VpcId, Attribute: 'enableDnsSupport' }));
    const dnsHostnames = await ec2.send(new DescribeVpcAttributeCommand({ VpcId: vpc.VpcId, Attribute: 'enableDnsHostnames' }));
    expect(dnsSupport.EnableDnsSupport?.Value).toBe(true);
    expect(dnsHostnames.EnableDnsHostnames?.Value).toBe(true);

    const subnets = (await ec2.send(new DescribeSubnetsCommand({ Filters: tagFilter(name) }))).Subnets ?? [];
    const bySpec = (spec.spec.subnets ?? []).map((s) => `${s.zone} ${s.cidr} ${s.name}.${name} ${s.type}`).sort();
    const actual = subnets
      .map((s) => {
        const t = Object.fromEntries((s.Tags ?? []).map((x) => [x.Key, x.Value]));
        expect(t['kubernetes.io/role/elb']).toBe('1');
        expect(t.KubernetesCluster).toBe(name);
        expect(s.VpcId).toBe(vpc.VpcId);
        return `${s.AvailabilityZone} ${s.CidrBlock} ${t.Name} ${t.SubnetType}`;
      })
      .sort();
    expect(actual).toEqual(bySpec);
    expect(actual).toHaveLength(3);

    const igws = (await ec2.send(new DescribeInternetGatewaysCommand({ Filters: tagFilter(name) }))).InternetGateways ?? [];
    expect(igws).toHaveLength(1);
    expect(igws[0].Attachments?.map((a) => a.VpcId)).toEqual([vpc.VpcId]);

    const tables = (await ec2.send(new DescribeRouteTablesCommand({ Filters: tagFilter(name) }))).RouteTables ?? [];
    expect(tables).toHaveLength(1);
    expect(tables[0].Tags?.find((t) => t.Key === 'kubernetes.io/kops/role')?.Value).toBe('public');
    expect(tables[0].Routes?.find((r) => r.DestinationCidrBlock === '0.0.0.0/0')?.GatewayId).toBe(igws[0].InternetGatewayId);
    expect(tables[0].Associations?.filter((a) => !a.Main).map((a) => a.SubnetId).sort()).toEqual(subnets.map((s) => s.SubnetId).sort());

    const groups = (await ec2.send(new DescribeSecurityGroupsCommand({ Filters: tagFilter(name) }))).SecurityGroups ?? [];
    // The API load balancer has a group of its own (kops's api-elb).
    expect(groups.map((g) => g.GroupName).sort()).toEqual([`api-elb.${name}`, `masters.${name}`, `nodes.${name}`]);
    const names = new Map(groups.map((g) => [g.GroupId ?? '', (g.GroupName ?? '').split('.')[0]]));
    const masters = groups.find((g) => g.GroupName === `masters.${name}`);
    const nodes = groups.find((g) => g.GroupName === `nodes.${name}`);
    expect(rules(masters?.IpPermissions, names)).toEqual(
      // kops's: 443 (and path-MTU ICMP) only from the API load balancer's group; no IPIP (protocol 4) without Calico or kube-router.
      ['-1 masters', 'icmp api-elb', 'tcp 1-2379 nodes', 'tcp 22-22 0.0.0.0/0', 'tcp 22-22 ::/0', 'tcp 2383-4000 nodes', 'tcp 3988-3988 api-elb', 'tcp 4003-65535 nodes', 'tcp 443-443 api-elb', 'udp 1-65535 nodes'].sort(),
    );
    expect(rules(nodes?.IpPermissions, names)).toEqual(['-1 masters', '-1 nodes', 'tcp 22-22 0.0.0.0/0', 'tcp 22-22 ::/0', 'tcp 30000-32767 10.0.0.0/8', 'udp 30000-32767 10.0.0.0/8'].sort());
    expect(rules(nodes?.IpPermissionsEgress, names)).toEqual(['-1 0.0.0.0/0', '-1 ::/0']);
  });

  it('plans a tag change as an update, applies it, and refuses a VPC CIDR change', async () => {
    const relabelled = cluster(name, (c) => {
      c.spec.nodePortAccess = ['10.0.0.0/8'];
      c.spec.cloudLabels = { team: 'platform' };
    });
    const plan = await run(relabelled, true);
    expect(plan.text).toContain('~ update VPC/net.example.com: tags.team: "infra" -> "platform"\n');
    expect((await run(relabelled, false)).hasChanges).toBe(false);
    const moved = cluster(name, (c) => (c.spec.networkCIDR = '10.1.0.0/16'));
    await expect(run(moved, false)).rejects.toThrow(/VPC\/net\.example\.com: cannot change cidr from "172\.20\.0\.0\/16" to "10\.1\.0\.0\/16"/);
  });
});

describe('private topology in three zones', () => {
  const name = 'private.example.com';
  const priv = (): Cluster => {
    const { cluster: c, instanceGroups } = newCluster({ name, zones: ['us-east-1a', 'us-east-1b', 'us-east-1c'], topology: 'private', networking: 'calico' });
    return completeCluster(c, instanceGroups, 'memfs://store');
  };

  it('routes each private subnet through its zone’s NAT gateway, and converges', async () => {
    const first = await run(priv(), true);
    expect(first.text).toContain('+ create NatGateway/us-east-1b.private.example.com\n');
    const again = await run(priv(), true);
    expect(again.hasChanges).toBe(false);
    expect(again.cloud.calls.mutating).toBe(0);
    // Two more kinds than a public cluster: Elastic IPs and NAT gateways, one call each.
    expect(again.cloud.calls.calls).toBe(9);

    const eips = (await ec2.send(new DescribeAddressesCommand({ Filters: tagFilter(name) }))).Addresses ?? [];
    expect(eips).toHaveLength(3);
    const nats = (await ec2.send(new DescribeNatGatewaysCommand({ Filter: tagFilter(name) }))).NatGateways ?? [];
    expect(nats).toHaveLength(3);
    const subnets = (await ec2.send(new DescribeSubnetsCommand({ Filters: tagFilter(name) }))).Subnets ?? [];
    const subnetName = new Map(subnets.map((x) => [x.SubnetId ?? '', x.Tags?.find((t) => t.Key === 'Name')?.Value ?? '']));
    expect(nats.map((n) => `${subnetName.get(n.SubnetId ?? '')} ${eips.some((e) => e.AllocationId === n.NatGatewayAddresses?.[0]?.AllocationId)}`).sort()).toEqual(
      ['a', 'b', 'c'].map((z) => `utility-us-east-1${z}.${name} true`),
    );
    const tables = (await ec2.send(new DescribeRouteTablesCommand({ Filters: tagFilter(name) }))).RouteTables ?? [];
    const natName = new Map(nats.map((n) => [n.NatGatewayId ?? '', subnetName.get(n.SubnetId ?? '')]));
    const routes = tables
      .map((t) => {
        const role = t.Tags?.find((x) => x.Key === 'kubernetes.io/kops/role')?.Value;
        const def = t.Routes?.find((r) => r.DestinationCidrBlock === '0.0.0.0/0');
        const via = def?.NatGatewayId ? `nat in ${natName.get(def.NatGatewayId)}` : def?.GatewayId?.startsWith('igw-') ? 'igw' : '?';
        const members = (t.Associations ?? []).filter((a) => !a.Main).map((a) => subnetName.get(a.SubnetId ?? ''));
        return `${role}: ${via}: ${members.sort().join(' ')}`;
      })
      .sort();
    expect(routes).toEqual([
      `private-us-east-1a: nat in utility-us-east-1a.${name}: us-east-1a.${name}`,
      `private-us-east-1b: nat in utility-us-east-1b.${name}: us-east-1b.${name}`,
      `private-us-east-1c: nat in utility-us-east-1c.${name}: us-east-1c.${name}`,
      `public: igw: utility-us-east-1a.${name} utility-us-east-1b.${name} utility-us-east-1c.${name}`,
    ]);
    const privateTags = subnets.find((x) => subnetName.get(x.SubnetId ?? '') === `us-east-1a.${name}`)?.Tags ?? [];
    expect(Object.fromEntries(privateTags.map((t) => [t.Key, t.Value]))).toMatchObject({ SubnetType: 'Private', 'kubernetes.io/role/internal-elb': '1' });
  });
});

describe('API cost of a no-op plan', () => {
  /** A cluster with `n` subnets (spread over six zones) and `n` SSH sources, so resources and rules scale with n. */
  function scaled(name: string, n: number): Cluster {
    return cluster(name, (c) => {
      const zones = ['a', 'b', 'c', 'd', 'e', 'f'];
      c.spec.subnets = Array.from({ length: n }, (_, i) => ({ name: `s${i}`, zone: `us-east-1${zones[i % 6]}`, cidr: `172.20.${i * 4}.0/22`, type: 'Public' as const }));
      c.spec.sshAccess = Array.from({ length: n }, (_, i) => `192.0.2.${i}/32`);
    });
  }

  it('is the same for 1 and for 20 subnets and SSH sources', async () => {
    const counts: Record<number, { calls: number; byOperation: Record<string, number>; tasks: number }> = {};
    for (const n of [1, 20]) {
      const c = scaled(`cost${n}.example.com`, n);
      const created = await run(c, true);
      const noop = await run(c, false);
      expect(noop.hasChanges).toBe(false);
      counts[n] = { calls: noop.cloud.calls.calls, byOperation: noop.cloud.calls.snapshot(), tasks: buildAwsTasks(c).length };
      expect(created.cloud.calls.mutating).toBeGreaterThan(n);
    }
    expect(counts[20].tasks).toBeGreaterThan(counts[1].tasks + 50);
    expect(counts[20].calls).toBe(counts[1].calls);
    expect(counts[20].byOperation).toEqual(counts[1].byOperation);
    expect(counts[1].calls).toBe(7);
  });
});

describe('a create whose answer is lost', () => {
  it('is found by its tags and not made twice', async () => {
    const name = 'lost.example.com';
    const proxy = await losingProxy(moto.endpoint, 'Action=CreateVpc');
    try {
      const { cloud } = await run(cluster(name), true, proxy.endpoint);
      expect(proxy.lost).toBe(1);
      // The lost CreateVpc happened in moto; the retry found it instead of creating another.
      expect(cloud.calls.byOperation.get('CreateVpc')).toBe(1);
    } finally {
      await proxy.stop();
    }
    const vpcs = (await ec2.send(new DescribeVpcsCommand({ Filters: tagFilter(name) }))).Vpcs ?? [];
    expect(vpcs).toHaveLength(1);
    expect((await run(cluster(name), false)).hasChanges).toBe(false);
  });
});
