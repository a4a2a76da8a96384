import * as fs from 'node:fs';
import { AllocateAddressCommand, CreateTransitGatewayCommand, DescribeAddressesCommand, DescribeNatGatewaysCommand, DescribeRouteTablesCommand, DescribeTransitGatewaysCommand, EC2Client } from '@aws-sdk/client-ec2';
import { newCluster } from '../../../src/create/new-cluster';
import { saveCluster } from '../../../src/ops/save-cluster';
import { openVfs } from '../../../src/state/vfs/open-vfs';
import { runCliAsync, tempDir } from '../../helpers/cli';
import { MOTO_WITH_DEFAULT_IMAGE, MotoServer, startMotoServer } from '../../helpers/moto-server';

// kops's private-subnet egress to what the user already has (issue 22 §4): `egress: eipalloc-…` makes the
// zone's NAT gateway on the user's Elastic IP (the address stays the user's: never tagged or released), and
// `egress: tgw-…` routes the zone to a transit gateway instead of a NAT gateway. Through the CLI against moto.

const CREDENTIALS = { accessKeyId: 'test', secretAccessKey: 'test' };
let moto: MotoServer;
let ec2: EC2Client;
let store: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  moto = await startMotoServer({ env: MOTO_WITH_DEFAULT_IMAGE });
  ec2 = new EC2Client({ region: 'us-east-1', endpoint: moto.endpoint, credentials: CREDENTIALS });
  store = tempDir('kforge-egress-');
  env = { ...moto.env, AWS_ENDPOINT_URL: moto.endpoint, AWS_EC2_METADATA_DISABLED: 'true', AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true', CI: 'true', KFORGE_TEST_DELETE_PACE: '50/20' };
});

afterAll(async () => {
  ec2?.destroy();
  await moto?.stop();
  if (store) fs.rmSync(store, { recursive: true, force: true });
});

it('eipalloc-… and tgw-… egress: the NAT gateway uses the given address, the other zone routes to the transit gateway; a second plan has no changes; delete leaves both', async () => {
  const allocation = (await ec2.send(new AllocateAddressCommand({ Domain: 'vpc' }))).AllocationId as string;
  const tgw = (await ec2.send(new CreateTransitGatewayCommand({ Description: 'corp' }))).TransitGateway?.TransitGatewayId as string;
  const name = 'egress.example.com';
  const p = newCluster({ name, zones: ['us-east-1a', 'us-east-1b'], topology: 'private', networking: 'calico' });
  for (const s of p.cluster.spec.subnets ?? []) {
    if (s.type !== 'Private') continue;
    s.egress = s.zone === 'us-east-1a' ? allocation : tgw;
  }
  await saveCluster(openVfs(store), p);

  const plan = await runCliAsync(['update', 'cluster', name, '--target', 'terraform', '--out', `${store}/tf`, '--state', store], env);
  expect(plan.status).toBe(0);
  const tf = fs.readFileSync(`${store}/tf/kubernetes.tf`, 'utf8');
  expect(tf).toContain(`allocation_id = "${allocation}"`);
  expect(tf).toContain(`transit_gateway_id     = "${tgw}"`);

  const up = await runCliAsync(['update', 'cluster', name, '--yes', '--state', store], env);
  expect(up.stderr).not.toMatch(/Error/);
  expect(up.status).toBe(0);
  const key = `kubernetes.io/cluster/${name}`;
  const nats = ((await ec2.send(new DescribeNatGatewaysCommand({ Filter: [{ Name: `tag:${key}`, Values: ['owned'] }] }))).NatGateways ?? []).filter((g) => g.State !== 'deleted');
  expect(nats.map((g) => g.NatGatewayAddresses?.[0]?.AllocationId)).toEqual([allocation]);
  const tables = (await ec2.send(new DescribeRouteTablesCommand({ Filters: [{ Name: `tag:${key}`, Values: ['owned'] }] }))).RouteTables ?? [];
  const byName = (n: string) => tables.find((t) => t.Tags?.some((x) => x.Key === 'Name' && x.Value === n));
  const defaultRoute = (n: string) => byName(n)?.Routes?.find((r) => r.DestinationCidrBlock === '0.0.0.0/0');
  expect(defaultRoute(`private-us-east-1a.${name}`)?.NatGatewayId).toBe(nats[0].NatGatewayId);
  expect(defaultRoute(`private-us-east-1b.${name}`)?.TransitGatewayId).toBe(tgw);
  // No Elastic IP of the cluster's own was allocated for either zone.
  const addresses = (await ec2.send(new DescribeAddressesCommand({}))).Addresses ?? [];
  expect(addresses.map((a) => a.AllocationId)).toEqual([allocation]);

  const again = await runCliAsync(['update', 'cluster', name, '--state', store], env);
  expect(again.status).toBe(0);
  expect(again.stdout).toMatch(/^No changes/);

  const del = await runCliAsync(['delete', 'cluster', name, '--yes', '--state', store], env);
  expect(del.stderr).not.toMatch(/Error/);
  expect(del.status).toBe(0);
  const after = (await ec2.send(new DescribeAddressesCommand({ AllocationIds: [allocation] }))).Addresses ?? [];
  expect(after.map((a) => [a.AllocationId, a.Tags ?? []])).toEqual([[allocation, []]]);
  const gateways = (await ec2.send(new DescribeTransitGatewaysCommand({ TransitGatewayIds: [tgw] }))).TransitGateways ?? [];
  expect(gateways.map((g) => g.State)).toEqual(['available']);
}, 180_000);
