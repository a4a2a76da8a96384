import { CreateLoadBalancerCommand, DescribeListenersCommand, DescribeLoadBalancerAttributesCommand, DescribeTargetGroupAttributesCommand, DescribeLoadBalancersCommand, DescribeTagsCommand, DescribeTargetGroupsCommand, ElasticLoadBalancingV2Client } from '@aws-sdk/client-elastic-load-balancing-v2';
import { ChangeResourceRecordSetsCommand, CreateHostedZoneCommand, ListResourceRecordSetsCommand, Route53Client } from '@aws-sdk/client-route-53';
import { CreateSubnetCommand, CreateVpcCommand, EC2Client } from '@aws-sdk/client-ec2';
import type { Cluster } from '../../../src/api/types';
import { AwsCloud } from '../../../src/cloud/aws/aws-cloud';
import { awsResourceName32 } from '../../../src/cloud/aws/aws-resource-name32';
import { awsTaskExecutor } from '../../../src/cloud/aws/aws-task-executor';
import { DnsZoneNotFoundError } from '../../../src/errors/dns-zone-not-found-error';
import type { ResourceNotOwnedError } from '../../../src/cloud/aws/resource-not-owned-error';
import { newCluster } from '../../../src/create/new-cluster';
import { buildAwsTasks } from '../../../src/model/aws/aws-model-builder';
import { completeCluster } from '../../../src/ops/expand-cluster';
import { TaskFailedError } from '../../../src/tasks/task-failed-error';
import { applyPlan } from '../../../src/targets/direct-target';
import { renderPlan } from '../../../src/targets/dry-run-target';
import { MotoServer, startMotoServer } from '../../helpers/moto-server';
import { losingProxy } from './losing-proxy';
import { TEST_CLUSTER_UID } from '../../helpers/cluster-layout';

const CREDENTIALS = { accessKeyId: 'test', secretAccessKey: 'test' };
let moto: MotoServer;
let elbv2: ElasticLoadBalancingV2Client;
let route53: Route53Client;
let ec2: EC2Client;

beforeAll(async () => {
  moto = await startMotoServer();
  elbv2 = new ElasticLoadBalancingV2Client({ region: 'us-east-1', endpoint: moto.endpoint, credentials: CREDENTIALS });
  route53 = new Route53Client({ region: 'us-east-1', endpoint: moto.endpoint, credentials: CREDENTIALS });
  ec2 = new EC2Client({ region: 'us-east-1', endpoint: moto.endpoint, credentials: CREDENTIALS });
});

afterAll(async () => {
  elbv2?.destroy();
  route53?.destroy();
  ec2?.destroy();
  await moto?.stop();
});

type Options = Parameters<typeof newCluster>[0];

function cluster(name: string, options: Partial<Options> = {}): Cluster {
  const { cluster: c, instanceGroups } = newCluster({ name, zones: ['us-east-1a', 'us-east-1b'], cloudLabels: { team: 'infra' }, ...options });
  return completeCluster(c, instanceGroups, 'memfs://store');
}

/** Finds, plans and (optionally) applies the cluster's tasks in a fresh run, as a command would. */
async function run(c: Cluster, apply: boolean, endpoint = moto.endpoint): Promise<{ cloud: AwsCloud; text: string; hasChanges: boolean }> {
  const cloud = new AwsCloud({ clusterName: c.metadata.name, region: 'us-east-1', env: { AWS_ENDPOINT_URL: endpoint }, credentials: CREDENTIALS, maxAttempts: 2, clusterUid: TEST_CLUSTER_UID });
  // IAM has its own test; its calls would blur the numbers here.
  const tasks = buildAwsTasks(c).filter((t) => !t.kind.startsWith('IAM'));
  const executor = awsTaskExecutor(cloud, tasks, { backoffMs: 20 });
  const plan = await executor.plan();
  const text = renderPlan(plan);
  if (apply) await applyPlan(executor, plan);
  return { cloud, text, hasChanges: plan.hasChanges };
}

const ELBV2_AND_ROUTE53 = /^(Describe(LoadBalancers|LoadBalancerAttributes|TargetGroups|TargetGroupAttributes|Listeners|Tags)|ListHostedZonesByName|GetHostedZone|ListResourceRecordSets)$/;

/** The ELBv2 and Route 53 calls of a run (the network's own are counted in aws-network-tasks.test.ts). */
function endpointCalls(cloud: AwsCloud): Record<string, number> {
  return Object.fromEntries(Object.entries(cloud.calls.snapshot()).filter(([op]) => ELBV2_AND_ROUTE53.test(op)));
}

describe('API load balancer (--dns none)', () => {
  const name = 'nlb.example.com';
  const spec = cluster(name, { dns: 'none' });

  it('plans one NLB, the API and node-identity target groups and listeners; applies; then plans nothing with a fixed number of calls', async () => {
    const first = await run(spec, true);
    expect(first.text).toContain(`+ create NetworkLoadBalancer/api-nlb-example-com\n`);
    expect(first.text).toContain(`+ create TargetGroup/${awsResourceName32(name, 'tcp')}\n`);
    expect(first.text).toContain(`+ create Listener/api-nlb-example-com-443\n`);
    // Without DNS, workers reach the node-identity service (port 3988) through the load balancer, as in kops.
    expect(first.text).toContain(`+ create TargetGroup/${awsResourceName32(name, 'kops-controller')}\n`);
    expect(first.text).toContain(`+ create Listener/api-nlb-example-com-3988\n`);
    expect(first.text).toContain(`+ create SecurityGroupRule/https-elb-to-master\n`);
    expect(first.text).not.toContain('DNSRecord');
    expect(first.cloud.calls.byOperation.get('CreateLoadBalancer')).toBe(1);
    expect(first.cloud.calls.byOperation.get('CreateTargetGroup')).toBe(2);
    expect(first.cloud.calls.byOperation.get('CreateListener')).toBe(2);

    const second = await run(spec, true);
    expect(second.hasChanges).toBe(false);
    expect(second.text).toMatch(/^No changes \(\d+ resources\)$/m);
    expect(second.cloud.calls.mutating).toBe(0);
    // DescribeLoadBalancers, DescribeTags and DescribeLoadBalancerAttributes for the NLB, DescribeTargetGroups,
    // DescribeTags and DescribeTargetGroupAttributes for the target group, DescribeListeners for the listener.
    // (Each of the two target groups, the API's and the node-identity service's, costs its own three.)
    expect(endpointCalls(second.cloud)).toEqual({
      DescribeLoadBalancers: 1,
      DescribeLoadBalancerAttributes: 1,
      DescribeTargetGroups: 2,
      DescribeTargetGroupAttributes: 2,
      DescribeTags: 3,
      DescribeListeners: 1,
    });
    // The network's 7 plus those 10.
    expect(second.cloud.calls.calls).toBe(17);
  });

  it('made them with kops names, scheme, subnets and tags (read with a plain ELBv2 client)', async () => {
    const lbName = awsResourceName32(name, 'api');
    expect(lbName).toMatch(/^api-nlb-example-com-[0-9a-v]{6}$/);
    const lbs = (await elbv2.send(new DescribeLoadBalancersCommand({ Names: [lbName] }))).LoadBalancers ?? [];
    expect(lbs).toHaveLength(1);
    const lb = lbs[0];
    expect(lb.Type).toBe('network');
    expect(lb.Scheme).toBe('internet-facing');
    expect(lb.AvailabilityZones?.map((z) => z.ZoneName).sort()).toEqual(['us-east-1a', 'us-east-1b']);
    const tgs = (await elbv2.send(new DescribeTargetGroupsCommand({ Names: [awsResourceName32(name, 'tcp')] }))).TargetGroups ?? [];
    expect(tgs).toHaveLength(1);
    expect(tgs[0]).toMatchObject({ Protocol: 'TCP', Port: 443, HealthCheckProtocol: 'TCP', HealthCheckIntervalSeconds: 10, HealthyThresholdCount: 2, UnhealthyThresholdCount: 2, VpcId: lb.VpcId });
    const tgAttributes = (await elbv2.send(new DescribeTargetGroupAttributesCommand({ TargetGroupArn: tgs[0].TargetGroupArn }))).Attributes ?? [];
    expect(Object.fromEntries(tgAttributes.map((a) => [a.Key, a.Value]))).toMatchObject({
      'deregistration_delay.timeout_seconds': '30',
      'deregistration_delay.connection_termination.enabled': 'true',
    });
    const tags = (await elbv2.send(new DescribeTagsCommand({ ResourceArns: [lb.LoadBalancerArn ?? '', tgs[0].TargetGroupArn ?? ''] }))).TagDescriptions ?? [];
    const byArn = new Map(tags.map((d) => [d.ResourceArn, Object.fromEntries((d.Tags ?? []).map((t) => [t.Key, t.Value]))]));
    const owned = { KubernetesCluster: name, [`kubernetes.io/cluster/${name}`]: 'owned', team: 'infra' };
    expect(byArn.get(lb.LoadBalancerArn)).toEqual({ ...owned, Name: `api.${name}` });
    expect(byArn.get(tgs[0].TargetGroupArn)).toEqual({ ...owned, Name: awsResourceName32(name, 'tcp') });
    const listeners = (await elbv2.send(new DescribeListenersCommand({ LoadBalancerArn: lb.LoadBalancerArn }))).Listeners ?? [];
    const kc = (await elbv2.send(new DescribeTargetGroupsCommand({ Names: [awsResourceName32(name, 'kops-controller')] }))).TargetGroups ?? [];
    expect(kc[0]).toMatchObject({ Protocol: 'TCP', Port: 3988, VpcId: lb.VpcId });
    const target = (arn: string | undefined) => (arn === tgs[0].TargetGroupArn ? 'api' : arn === kc[0].TargetGroupArn ? 'kops-controller' : arn);
    expect(listeners.map((l) => `${l.Protocol} ${l.Port} -> ${target(l.DefaultActions?.[0]?.TargetGroupArn)}`).sort()).toEqual(['TCP 3988 -> kops-controller', 'TCP 443 -> api']);
  });

  it('turns cross-zone load balancing on and off', async () => {
    const attribute = async (): Promise<string | undefined> => {
      const lb = (await elbv2.send(new DescribeLoadBalancersCommand({ Names: [awsResourceName32(name, 'api')] }))).LoadBalancers?.[0];
      const attrs = (await elbv2.send(new DescribeLoadBalancerAttributesCommand({ LoadBalancerArn: lb?.LoadBalancerArn }))).Attributes ?? [];
      return attrs.find((a) => a.Key === 'load_balancing.cross_zone.enabled')?.Value;
    };
    const crossZone = cluster(name, { dns: 'none' });
    (crossZone.spec.api as { loadBalancer: { crossZoneLoadBalancing?: boolean } }).loadBalancer.crossZoneLoadBalancing = true;
    const on = await run(crossZone, true);
    expect(on.text).toContain('~ update NetworkLoadBalancer/api-nlb-example-com: crossZoneLoadBalancing: false -> true\n');
    expect(await attribute()).toBe('true');
    expect((await run(crossZone, false)).hasChanges).toBe(false);
    const off = await run(spec, true);
    expect(off.text).toContain('crossZoneLoadBalancing: true -> false');
    expect(await attribute()).toBe('false');
  });

  it('refuses to change the scheme of the load balancer', async () => {
    const internal = cluster(name, { dns: 'none', apiLoadBalancerType: 'internal', topology: 'private', networking: 'calico' });
    await expect(run(internal, false)).rejects.toThrow(/NetworkLoadBalancer\/api-nlb-example-com: cannot change scheme from "internet-facing" to "internal"/);
  });
});

describe('a load balancer of the same name that is not the cluster’s', () => {
  it('is refused with NOT_OWNED, not adopted, before any change', async () => {
    const name = 'foreign.example.com';
    const vpc = await ec2.send(new CreateVpcCommand({ CidrBlock: '10.8.0.0/16' }));
    const subnet = await ec2.send(new CreateSubnetCommand({ VpcId: vpc.Vpc?.VpcId, CidrBlock: '10.8.0.0/24', AvailabilityZone: 'us-east-1a' }));
    await elbv2.send(new CreateLoadBalancerCommand({ Name: awsResourceName32(name, 'api'), Type: 'network', Subnets: [subnet.Subnet?.SubnetId ?? ''] }));
    const error = await run(cluster(name, { dns: 'none' }), false).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(TaskFailedError);
    expect(((error as TaskFailedError).cause as ResourceNotOwnedError).code).toBe('NOT_OWNED');
    expect((error as Error).message).toContain(`NetworkLoadBalancer/api-foreign-example-com: a load balancer named "${awsResourceName32(name, 'api')}" exists but is not tagged as cluster ${name}'s`);
  });
});

describe('API DNS records (--dns public and private)', () => {
  it('writes placeholders api.<c> and api.internal.<c> in the zone, and leaves them alone afterwards', async () => {
    await route53.send(new CreateHostedZoneCommand({ Name: 'example.org', CallerReference: 'kforge-test-public' }));
    const name = 'dns.example.org';
    const spec = cluster(name, { dns: 'public', dnsZone: 'example.org' });
    const first = await run(spec, true);
    expect(first.text).toContain(`+ create DNSRecord/api.${name}\n`);
    expect(first.text).toContain(`+ create DNSRecord/api.internal.${name}\n`);
    expect(first.text).not.toContain('NetworkLoadBalancer');

    const zoneId = await zoneIdOf('example.org.');
    const records = await aRecords(zoneId);
    expect(records).toEqual({ [`api.${name}.`]: '203.0.113.123', [`api.internal.${name}.`]: '203.0.113.123' });

    // dns-controller replaces the placeholder with the control plane's address: kforge keeps its hands off.
    await route53.send(
      new ChangeResourceRecordSetsCommand({
        HostedZoneId: zoneId,
        ChangeBatch: { Changes: [{ Action: 'UPSERT', ResourceRecordSet: { Name: `api.${name}`, Type: 'A', TTL: 60, ResourceRecords: [{ Value: '172.20.32.10' }] } }] },
      }),
    );
    const second = await run(spec, true);
    expect(second.hasChanges).toBe(false);
    expect(second.cloud.calls.mutating).toBe(0);
    expect(endpointCalls(second.cloud)).toEqual({ ListHostedZonesByName: 1, ListResourceRecordSets: 1 });
    expect((await aRecords(zoneId))[`api.${name}.`]).toBe('172.20.32.10');
  });

  it('aliases api.<c> to the load balancer when there is one, and converges', async () => {
    const name = 'alias.example.org';
    const spec = cluster(name, { dns: 'public', dnsZone: 'example.org', apiLoadBalancerType: 'public' });
    const first = await run(spec, true);
    expect(first.text).toContain(`+ create NetworkLoadBalancer/api-alias-example-org\n`);
    const zoneId = await zoneIdOf('example.org.');
    const sets = (await route53.send(new ListResourceRecordSetsCommand({ HostedZoneId: zoneId }))).ResourceRecordSets ?? [];
    const api = sets.find((r) => r.Name === `api.${name}.` && r.Type === 'A');
    const lb = (await elbv2.send(new DescribeLoadBalancersCommand({ Names: [awsResourceName32(name, 'api')] }))).LoadBalancers?.[0];
    expect(api?.AliasTarget?.DNSName?.replace(/\.$/, '').toLowerCase()).toBe(lb?.DNSName?.toLowerCase());
    expect(api?.AliasTarget?.HostedZoneId).toBe(lb?.CanonicalHostedZoneId);
    expect((await aRecords(zoneId))[`api.internal.${name}.`]).toBe('203.0.113.123');

    const second = await run(spec, true);
    expect(second.hasChanges).toBe(false);
    expect(second.cloud.calls.mutating).toBe(0);
    expect(endpointCalls(second.cloud)).toEqual({
      DescribeLoadBalancers: 1,
      DescribeLoadBalancerAttributes: 1,
      DescribeTargetGroups: 1,
      DescribeTargetGroupAttributes: 1,
      DescribeTags: 2,
      DescribeListeners: 1,
      ListHostedZonesByName: 1,
      ListResourceRecordSets: 1,
    });
  });

  it('turns the placeholder into an alias when the API moves behind a load balancer', async () => {
    const name = 'moved.example.org';
    await run(cluster(name, { dns: 'public', dnsZone: 'example.org' }), true);
    const behindLb = cluster(name, { dns: 'public', dnsZone: 'example.org', apiLoadBalancerType: 'public' });
    const plan = await run(behindLb, true);
    expect(plan.text).toContain(`~ update DNSRecord/api.${name}: aliasDnsName: ["203.0.113.123"] -> "<api-moved-example-org>"`);
    expect(plan.cloud.calls.byOperation.get('ChangeResourceRecordSets')).toBe(1);
    const zoneId = await zoneIdOf('example.org.');
    const sets = (await route53.send(new ListResourceRecordSetsCommand({ HostedZoneId: zoneId }))).ResourceRecordSets ?? [];
    expect(sets.filter((r) => r.Name === `api.${name}.`).map((r) => `${r.Type} ${r.AliasTarget ? 'alias' : 'plain'}`)).toEqual(['A alias']);
    // The internal name keeps its placeholder (no useForInternalApi), and the next run changes nothing.
    expect((await aRecords(zoneId))[`api.internal.${name}.`]).toBe('203.0.113.123');
    expect((await run(behindLb, false)).hasChanges).toBe(false);
  });

  it('with --dns private, uses the private zone even when a public zone has the same name', async () => {
    const vpc = await ec2.send(new CreateVpcCommand({ CidrBlock: '10.9.0.0/16' }));
    await route53.send(new CreateHostedZoneCommand({ Name: 'internal.test', CallerReference: 'kforge-pub' }));
    const priv = await route53.send(
      new CreateHostedZoneCommand({
        Name: 'internal.test',
        CallerReference: 'kforge-priv',
        VPC: { VPCId: vpc.Vpc?.VpcId, VPCRegion: 'us-east-1' },
        HostedZoneConfig: { PrivateZone: true, Comment: 'private' },
      }),
    );
    const name = 'priv.internal.test';
    const spec = cluster(name, { dns: 'private', dnsZone: 'internal.test', topology: 'private', networking: 'calico' });
    await run(spec, true);
    const privId = (priv.HostedZone?.Id ?? '').replace(/^\/hostedzone\//, '');
    const sets = (await route53.send(new ListResourceRecordSetsCommand({ HostedZoneId: privId }))).ResourceRecordSets ?? [];
    expect(sets.filter((r) => r.Name?.endsWith(`${name}.`)).map((r) => `${r.Name} ${r.AliasTarget ? 'alias' : (r.ResourceRecords?.[0]?.Value ?? '')}`).sort()).toEqual([
      `api.internal.${name}. 203.0.113.123`,
      `api.${name}. alias`,
    ]);
    const again = await run(spec, false);
    expect(again.hasChanges).toBe(false);
    expect(endpointCalls(again.cloud)).toMatchObject({ ListHostedZonesByName: 1, ListResourceRecordSets: 1 });
  });

  it('refuses a zone that does not exist, naming spec.dnsZone, before any change', async () => {
    const spec = cluster('nozone.example.net', { dns: 'public', dnsZone: 'example.net' });
    const cloud = new AwsCloud({ clusterName: spec.metadata.name, region: 'us-east-1', env: { AWS_ENDPOINT_URL: moto.endpoint }, credentials: CREDENTIALS, maxAttempts: 2, clusterUid: TEST_CLUSTER_UID });
    const executor = awsTaskExecutor(cloud, buildAwsTasks(spec), { backoffMs: 20 });
    const error = await executor.plan().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(TaskFailedError);
    const cause = (error as TaskFailedError).cause;
    expect(cause).toBeInstanceOf(DnsZoneNotFoundError);
    expect((cause as DnsZoneNotFoundError).code).toBe('DNS_ZONE_NOT_FOUND');
    expect((error as Error).message).toMatch(/spec\.dnsZone: no public Route 53 hosted zone "example\.net"/);
    expect(cloud.calls.mutating).toBe(0);
  });
});

async function zoneIdOf(fqdn: string): Promise<string> {
  const { ListHostedZonesByNameCommand } = await import('@aws-sdk/client-route-53');
  const zones = (await route53.send(new ListHostedZonesByNameCommand({ DNSName: fqdn }))).HostedZones ?? [];
  return (zones.find((z) => z.Name === fqdn)?.Id ?? '').replace(/^\/hostedzone\//, '');
}

/** The zone's plain A records, name → first value. */
async function aRecords(zoneId: string): Promise<Record<string, string>> {
  const sets = (await route53.send(new ListResourceRecordSetsCommand({ HostedZoneId: zoneId }))).ResourceRecordSets ?? [];
  return Object.fromEntries(sets.filter((r) => r.Type === 'A' && r.ResourceRecords?.length).map((r) => [r.Name ?? '', r.ResourceRecords?.[0]?.Value ?? '']));
}

describe('creates whose answer is lost', () => {
  it('a lost CreateLoadBalancer is found by name and tags, not made twice', async () => {
    const name = 'lostlb.example.com';
    const proxy = await losingProxy(moto.endpoint, 'Action=CreateLoadBalancer');
    try {
      const { cloud } = await run(cluster(name, { dns: 'none' }), true, proxy.endpoint);
      expect(proxy.lost).toBe(1);
      expect(cloud.calls.byOperation.get('CreateLoadBalancer')).toBe(1);
    } finally {
      await proxy.stop();
    }
    const lbs = (await elbv2.send(new DescribeLoadBalancersCommand({ Names: [awsResourceName32(name, 'api')] }))).LoadBalancers ?? [];
    expect(lbs).toHaveLength(1);
    expect((await run(cluster(name, { dns: 'none' }), false)).hasChanges).toBe(false);
  });

  it('a placeholder CREATE the SDK resends after a lost answer succeeds (the record is there)', async () => {
    await route53.send(new CreateHostedZoneCommand({ Name: 'lost.example', CallerReference: 'kforge-lost' }));
    const name = 'c.lost.example';
    const spec = cluster(name, { dns: 'public', dnsZone: 'lost.example' });
    const proxy = await losingProxy(moto.endpoint, '<Value>203.0.113.123</Value>');
    try {
      const { cloud } = await run(spec, true, proxy.endpoint);
      expect(proxy.lost).toBe(1);
      // The SDK resent the first CREATE (an attempt more than calls), which failed as the record was there;
      // the task looked again (a second ListResourceRecordSets) and took that as done.
      expect(cloud.calls.attempts).toBe(cloud.calls.calls + 1);
      expect(cloud.calls.snapshot()).toMatchObject({ ChangeResourceRecordSets: 2, ListResourceRecordSets: 2 });
    } finally {
      await proxy.stop();
    }
    expect(await aRecords(await zoneIdOf('lost.example.'))).toEqual({ [`api.${name}.`]: '203.0.113.123', [`api.internal.${name}.`]: '203.0.113.123' });
    expect((await run(spec, false)).hasChanges).toBe(false);
  });
});
