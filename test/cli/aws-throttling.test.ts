import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { DescribeVpcsCommand, EC2Client } from '@aws-sdk/client-ec2';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CliResult, expectCleanFailure, runCliAsync, tempDir } from '../helpers/cli';
import { FaultProxy, ProxiedRequest, startFaultProxy } from '../helpers/fault-proxy';
import { MOTO_WITH_DEFAULT_IMAGE, MotoServer, startMotoServer } from '../helpers/moto-server';

// `update cluster` as users run it (bin/run.js) with every AWS call, the S3 state store's included, going
// through a fault proxy in front of moto that answers as AWS does when it is busy: S3's 503 SlowDown,
// EC2's RequestLimitExceeded, STS's Throttling. The store rides out a short storm with the cloud calls'
// own retry budget and names the operation when a storm outlasts it; throttling is counted in the
// `AWS API:` summary and named at the credentials check.

const BUCKET = 'kforge-throttle-state';
const STORE = `s3://${BUCKET}`;
const NAME = 'storm.example.com';
const CREDENTIALS = { accessKeyId: 'test', secretAccessKey: 'test' };

let moto: MotoServer;
let proxy: FaultProxy;
let ec2: EC2Client;
let home: string;
let env: NodeJS.ProcessEnv;

const isS3 = (r: ProxiedRequest): boolean => r.url.startsWith(`/${BUCKET}`);
const isSts = (r: ProxiedRequest): boolean => r.body.includes('Action=GetCallerIdentity');
// EC2's query API version; the fault proxy answers these with RequestLimitExceeded.
const isEc2 = (r: ProxiedRequest): boolean => r.body.includes('Version=2016-11-15');

const kforge = (args: string[], extra: NodeJS.ProcessEnv = {}): Promise<CliResult> => runCliAsync([...args, '--state', STORE], { ...env, ...extra });

/** The numbers of the `AWS API: N calls (T throttled, R retried) in S s` summary. */
function summary(r: CliResult): { calls: number; throttled: number; retried: number } {
  const m = /AWS API: (\d+) calls \((\d+) throttled, (\d+) retried\) in [\d.]+ s/.exec(r.stderr);
  if (!m) throw new Error(`no API summary in stderr:\n${r.stderr}`);
  return { calls: Number(m[1]), throttled: Number(m[2]), retried: Number(m[3]) };
}

beforeAll(async () => {
  moto = await startMotoServer({ env: MOTO_WITH_DEFAULT_IMAGE });
  proxy = await startFaultProxy(moto.endpoint);
  home = tempDir('kforge-throttling-');
  env = {
    ...moto.env,
    AWS_ENDPOINT_URL: proxy.endpoint,
    AWS_ENDPOINT_URL_S3: undefined,
    AWS_MAX_ATTEMPTS: undefined,
    AWS_EC2_METADATA_DISABLED: 'true',
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    HOME: home,
    AWS_PROFILE: undefined,
    AWS_SESSION_TOKEN: undefined,
    AWS_CONFIG_FILE: path.join(home, 'no-aws-config'),
    AWS_SHARED_CREDENTIALS_FILE: path.join(home, 'no-aws-credentials'),
    KFORGE_TEST_STORE_RETRY: undefined,
    CI: 'true',
  };
  const client = { region: 'us-east-1', endpoint: moto.endpoint, credentials: CREDENTIALS };
  const s3 = new S3Client({ ...client, forcePathStyle: true });
  await s3.send(new CreateBucketCommand({ Bucket: BUCKET }));
  s3.destroy();
  ec2 = new EC2Client(client);
  const created = await kforge(['create', 'cluster', NAME, '--zones', 'us-east-1a', '--cloud', 'aws', '--dns', 'none']);
  expect(created.stderr).toBe('');
  expect(created.status).toBe(0);
}, 60_000);

afterAll(async () => {
  ec2?.destroy();
  await proxy?.stop();
  await moto?.stop();
  if (home) fs.rmSync(home, { recursive: true, force: true });
});

afterEach(() => proxy.setRule(undefined));

const vpcs = async (): Promise<number> =>
  (await ec2.send(new DescribeVpcsCommand({ Filters: [{ Name: 'tag:KubernetesCluster', Values: [NAME] }] }))).Vpcs?.length ?? 0;

describe('the S3 state store under 503 SlowDown', () => {
  it('a storm that outlasts the retry budget fails naming the operation, the object, SlowDown and 503; nothing is changed', async () => {
    proxy.setRule((r) => (isS3(r) ? 'slow-down' : undefined));
    // A budget of 3 attempts 10 ms apart stands in for the real one (63.5 s of waiting) so the test is quick.
    const r = await kforge(['update', 'cluster', NAME, '--yes'], { KFORGE_TEST_STORE_RETRY: '3/10' });
    expectCleanFailure(r);
    expect(r.stderr).toMatch(new RegExp(`^Error: state store ${STORE}: s3:\\w+ on ${STORE}/${NAME.replace(/\./g, '\\.')}/\\S+ failed 3 times over \\d+ s, the last with SlowDown \\(HTTP 503\\)`));
    expect(r.stderr).not.toContain('Unknown');
    expect(proxy.applied.length).toBeGreaterThanOrEqual(3);
    expect(await vpcs()).toBe(0);
  }, 60_000);

  it('an 8-second storm during update --yes is ridden out with the default budget', async () => {
    let until: number | undefined;
    proxy.setRule((r) => {
      if (!isS3(r)) return undefined;
      // The storm starts with the command's first store call and lasts 8 s.
      until ??= Date.now() + 8_000;
      return Date.now() < until ? 'slow-down' : undefined;
    });
    const r = await kforge(['update', 'cluster', NAME, '--yes']);
    const storm = proxy.applied.length;
    proxy.setRule(undefined);
    expect(r.stderr).not.toMatch(/Error/);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain(`Cluster "${NAME}" updated.`);
    // More SlowDowns than the SDK's own 3 attempts: kforge's retries carried the command through.
    expect(storm).toBeGreaterThan(3);
    expect(await vpcs()).toBe(1);
  }, 180_000);
});

describe('throttling of the cloud calls', () => {
  it('the AWS API summary counts every throttled answer', async () => {
    // The first six EC2 calls are answered RequestLimitExceeded; the SDK and the executor retry them.
    let ec2Calls = 0;
    proxy.setRule((r) => (isEc2(r) && ++ec2Calls <= 6 ? 'throttle' : undefined));
    const r = await kforge(['update', 'cluster', NAME]);
    const throttled = proxy.applied.length;
    expect(r.status).toBe(0);
    expect(throttled).toBe(6);
    expect(summary(r).throttled).toBe(throttled);
    expect(summary(r).retried).toBeGreaterThanOrEqual(throttled);
  }, 120_000);

  it('endless throttling at the credentials check is named as throttling, not as an unreachable endpoint', async () => {
    proxy.setRule((r) => (isSts(r) ? 'throttle' : undefined));
    // One SDK attempt per try keeps the five tries of the check quick (the SDK backs off ~2.6 s per throttled retry).
    const r = await kforge(['update', 'cluster', NAME, '--yes'], { AWS_MAX_ATTEMPTS: '1' });
    expect(r.status).toBe(1);
    expect(r.stderr).not.toContain('    at ');
    // After the progress lines of the steps before the check.
    expect(r.stderr).toMatch(/^Error: AWS throttled STS GetCallerIdentity in us-east-1 on all 5 attempts \(Throttling: Rate exceeded\)/m);
    expect(r.stderr).not.toContain('AWS_ENDPOINT_URL');
    expect(proxy.applied).toHaveLength(5);
  }, 60_000);
});
