import { AutoScalingClient, DescribeAutoScalingGroupsCommand, DescribeLifecycleHooksCommand } from '@aws-sdk/client-auto-scaling';
import { KOPS_CONTROLLER_CA_FIXTURE } from '../../helpers/kops-controller-ca-fixture';
import {
  DescribeAddressesCommand,
  DescribeInternetGatewaysCommand,
  DescribeLaunchTemplatesCommand,
  DescribeNatGatewaysCommand,
  DescribeRouteTablesCommand,
  DescribeSecurityGroupsCommand,
  DescribeSubnetsCommand,
  DescribeVolumesCommand,
  DescribeVpcsCommand,
  EC2Client,
  Filter,
} from '@aws-sdk/client-ec2';
import { DescribeLoadBalancersCommand, DescribeTagsCommand, DescribeTargetGroupsCommand, ElasticLoadBalancingV2Client } from '@aws-sdk/client-elastic-load-balancing-v2';
import type { Cluster, InstanceGroup } from '../../../src/api/types';
import { buildAwsTasks } from '../../../src/model/aws/aws-model-builder';
import { completeCluster } from '../../../src/ops/expand-cluster';
import * as fs from 'node:fs';
import { newCluster } from '../../../src/create/new-cluster';
import { saveCluster } from '../../../src/ops/save-cluster';
import { openVfs } from '../../../src/state/vfs/open-vfs';
import { runCliAsync, startCli, tempDir } from '../../helpers/cli';
import { Fault, FaultProxy, startFaultProxy } from '../../helpers/fault-proxy';
import { MOTO_WITH_DEFAULT_IMAGE, MotoServer, startMotoServer } from '../../helpers/moto-server';

// `update --yes` (the CLI, as users run it) through a proxy that throttles, delays, drops connections and
// loses answers, in front of moto: it must still converge to exactly one of each resource. The SDK's own
// retries are off (AWS_MAX_ATTEMPTS=1) so that every fault reaches kforge's executor: find again, then
// retry. A child process also keeps socket errors real: inside jest's sandbox, Node's own errors fail
// `instanceof Error` and the SDK turns them into plain wrappers.

const CREDENTIALS = { accessKeyId: 'test', secretAccessKey: 'test' };
let moto: MotoServer;
let proxy: FaultProxy;
let ec2: EC2Client;
let elbv2: ElasticLoadBalancingV2Client;
let autoScaling: AutoScalingClient;
let store: string;

beforeAll(async () => {
  moto = await startMotoServer({ env: MOTO_WITH_DEFAULT_IMAGE });
  proxy = await startFaultProxy(moto.endpoint, 50);
  const client = { region: 'us-east-1', endpoint: moto.endpoint, credentials: CREDENTIALS };
  ec2 = new EC2Client(client);
  elbv2 = new ElasticLoadBalancingV2Client(client);
  autoScaling = new AutoScalingClient(client);
  store = tempDir('kforge-update-faults-');
});

afterAll(async () => {
  ec2?.destroy();
  elbv2?.destroy();
  autoScaling?.destroy();
  await proxy?.stop();
  await moto?.stop();
  if (store) fs.rmSync(store, { recursive: true, force: true });
});

/** A deterministic pseudo-random sequence (mulberry32), so a failure replays the same faults. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The proxy's rule: throttling, 503s, dropped connections, lost answers and latency for a share of the calls. */
function faulty(next: () => number): (req: { body: string }) => Fault | undefined {
  return (req) => {
    // The credentials check is one call before anything else; a fault there is a plain failure, tested elsewhere.
    if (req.body.includes('Action=GetCallerIdentity')) return undefined;
    const r = next();
    if (r < 0.06) return 'throttle';
    if (r < 0.09) return 'unavailable';
    if (r < 0.12) return 'drop-before';
    if (r < 0.15) return 'lose-response';
    if (r < 0.25) return 'delay';
    return undefined;
  };
}

const tagged = (name: string): Filter[] => [
  { Name: 'tag:KubernetesCluster', Values: [name] },
  { Name: `tag:kubernetes.io/cluster/${name}`, Values: ['owned'] },
];

/** One call to moto's JSON-protocol API (SQS's JSON 1.0, EventBridge's JSON 1.1): kforge ships no SDK client for them. */
async function motoJson(target: string, input: Record<string, unknown>): Promise<Record<string, unknown>> {
  const version = target.startsWith('AmazonSQS.') ? '1.0' : '1.1';
  const res = await fetch(moto.endpoint, {
    method: 'POST',
    headers: {
      'content-type': `application/x-amz-json-${version}`,
      'x-amz-target': target,
      // moto reads the region and the service from the credential scope; it checks no signature here.
      authorization: `AWS4-HMAC-SHA256 Credential=test/20260101/us-east-1/${target.startsWith('AmazonSQS.') ? 'sqs' : 'events'}/aws4_request, SignedHeaders=host, Signature=0`,
    },
    body: JSON.stringify(input),
  });
  expect(res.status).toBe(200);
  return (await res.json()) as Record<string, unknown>;
}

/**
 * The node-termination-handler's queue, rules and lifecycle hooks that exist, by the names the model gives them
 * (their APIs are keyed by name, so each exists once or not at all: this proves they were made, and removed).
 */
async function nthCounts(names: Record<'SQSQueue' | 'EventBridgeRule' | 'AutoScalingLifecycleHook', string[]>, groups: string[]): Promise<Record<string, number>> {
  const queueUrls = ((await motoJson('AmazonSQS.ListQueues', {})).QueueUrls as string[] | undefined) ?? [];
  const rules = ((await motoJson('AWSEvents.ListRules', {})).Rules as Array<{ Name: string }> | undefined) ?? [];
  let hooks = 0;
  for (const g of groups) {
    const found = (await autoScaling.send(new DescribeLifecycleHooksCommand({ AutoScalingGroupName: g }))).LifecycleHooks ?? [];
    hooks += found.filter((h) => names.AutoScalingLifecycleHook.includes(h.LifecycleHookName ?? '')).length;
  }
  return {
    SQSQueue: queueUrls.filter((u) => names.SQSQueue.includes(u.slice(u.lastIndexOf('/') + 1))).length,
    EventBridgeRule: rules.filter((r) => names.EventBridgeRule.includes(r.Name)).length,
    AutoScalingLifecycleHook: hooks,
  };
}

/** How many of each resource the cluster has in the cloud, by task kind (read with plain SDK clients). */
async function counts(name: string): Promise<Record<string, number>> {
  const f = { Filters: tagged(name) };
  const owned = (tags: Array<{ Key?: string; Value?: string }> | undefined): boolean => tags?.some((t) => t.Key === 'KubernetesCluster' && t.Value === name) === true;
  const lbs = (await elbv2.send(new DescribeLoadBalancersCommand({}))).LoadBalancers ?? [];
  const tgs = (await elbv2.send(new DescribeTargetGroupsCommand({}))).TargetGroups ?? [];
  const arns = [...lbs.map((l) => l.LoadBalancerArn as string), ...tgs.map((t) => t.TargetGroupArn as string)];
  const elbTags = arns.length ? ((await elbv2.send(new DescribeTagsCommand({ ResourceArns: arns }))).TagDescriptions ?? []) : [];
  const ownedArns = new Set(elbTags.filter((d) => owned(d.Tags)).map((d) => d.ResourceArn));
  return {
    VPC: (await ec2.send(new DescribeVpcsCommand(f))).Vpcs?.length ?? 0,
    Subnet: (await ec2.send(new DescribeSubnetsCommand(f))).Subnets?.length ?? 0,
    InternetGateway: (await ec2.send(new DescribeInternetGatewaysCommand(f))).InternetGateways?.length ?? 0,
    RouteTable: (await ec2.send(new DescribeRouteTablesCommand(f))).RouteTables?.length ?? 0,
    SecurityGroup: (await ec2.send(new DescribeSecurityGroupsCommand(f))).SecurityGroups?.length ?? 0,
    ElasticIP: (await ec2.send(new DescribeAddressesCommand(f))).Addresses?.length ?? 0,
    // moto ignores DescribeNatGateways' tag filters: the tags are checked here.
    NatGateway: (await ec2.send(new DescribeNatGatewaysCommand({ Filter: tagged(name) }))).NatGateways?.filter((n) => n.State !== 'deleted' && owned(n.Tags)).length ?? 0,
    EBSVolume: ((await ec2.send(new DescribeVolumesCommand(f))).Volumes ?? []).filter((v) => v.Tags?.some((t) => t.Key?.startsWith('k8s.io/etcd/'))).length,
    LaunchTemplate: (await ec2.send(new DescribeLaunchTemplatesCommand(f))).LaunchTemplates?.length ?? 0,
    AutoScalingGroup: ((await autoScaling.send(new DescribeAutoScalingGroupsCommand({}))).AutoScalingGroups ?? []).filter((g) => owned(g.Tags)).length,
    NetworkLoadBalancer: lbs.filter((l) => ownedArns.has(l.LoadBalancerArn)).length,
    TargetGroup: tgs.filter((t) => ownedArns.has(t.TargetGroupArn)).length,
  };
}

/** The tasks the model builds for a planned cluster. */
function modelTasks(planned: { cluster: Cluster; instanceGroups: InstanceGroup[] }): Array<{ kind: string; name: string }> {
  const completed = completeCluster(planned.cluster, planned.instanceGroups, 'memfs://x');
  const hashes = Object.fromEntries(planned.instanceGroups.map((ig) => [ig.metadata.name, '0'.repeat(64)]));
  return buildAwsTasks(completed, planned.instanceGroups, { kopsControllerCa: KOPS_CONTROLLER_CA_FIXTURE, nodeupConfigHashes: hashes });
}

const KINDS = ['VPC', 'Subnet', 'InternetGateway', 'RouteTable', 'SecurityGroup', 'ElasticIP', 'NatGateway', 'EBSVolume', 'LaunchTemplate', 'AutoScalingGroup', 'NetworkLoadBalancer', 'TargetGroup'];
const NTH_KINDS = ['SQSQueue', 'EventBridgeRule', 'AutoScalingLifecycleHook'] as const;

/** What the model says the cluster should have, counted by the same kinds as counts(). */
function expected(planned: { cluster: Cluster; instanceGroups: InstanceGroup[] }): Record<string, number> {
  const tasks = modelTasks(planned);
  return Object.fromEntries([...KINDS, ...NTH_KINDS].map((k) => [k, tasks.filter((t) => t.kind === k).length]));
}

/** counts() of the cloud plus the node-termination-handler's resources by the model's names. */
async function allCounts(planned: { cluster: Cluster; instanceGroups: InstanceGroup[] }): Promise<Record<string, number>> {
  const name = planned.cluster.metadata.name;
  const tasks = modelTasks(planned);
  const names = Object.fromEntries(NTH_KINDS.map((k) => [k, tasks.filter((t) => t.kind === k).map((t) => t.name)])) as Record<(typeof NTH_KINDS)[number], string[]>;
  const groups = ((await autoScaling.send(new DescribeAutoScalingGroupsCommand({}))).AutoScalingGroups ?? [])
    .filter((g) => g.Tags?.some((t) => t.Key === 'KubernetesCluster' && t.Value === name))
    .map((g) => g.AutoScalingGroupName as string);
  return { ...(await counts(name)), ...(await nthCounts(names, groups)) };
}

it('a private HA cluster in three zones converges to exactly one of each resource through throttling, latency and dropped connections', async () => {
  const name = 'faults.example.com';
  const vfs = openVfs(store);
  const planned = newCluster({ name, zones: ['us-east-1a', 'us-east-1b', 'us-east-1c'], controlPlaneCount: 3, topology: 'private', networking: 'calico', cloud: 'aws' });
  await saveCluster(vfs, { cluster: planned.cluster, instanceGroups: planned.instanceGroups });
  const env = { ...moto.env, AWS_ENDPOINT_URL: proxy.endpoint, AWS_MAX_ATTEMPTS: '1', AWS_EC2_METADATA_DISABLED: 'true', AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true', CI: 'true' };
  proxy.setRule(faulty(random(7)));
  const first = await runCliAsync(['update', 'cluster', name, '--yes', '--state', store], env);
  const faults = proxy.applied.map((a) => a.slice(a.lastIndexOf(' ') + 1));
  proxy.setRule(undefined);
  expect(first.stderr).not.toMatch(/Error/);
  expect(first.status).toBe(0);
  expect(first.stdout).toContain(`Cluster "${name}" updated.`);
  expect(first.stderr).toMatch(/retrying /);
  // Faults of every kind happened, or the test would prove nothing.
  for (const kind of ['throttle', 'unavailable', 'drop-before', 'lose-response', 'delay']) expect(faults).toContain(kind);

  const want = expected(planned);
  expect(want).toMatchObject({ VPC: 1, Subnet: 6, NatGateway: 3, LaunchTemplate: 6, AutoScalingGroup: 6, EBSVolume: 6, SQSQueue: 1, AutoScalingLifecycleHook: 6 });
  expect(want.EventBridgeRule).toBeGreaterThanOrEqual(4);
  expect(await allCounts(planned)).toEqual(want);
  const again = await runCliAsync(['update', 'cluster', name, '--state', store], env);
  expect(again.stdout).toMatch(/^No changes/);
  expect(await allCounts(planned)).toEqual(want);

  // delete --yes through the same faults (lost answers of deletes included) leaves nothing, and no state.
  proxy.setRule(faulty(random(11)));
  const deleted = await runCliAsync(['delete', 'cluster', name, '--yes', '--state', store], { ...env, KFORGE_TEST_DELETE_PACE: '50/20' });
  const deleteFaults = proxy.applied.map((a) => a.slice(a.lastIndexOf(' ') + 1));
  proxy.setRule(undefined);
  expect(deleted.stderr).not.toMatch(/Error/);
  expect(deleted.status).toBe(0);
  expect(deleteFaults).toContain('lose-response');
  expect(await allCounts(planned)).toEqual(Object.fromEntries(Object.keys(want).map((k) => [k, 0])));
  expect(fs.existsSync(`${store}/${name}`)).toBe(false);
  // A jest deadline, not a performance check: with the node-termination-handler's SQS and EventBridge calls in the
  // update and the delete, a run whose faults fall on backed-off retries took over 240 s on a fresh clone (2 cores).
}, 600_000);

it('update --yes of a private cluster with a bastion, killed (SIGKILL) at several points, converges on the next run to exactly one of each resource', async () => {
  const name = 'crash.example.com';
  const vfs = openVfs(store);
  const planned = newCluster({ name, zones: ['us-east-1a', 'us-east-1b'], topology: 'private', networking: 'calico', bastion: true, cloud: 'aws' });
  await saveCluster(vfs, { cluster: planned.cluster, instanceGroups: planned.instanceGroups });
  const env = { ...moto.env, AWS_ENDPOINT_URL: proxy.endpoint, AWS_EC2_METADATA_DISABLED: 'true', AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true', CI: 'true' };
  const args = ['update', 'cluster', name, '--yes', '--state', store];
  // Each run is killed as its Nth mutating call reaches the proxy (which still forwards it, or not:
  // both are crash points). The runs take over the dead run's lock (same host, dead pid).
  for (const n of [2, 6, 12]) {
    let mutating = 0;
    let pid = -1;
    proxy.setRule((req) => {
      if (/Action=(Describe|Get|List)/.test(req.body) || req.method !== 'POST') return undefined;
      if (++mutating === n) setImmediate(() => process.kill(pid, 'SIGKILL'));
      return undefined;
    });
    const run = startCli(args, env);
    pid = run.pid;
    const killed = await run.done;
    expect(killed.status).not.toBe(0);
    expect(mutating).toBeGreaterThanOrEqual(n);
  }
  proxy.setRule(undefined);
  const last = await runCliAsync(args, env);
  expect(last.stderr).not.toMatch(/Error/);
  expect(last.status).toBe(0);
  // Five groups: masters, nodes, bastion, and the api-elb and bastion-elb groups of the two load balancers.
  expect(expected(planned)).toMatchObject({ VPC: 1, Subnet: 4, NatGateway: 2, SecurityGroup: 5, LaunchTemplate: 4, AutoScalingGroup: 4, EBSVolume: 2 });
  expect(await allCounts(planned)).toEqual(expected(planned));
  const again = await runCliAsync(['update', 'cluster', name, '--state', store], env);
  expect(again.stdout).toMatch(/^No changes/);

  const deleted = await runCliAsync(['delete', 'cluster', name, '--yes', '--state', store], env);
  expect(deleted.status).toBe(0);
  expect(await allCounts(planned)).toEqual(Object.fromEntries(Object.keys(expected(planned)).map((k) => [k, 0])));
}, 120_000);
