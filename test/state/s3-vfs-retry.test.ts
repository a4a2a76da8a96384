import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { CLOUD_RETRY_BUDGET, RetryClock } from '../../src/cloud/retry-budget';
import { StateStoreBusyError } from '../../src/errors/state-store-busy-error';
import { S3Vfs } from '../../src/state/vfs/s3-vfs';
import { FaultProxy, startFaultProxy } from '../helpers/fault-proxy';
import { MotoServer, startMotoServer } from '../helpers/moto-server';

// The S3 store's retry budget, against moto behind a proxy that answers 503 SlowDown as S3 does when it
// throttles. The clock is the test's own: waits take no time but are recorded, so the real budget (8
// attempts, 63.5 s of waiting) is exhausted in milliseconds. The SDK makes one request per attempt
// (AWS_MAX_ATTEMPTS=1), so the proxy's count is kforge's attempts.

const BUCKET = 'kforge-retry';
let moto: MotoServer;
let proxy: FaultProxy;
let saved: Record<string, string | undefined> = {};

/** A clock whose sleep advances time at once and records each wait. */
function fakeClock(): RetryClock & { waits: number[] } {
  let now = 0;
  const waits: number[] = [];
  return {
    waits,
    now: () => now,
    sleep: (ms) => {
      waits.push(ms);
      now += ms;
      return Promise.resolve();
    },
  };
}

beforeAll(async () => {
  moto = await startMotoServer();
  proxy = await startFaultProxy(moto.endpoint);
  const env = { ...moto.env, AWS_ENDPOINT_URL: proxy.endpoint, AWS_MAX_ATTEMPTS: '1' };
  // The SDK's credential chain reads process.env.
  for (const k of Object.keys(env)) saved[k] = process.env[k];
  Object.assign(process.env, env);
  const admin = new S3Client({ region: 'us-east-1', endpoint: moto.endpoint, forcePathStyle: true, credentials: { accessKeyId: 'test', secretAccessKey: 'test' } });
  await admin.send(new CreateBucketCommand({ Bucket: BUCKET }));
  admin.destroy();
}, 60_000);

afterAll(async () => {
  await proxy?.stop();
  await moto?.stop();
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  saved = {};
});

afterEach(() => proxy.setRule(undefined));

describe('S3Vfs under 503 SlowDown', () => {
  it('rides out a burst shorter than its budget: the read succeeds after the SlowDowns', async () => {
    const clock = fakeClock();
    const vfs = new S3Vfs(`s3://${BUCKET}/a`, process.env, { clock });
    await vfs.write('k', 'v1');
    proxy.setRule((r) => (r.method === 'GET' && r.nthOfMethod <= 5 ? 'slow-down' : undefined));
    expect((await vfs.read('k'))?.data.toString()).toBe('v1');
    expect(proxy.applied).toHaveLength(5);
    expect(clock.waits).toEqual([500, 1000, 2000, 4000, 8000]);
  });

  it('fails once the budget is spent, naming the permission, the object, SlowDown and 503', async () => {
    const clock = fakeClock();
    const vfs = new S3Vfs(`s3://${BUCKET}/a`, process.env, { clock });
    proxy.setRule(() => 'slow-down');
    const error = await vfs.read('c/config').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StateStoreBusyError);
    const busy = error as StateStoreBusyError;
    expect(busy.code).toBe('STATE_STORE_BUSY');
    expect(busy.answer).toEqual({
      operation: 's3:GetObject',
      target: `s3://${BUCKET}/a/c/config`,
      errorCode: 'SlowDown',
      httpStatus: 503,
      attempts: CLOUD_RETRY_BUDGET.maxAttempts,
      elapsedMs: 63_500,
    });
    expect(busy.message).toBe(
      `state store s3://${BUCKET}/a: s3:GetObject on s3://${BUCKET}/a/c/config failed 8 times over 64 s, the last with SlowDown (HTTP 503): ` +
        'the store is throttling or unavailable; try again later',
    );
    expect(proxy.applied).toHaveLength(8);
  });

  it('a conditional write retried after SlowDowns is applied once; the store then holds it', async () => {
    const vfs = new S3Vfs(`s3://${BUCKET}/b`, process.env, { clock: fakeClock() });
    proxy.setRule((r) => (r.method === 'PUT' && r.nthOfMethod <= 2 ? 'slow-down' : undefined));
    const version = await vfs.write('k', 'new', { ifNotExists: true });
    proxy.setRule(undefined);
    expect(await vfs.read('k')).toEqual({ data: Buffer.from('new'), version });
  });

  it('a HEAD answered 503 has no body: the error gives the status and says there was no code', async () => {
    const vfs = new S3Vfs(`s3://${BUCKET}/c`, process.env, { retry: { maxAttempts: 2, firstDelayMs: 0, deadlineMs: 1000 } });
    const version = await vfs.write('k', 'v');
    proxy.setRule((r) => (r.method === 'HEAD' ? 'slow-down' : undefined));
    const error = (await vfs.delete('k', { ifVersion: version }).catch((e: unknown) => e)) as StateStoreBusyError;
    expect(error).toBeInstanceOf(StateStoreBusyError);
    expect(error.answer).toMatchObject({ operation: 's3:GetObject', errorCode: undefined, httpStatus: 503, attempts: 2 });
    expect(error.message).toContain('the last with HTTP 503 without an error code');
    proxy.setRule(undefined);
    expect(await vfs.read('k')).toBeDefined();
  });

  it('answers that are not "busy" are not retried: a missing object is one GET', async () => {
    const clock = fakeClock();
    const vfs = new S3Vfs(`s3://${BUCKET}/d`, process.env, { clock });
    proxy.setRule(() => undefined);
    expect(await vfs.read('absent')).toBeUndefined();
    expect(clock.waits).toEqual([]);
  });

  it('KFORGE_TEST_STORE_RETRY=<attempts>/<first delay ms> sets the budget for tests', async () => {
    const vfs = new S3Vfs(`s3://${BUCKET}/e`, { ...process.env, KFORGE_TEST_STORE_RETRY: '2/1' });
    proxy.setRule(() => 'slow-down');
    const error = (await vfs.list('').catch((e: unknown) => e)) as StateStoreBusyError;
    expect(error).toBeInstanceOf(StateStoreBusyError);
    expect(error.answer).toMatchObject({ operation: 's3:ListBucket', errorCode: 'SlowDown', httpStatus: 503, attempts: 2 });
  });
});
