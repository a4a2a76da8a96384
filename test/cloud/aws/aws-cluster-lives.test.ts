import { CreateRouteTableCommand, DeleteRouteTableCommand, CreateVolumeCommand, DescribeRouteTablesCommand, DescribeVolumesCommand, EC2Client, Filter } from '@aws-sdk/client-ec2';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CliResult, runCliAsync, tempDir } from '../../helpers/cli';
import { FaultProxy, startFaultProxy } from '../../helpers/fault-proxy';
import { MOTO_WITH_DEFAULT_IMAGE, MotoServer, startMotoServer } from '../../helpers/moto-server';

// Two lives of one cluster name against moto, through the fault proxy (no faults: it only records the
// ClientToken of every create). The tokens are salted with the cluster UID that the first `update --yes`
// writes to the state store, so the second life never sends the first life's tokens (EC2 would answer
// with the deleted resources, or IdempotentParameterMismatch). In between, duplicates planted by hand (an
// etcd volume and a route table with the model's tags, as moto's ignored tokens once made) are listed by
// the plan, in text and in -o json, though there is nothing to change.

const NAME = 'lives.example.com';
const CREDENTIALS = { accessKeyId: 'test', secretAccessKey: 'test' };
let moto: MotoServer;
let proxy: FaultProxy;
let ec2: EC2Client;
let store: string;
let env: NodeJS.ProcessEnv;
/** Every ClientToken sent since the last reset, with its action, e.g. `CreateVolume 3f…`. */
let tokens: string[] = [];

jest.setTimeout(180_000);

beforeAll(async () => {
  moto = await startMotoServer({ env: MOTO_WITH_DEFAULT_IMAGE });
  proxy = await startFaultProxy(moto.endpoint);
  proxy.setRule((req) => {
    const params = new URLSearchParams(req.body);
    const token = params.get('ClientToken');
    if (token !== null) tokens.push(`${params.get('Action')} ${token}`);
    return undefined;
  });
  ec2 = new EC2Client({ region: 'us-east-1', endpoint: moto.endpoint, credentials: CREDENTIALS });
  store = tempDir('kforge-cluster-lives-');
  env = { ...moto.env, AWS_ENDPOINT_URL: proxy.endpoint, AWS_EC2_METADATA_DISABLED: 'true', AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true', CI: 'true', KFORGE_TEST_DELETE_PACE: '50/20' };
});

afterAll(async () => {
  ec2?.destroy();
  await proxy?.stop();
  await moto?.stop();
  if (store) fs.rmSync(store, { recursive: true, force: true });
});

const kforge = (...args: string[]): Promise<CliResult> => runCliAsync([...args, '--state', store], env);
const uidFile = (): string => path.join(store, NAME, 'cluster-uid');
const tagged = (name: string): Filter[] => [
  { Name: 'tag:KubernetesCluster', Values: [name] },
  { Name: `tag:kubernetes.io/cluster/${name}`, Values: ['owned'] },
];

function ok(r: CliResult): CliResult {
  // update --yes also warns that the kubeconfig it wrote has no credentials (as kops), and that nodes could not
  // read this local store (the test applies to moto only): both are expected.
  expect({ status: r.status, stderr: r.stderr.split('\n').filter((l) => /Error|Warning/.test(l) && !l.includes('exported kubeconfig with no user authentication') && !l.includes('is not one AWS nodes can read')) }).toEqual({ status: 0, stderr: [] });
  return r;
}

/** One life: create, plan (writes no UID), update --yes; returns the UID and the tokens the update sent. */
async function life(): Promise<{ uid: string; tokens: string[] }> {
  ok(await kforge('create', 'cluster', NAME, '--zones', 'us-east-1a', '--cloud', 'aws', '--dns', 'none'));
  ok(await kforge('update', 'cluster', NAME));
  expect(fs.existsSync(uidFile())).toBe(false);
  tokens = [];
  expect(ok(await kforge('update', 'cluster', NAME, '--yes')).stdout).toContain(`Cluster "${NAME}" updated.`);
  const uid = fs.readFileSync(uidFile(), 'utf8');
  expect(uid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}\n$/);
  return { uid, tokens: [...tokens].sort() };
}

it('a cluster deleted and created again under its name gets a new UID, and its creates send none of the old tokens', async () => {
  const first = await life();
  // Every create that takes a token sent one: the etcd volumes, route tables and launch templates at least.
  const actions = new Set(first.tokens.map((t) => t.split(' ')[0]));
  for (const a of ['CreateVolume', 'CreateRouteTable', 'CreateLaunchTemplate']) expect(actions).toContain(a);

  // A later update keeps the UID, and so the tokens: a create resent after a lost answer is still recognised.
  ok(await kforge('create', 'instancegroup', 'extra', '--name', NAME, '--subnet', 'us-east-1a', '--min-size', '1'));
  ok(await kforge('update', 'cluster', NAME, '--yes'));
  expect(fs.readFileSync(uidFile(), 'utf8')).toBe(first.uid);
  // --target terraform reads the store and leaves the UID alone.
  const tf = tempDir('kforge-cluster-lives-tf-');
  ok(await kforge('update', 'cluster', NAME, '--target', 'terraform', '--out', tf));
  expect(fs.readFileSync(uidFile(), 'utf8')).toBe(first.uid);
  fs.rmSync(tf, { recursive: true, force: true });

  ok(await kforge('delete', 'cluster', NAME, '--yes'));
  expect(fs.existsSync(path.join(store, NAME))).toBe(false);

  const second = await life();
  expect(second.uid).not.toBe(first.uid);
  // The same tasks made the same kinds of create, each with a token of its own life.
  expect(second.tokens.map((t) => t.split(' ')[0])).toEqual(first.tokens.map((t) => t.split(' ')[0]));
  const old = new Set(first.tokens.map((t) => t.split(' ')[1]));
  expect(second.tokens.filter((t) => old.has(t.split(' ')[1]))).toEqual([]);
});

// Runs on the second life the test above leaves.
it('a planted duplicate etcd volume and route table are listed by the plan, in text and -o json, though nothing changes', async () => {
  const volumes = (await ec2.send(new DescribeVolumesCommand({ Filters: tagged(NAME) }))).Volumes ?? [];
  const etcd = volumes.find((v) => v.Tags?.some((t) => t.Key === 'k8s.io/etcd/main'));
  const tables = (await ec2.send(new DescribeRouteTablesCommand({ Filters: tagged(NAME) }))).RouteTables ?? [];
  const table = tables.find((t) => t.Tags?.some((x) => x.Key === 'Name' && x.Value === NAME));
  if (!etcd?.VolumeId || !table?.RouteTableId) throw new Error(`the cluster has no etcd main volume or no route table named ${NAME}`);
  const copy = await ec2.send(new CreateVolumeCommand({ AvailabilityZone: etcd.AvailabilityZone, Size: etcd.Size, VolumeType: etcd.VolumeType, Encrypted: etcd.Encrypted, Iops: etcd.Iops, Throughput: etcd.Throughput, TagSpecifications: [{ ResourceType: 'volume', Tags: etcd.Tags }] }));
  // kforge uses the lowest id of a duplicated name. An empty copy that sorted first would be used, and its
  // missing routes would be changes; ids are random, so make copies until one sorts after the original (each
  // try has an even chance; 30 tries fail together once in a billion) and delete the others.
  let copyTable = await ec2.send(new CreateRouteTableCommand({ VpcId: table.VpcId, TagSpecifications: [{ ResourceType: 'route-table', Tags: table.Tags }] }));
  for (let i = 0; i < 30 && (copyTable.RouteTable?.RouteTableId as string) < table.RouteTableId; i++) {
    await ec2.send(new DeleteRouteTableCommand({ RouteTableId: copyTable.RouteTable?.RouteTableId }));
    copyTable = await ec2.send(new CreateRouteTableCommand({ VpcId: table.VpcId, TagSpecifications: [{ ResourceType: 'route-table', Tags: table.Tags }] }));
  }
  const volumeName = etcd.Tags?.find((t) => t.Key === 'Name')?.Value as string;
  const volumeIds = [etcd.VolumeId, copy.VolumeId as string].sort();
  const tableIds = [table.RouteTableId, copyTable.RouteTable?.RouteTableId as string].sort();

  const json = JSON.parse(ok(await kforge('update', 'cluster', NAME, '-o', 'json')).stdout) as { hasChanges: boolean; duplicates?: unknown };
  expect(json.hasChanges).toBe(false);
  expect(json.duplicates).toEqual([
    { type: 'EBSVolume', name: volumeName, ids: volumeIds, used: volumeIds[0] },
    { type: 'RouteTable', name: NAME, ids: tableIds, used: tableIds[0] },
  ]);

  const text = ok(await kforge('update', 'cluster', NAME)).stdout;
  expect(text).toMatch(/^No changes/);
  expect(text).toContain('Warning: names that match more than one resource of the cluster');
  expect(text).toContain(`    ${volumeName}: ${volumeIds[0]} (used), ${volumeIds[1]}\n`);
  expect(text).toContain(`    ${NAME}: ${tableIds[0]} (used), ${tableIds[1]}\n`);
});
