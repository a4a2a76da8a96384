import { DescribeAddressesCommand, DescribeInternetGatewaysCommand, DescribeNatGatewaysCommand, DescribeRouteTablesCommand, DescribeSecurityGroupsCommand, DescribeSubnetsCommand, DescribeVpcsCommand, EC2Client, Filter } from '@aws-sdk/client-ec2';
import * as fs from 'node:fs';
import { newCluster } from '../../../src/create/new-cluster';
import { saveCluster } from '../../../src/ops/save-cluster';
import { openVfs } from '../../../src/state/vfs/open-vfs';
import { runCliAsync, startCli, tempDir } from '../../helpers/cli';
import { FaultProxy, startFaultProxy } from '../../helpers/fault-proxy';
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
let store: string;

beforeAll(async () => {
  moto = await startMotoServer({ env: MOTO_WITH_DEFAULT_IMAGE });
  proxy = await startFaultProxy(moto.endpoint, 50);
  ec2 = new EC2Client({ region: 'us-east-1', endpoint: moto.endpoint, credentials: CREDENTIALS });
  store = tempDir('kforge-update-faults-');
});

afterAll(async () => {
  ec2?.destroy();
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

const tagged = (name: string): Filter[] => [
  { Name: 'tag:KubernetesCluster', Values: [name] },
  { Name: `tag:kubernetes.io/cluster/${name}`, Values: ['owned'] },
];

/** How many of each tagged EC2 resource the cluster has. */
async function counts(name: string): Promise<Record<string, number>> {
  const f = { Filters: tagged(name) };
  return {
    vpcs: (await ec2.send(new DescribeVpcsCommand(f))).Vpcs?.length ?? 0,
    subnets: (await ec2.send(new DescribeSubnetsCommand(f))).Subnets?.length ?? 0,
    internetGateways: (await ec2.send(new DescribeInternetGatewaysCommand(f))).InternetGateways?.length ?? 0,
    routeTables: (await ec2.send(new DescribeRouteTablesCommand(f))).RouteTables?.length ?? 0,
    securityGroups: (await ec2.send(new DescribeSecurityGroupsCommand(f))).SecurityGroups?.length ?? 0,
    elasticIps: (await ec2.send(new DescribeAddressesCommand(f))).Addresses?.length ?? 0,
    natGateways: (await ec2.send(new DescribeNatGatewaysCommand({ Filter: tagged(name) }))).NatGateways?.filter((n) => n.State !== 'deleted').length ?? 0,
  };
}

it('a private HA cluster in three zones converges to exactly one of each resource through throttling, latency and dropped connections', async () => {
  const name = 'faults.example.com';
  const vfs = openVfs(store);
  const planned = newCluster({ name, zones: ['us-east-1a', 'us-east-1b', 'us-east-1c'], controlPlaneCount: 3, topology: 'private', networking: 'calico', cloud: 'aws' });
  await saveCluster(vfs, { cluster: planned.cluster, instanceGroups: planned.instanceGroups });
  const env = { ...moto.env, AWS_ENDPOINT_URL: proxy.endpoint, AWS_MAX_ATTEMPTS: '1', AWS_EC2_METADATA_DISABLED: 'true', AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true', CI: 'true' };
  const next = random(7);
  proxy.setRule((req) => {
    // The credentials check is one call before anything else; a fault there is a plain failure, tested elsewhere.
    if (req.body.includes('Action=GetCallerIdentity')) return undefined;
    const r = next();
    if (r < 0.15) return 'throttle';
    if (r < 0.2) return 'unavailable';
    if (r < 0.25) return 'drop-before';
    if (r < 0.3) return 'lose-response';
    if (r < 0.4) return 'delay';
    return undefined;
  });
  const first = await runCliAsync(['update', 'cluster', name, '--yes', '--state', store], env);
  const faults = proxy.applied.map((a) => a.slice(a.lastIndexOf(' ') + 1));
  proxy.setRule(undefined);
  expect(first.stderr).not.toMatch(/Error/);
  expect(first.status).toBe(0);
  expect(first.stdout).toContain(`Cluster "${name}" updated.`);
  expect(first.stderr).toMatch(/retrying /);
  // Faults of every kind happened, or the test would prove nothing.
  for (const kind of ['throttle', 'unavailable', 'drop-before', 'lose-response', 'delay']) expect(faults).toContain(kind);

  const want = { vpcs: 1, subnets: 6, internetGateways: 1, routeTables: 4, securityGroups: 2, elasticIps: 3, natGateways: 3 };
  expect(await counts(name)).toEqual(want);
  const again = await runCliAsync(['update', 'cluster', name, '--state', store], env);
  expect(again.stdout).toMatch(/^No changes/);
  expect(await counts(name)).toEqual(want);
});

it('update --yes killed (SIGKILL) at several points converges on the next run to exactly one of each resource', async () => {
  const name = 'crash.example.com';
  const vfs = openVfs(store);
  const planned = newCluster({ name, zones: ['us-east-1a', 'us-east-1b'], topology: 'private', networking: 'calico', cloud: 'aws' });
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
  expect(await counts(name)).toEqual({ vpcs: 1, subnets: 4, internetGateways: 1, routeTables: 3, securityGroups: 2, elasticIps: 2, natGateways: 2 });
  const again = await runCliAsync(['update', 'cluster', name, '--state', store], env);
  expect(again.stdout).toMatch(/^No changes/);
});
