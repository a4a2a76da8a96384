import { AwsCloud } from '../../../src/cloud/aws/aws-cloud';
import { classifyAwsError } from '../../../src/cloud/aws/aws-errors';
import { FaultProxy, startFaultProxy } from '../../helpers/fault-proxy';
import { MotoServer, startMotoServer } from '../../helpers/moto-server';

// A read outside the task executor (a cluster listing for `delete`, the orphan finder, `validate`) is sent
// again by the AWS clients themselves after a transient failure; a change or a NotFound is not.

let moto: MotoServer;
let proxy: FaultProxy;

beforeAll(async () => {
  moto = await startMotoServer();
  proxy = await startFaultProxy(moto.endpoint, 20);
});

afterAll(async () => {
  await proxy?.stop();
  await moto?.stop();
});

afterEach(() => proxy.setRule(undefined));

// The SDK's own retries are off (one request per attempt), so every request the proxy sees is kforge's.
const cloud = (): AwsCloud =>
  new AwsCloud({ clusterName: 'reads.example.com', region: 'us-east-1', env: { AWS_ENDPOINT_URL: proxy.endpoint }, credentials: { accessKeyId: 'test', secretAccessKey: 'test' }, maxAttempts: 1 });

/** Faults the first `n` requests whose body names `action`, then forwards the rest. */
function firstFaulted(action: string, n: number, fault: 'throttle' | 'unavailable'): (req: { body: string }) => typeof fault | undefined {
  let seen = 0;
  return (req) => (req.body.includes(`Action=${action}`) && ++seen <= n ? fault : undefined);
}

// Answers only: in jest, a socket error comes from another realm than the SDK's `Error`, which then wraps it
// in a plain Error without its code (smithy's asSdkError). The CLI runs in one realm; the lost answers and
// dropped connections of aws-update-faults.test.ts go through the CLI.
it.each(['throttle', 'unavailable'] as const)('a read that fails twice (%s) is answered on its third attempt, counted as one call', async (fault) => {
  const c = cloud();
  const { sdk, client } = await c.ec2();
  proxy.setRule(firstFaulted('DescribeVpcs', 2, fault));
  const out = await client.send(new sdk.DescribeVpcsCommand({}));
  expect(out.Vpcs?.length).toBeGreaterThan(0); // moto's default VPC
  expect(proxy.applied).toEqual([`POST / ${fault}`, `POST / ${fault}`]);
  expect(c.calls.byOperation.get('DescribeVpcs')).toBe(1);
  expect(c.calls.attempts).toBe(3);
});

it('a read throttled on every attempt fails after three, with the throttling error', async () => {
  const c = cloud();
  const { sdk, client } = await c.ec2();
  proxy.setRule(firstFaulted('DescribeSubnets', 100, 'throttle'));
  const error = await client.send(new sdk.DescribeSubnetsCommand({})).then(() => undefined, (e: unknown) => e);
  expect(classifyAwsError(error)).toBe('throttled');
  expect(proxy.applied).toHaveLength(3);
});

it('a change is not resent: a throttled CreateVpc fails at once (the task executor decides)', async () => {
  const c = cloud();
  const { sdk, client } = await c.ec2();
  proxy.setRule(firstFaulted('CreateVpc', 1, 'throttle'));
  const error = await client.send(new sdk.CreateVpcCommand({ CidrBlock: '10.9.0.0/16' })).then(() => undefined, (e: unknown) => e);
  expect(classifyAwsError(error)).toBe('throttled');
  expect(proxy.applied).toHaveLength(1);
  const vpcs = await client.send(new sdk.DescribeVpcsCommand({ Filters: [{ Name: 'cidr', Values: ['10.9.0.0/16'] }] }));
  expect(vpcs.Vpcs ?? []).toHaveLength(0);
});

it('a NotFound answer to a read is final: sent once', async () => {
  const c = cloud();
  const { sdk, client } = await c.ec2();
  proxy.setRule(() => undefined);
  const error = await client.send(new sdk.DescribeVpcsCommand({ VpcIds: ['vpc-00000000000000000'] })).then(() => undefined, (e: unknown) => e);
  expect(classifyAwsError(error)).toBe('not-found');
  expect(c.calls.attempts).toBe(1);
});

it('the credentials check keeps its own attempts: STS GetCallerIdentity is not retried by the client', async () => {
  const c = cloud();
  const { sdk, client } = await c.sts();
  proxy.setRule(firstFaulted('GetCallerIdentity', 1, 'throttle'));
  const error = await client.send(new sdk.GetCallerIdentityCommand({})).then(() => undefined, (e: unknown) => e);
  expect(classifyAwsError(error)).toBe('throttled');
  expect(proxy.applied).toHaveLength(1);
});
