import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { classifyGceError } from '../../src/cloud/gce/gce-errors';
import { AlreadyExistsError } from '../../src/errors/already-exists-error';
import { ConflictError } from '../../src/errors/conflict-error';
import { StateStoreError } from '../../src/errors/state-store-error';
import { UsageError } from '../../src/errors/usage-error';
import { itBehavesLikeAStateStore } from './vfs-conformance';
import { GcsVfs } from '../../src/state/vfs/gcs-vfs';
import { crc32c, FakeGcs, startFakeGcs } from '../fakes/fake-gcs-server';

type Env = Record<string, string | undefined>;

/** Runs fn with process.env changed (the auth library reads process.env and HOME), then restores it. */
async function withEnv<T>(vars: Env, fn: () => Promise<T>): Promise<T> {
  const saved: Env = {};
  for (const k of Object.keys(vars)) saved[k] = process.env[k];
  const apply = (v: Env) => Object.entries(v).forEach(([k, x]) => (x === undefined ? delete process.env[k] : (process.env[k] = x)));
  apply(vars);
  try {
    return await fn();
  } finally {
    apply(saved);
  }
}

/** The rejection of a promise that must fail, to inspect the error itself. */
async function failure(p: Promise<unknown>): Promise<Error> {
  try {
    await p;
  } catch (e) {
    return e as Error;
  }
  throw new Error('expected a failure');
}

/** Checks a user-facing message: one line, no stack frames, no raw JSON. */
function expectCleanMessage(e: Error): void {
  expect(e.message).not.toMatch(/\n|\s+at \S+ \(|\{"error"/);
}

let fake: FakeGcs;
let env: NodeJS.ProcessEnv;
let counter = 0;

beforeAll(async () => {
  // A tiny page size makes every multi-key list exercise pagination.
  fake = await startFakeGcs({ pageSize: 2 });
  env = { STORAGE_EMULATOR_HOST: fake.endpoint, GOOGLE_CLOUD_PROJECT: 'kforge-test' };
});

afterAll(async () => {
  await fake.stop();
});

/** A fresh bucket created through createStore, and a store on it (optionally below a prefix). */
async function freshStore(prefix = ''): Promise<{ vfs: GcsVfs; bucket: string }> {
  const bucket = `kforge-state-${process.pid}-${++counter}`;
  await new GcsVfs(`gs://${bucket}`, env).createStore();
  return { vfs: new GcsVfs(`gs://${bucket}${prefix}`, env), bucket };
}

describe.each([
  ['bucket root', ''],
  ['prefix', '/some/prefix/'],
])('gcs store at the %s', (_name, prefix) => {
  itBehavesLikeAStateStore(async () => (await freshStore(prefix)).vfs);

  it('reads what it wrote, lists sorted keys, deletes', async () => {
    const { vfs: v, bucket } = await freshStore(prefix);
    await v.write('c/config', 'a');
    await v.write('c/instancegroup/b', 'b');
    await v.write('c/instancegroup/a', 'a');
    expect((await v.read('c/config'))?.data.toString()).toBe('a');
    expect(await v.list('c/instancegroup/')).toEqual(['c/instancegroup/a', 'c/instancegroup/b']);
    expect(await v.list('')).toEqual(['c/config', 'c/instancegroup/a', 'c/instancegroup/b']);
    const objectPrefix = prefix.replace(/^\//, '');
    expect([...(fake.bucket(bucket)?.objects.keys() ?? [])].sort()).toEqual(['c/config', 'c/instancegroup/a', 'c/instancegroup/b'].map((k) => objectPrefix + k));
    await v.delete('c/instancegroup/a');
    expect(await v.read('c/instancegroup/a')).toBeUndefined();
    await v.delete('c/absent');
    await v.delete('c/absent', { ifVersion: '123' });
  });

  it('compare-and-swap writes fail on a stale version', async () => {
    const { vfs: v } = await freshStore(prefix);
    await v.write('k', '1');
    const read = await v.read('k');
    await v.write('k', '2', { ifVersion: read?.version });
    const e = await failure(v.write('k', '3', { ifVersion: read?.version }));
    expect(e).toBeInstanceOf(ConflictError);
    expect(e.message).toBe(`${v.url}/k changed since you read it; re-run the command to start from the current version`);
    await expect(v.write('k', '3', { ifVersion: 'sha256-not-a-generation' })).rejects.toBeInstanceOf(ConflictError);
    await expect(v.delete('k', { ifVersion: read?.version })).rejects.toBeInstanceOf(ConflictError);
    expect((await v.read('k'))?.data.toString()).toBe('2');
  });

});

describe('gcs store', () => {
  it('versions are the object generations, and the one returned by read belongs to the data', async () => {
    const { vfs: v, bucket } = await freshStore();
    const first = await v.write('k', 'one');
    const second = await v.write('k', 'two', { ifVersion: first });
    expect(BigInt(second) > BigInt(first)).toBe(true);
    expect(await v.read('k')).toEqual({ data: Buffer.from('two'), version: second });
    const b = fake.bucket(bucket);
    expect(b?.objects.get('k')?.generation).toBe(second);
    // The bucket is versioned, so the overwritten generation is kept as a noncurrent version.
    expect(b?.noncurrent.map((o) => [o.generation, o.data.toString()])).toEqual([[first, 'one']]);
    await v.delete('k', { ifVersion: second });
    expect(await v.read('k')).toBeUndefined();
    expect(fake.requests.filter((r) => r.method === 'DELETE').at(-1)?.query).toEqual({ ifGenerationMatch: second });
  });

  it('createStore makes a versioned, uniform-access, public-access-prevented bucket, once', async () => {
    const bucket = `kforge-create-${process.pid}`;
    const v = new GcsVfs(`gs://${bucket}/prefix`, env);
    expect(await v.createStore()).toEqual([
      `created bucket ${bucket} in project kforge-test`,
      'versioning: enabled',
      'public access prevention: enforced',
      'uniform bucket-level access: enabled',
      'encryption: Google-managed',
    ]);
    const stored = fake.bucket(bucket);
    expect(stored?.project).toBe('kforge-test');
    expect(stored?.versioning).toEqual({ enabled: true });
    expect(stored?.iamConfiguration).toEqual({ uniformBucketLevelAccess: { enabled: true }, publicAccessPrevention: 'enforced' });
    expect(stored?.encryption).toBeUndefined();
    const again = await failure(v.createStore());
    expect(again).toBeInstanceOf(AlreadyExistsError);
    expect(again.message).toMatch(new RegExp(`^bucket "${bucket}" already exists`));
  });

  it('uses the KMS key from KFORGE_STATE_GCS_KMS_KEY for the bucket default and every write', async () => {
    const key = 'projects/p/locations/us/keyRings/kforge/cryptoKeys/state';
    const bucket = `kforge-kms-${process.pid}`;
    const v = new GcsVfs(`gs://${bucket}`, { ...env, KFORGE_STATE_GCS_KMS_KEY: key });
    expect(await v.createStore()).toContain(`encryption: customer-managed KMS key ${key}`);
    expect(fake.bucket(bucket)?.encryption).toEqual({ defaultKmsKeyName: key });
    await v.write('c/pki/private/ca/keyset.yaml', 'secret', { secret: true });
    expect(fake.requests.at(-1)?.query.kmsKeyName).toBe(key);
    expect(fake.bucket(bucket)?.objects.get('c/pki/private/ca/keyset.yaml')?.kmsKeyName).toBe(key);
  });

  it('createStore needs a project', async () => {
    const before = fake.requests.length;
    const e = await failure(new GcsVfs('gs://kforge-no-project', { STORAGE_EMULATOR_HOST: fake.endpoint }).createStore());
    expect(e).toBeInstanceOf(UsageError);
    expect(e.message).toMatch(/set GOOGLE_CLOUD_PROJECT/);
    expect(fake.requests.length).toBe(before);
  });

  it('writes objects whose crc32c and md5 the client verified', async () => {
    expect(crc32c(Buffer.from('123456789'))).toBe(0xe3069283);
    const { vfs: v, bucket } = await freshStore('/p');
    const version = await v.write('check', '123456789');
    const o = fake.bucket(bucket)?.objects.get('p/check');
    expect(o?.crc32c).toBe(Buffer.from('e3069283', 'hex').toString('base64'));
    expect(o?.md5Hash).toBe(createHash('md5').update('123456789').digest('base64'));
    expect(o?.generation).toBe(version);
    expect(o?.data.toString()).toBe('123456789');
    // Simple multipart upload, no public ACL.
    const upload = fake.requests.filter((r) => r.path.startsWith('/upload/')).at(-1);
    expect(upload?.query).toEqual({ uploadType: 'multipart', name: 'p/check' });
  });

  it('lists more keys than fit in one page, following the page token', async () => {
    const { vfs: v } = await freshStore('/paged');
    const keys = ['c/e', 'c/a', 'c/d', 'c/b', 'c/c', 'd/x'];
    for (const k of keys) await v.write(k, k);
    const before = fake.requests.length;
    expect(await v.list('c/')).toEqual(['c/a', 'c/b', 'c/c', 'c/d', 'c/e']);
    const pages = fake.requests.slice(before).filter((r) => r.method === 'GET' && r.path.endsWith('/o'));
    expect(pages.map((r) => r.query.pageToken !== undefined)).toEqual([false, true, true]);
  });

  it('reports a missing bucket with the command that creates it', async () => {
    const v = new GcsVfs('gs://kforge-missing/prefix', env);
    const expected = 'state store gs://kforge-missing/prefix: bucket "kforge-missing" does not exist; create it with "kforge create state-store gs://kforge-missing" or check --state';
    for (const op of [() => v.read('k'), () => v.write('k', 'x'), () => v.list(''), () => v.delete('k')]) {
      const e = await failure(op());
      expect(e).toBeInstanceOf(StateStoreError);
      expect(e.message).toBe(expected);
    }
  });

  it('tells a missing object from a missing bucket with one small list, only until the bucket is known', async () => {
    const { bucket } = await freshStore();
    const v = new GcsVfs(`gs://${bucket}/p`, env);
    const before = fake.requests.length;
    expect(await v.read('absent')).toBeUndefined();
    expect(await v.read('absent-too')).toBeUndefined();
    expect(fake.requests.slice(before).map((r) => `${r.method} ${r.path} ${r.query.maxResults ?? ''}`)).toEqual([
      `GET /storage/v1/b/${bucket}/o/p%2Fabsent `,
      `GET /storage/v1/b/${bucket}/o 1`,
      `GET /storage/v1/b/${bucket}/o/p%2Fabsent-too `,
    ]);
  });

  it('accepts STORAGE_EMULATOR_HOST without a scheme', async () => {
    const { bucket } = await freshStore();
    const v = new GcsVfs(`gs://${bucket}`, { ...env, STORAGE_EMULATOR_HOST: `127.0.0.1:${fake.port}` });
    await v.write('k', 'v');
    expect((await v.read('k'))?.data.toString()).toBe('v');
  });

  it('reports permission and other API errors naming the operation and object, without JSON or stacks', async () => {
    const { vfs: v } = await freshStore('/p');
    await v.write('k', 'v');
    const denied = 'sa@p.iam.gserviceaccount.com does not have storage.objects.get access to the Google Cloud Storage object.';
    fake.injectFault({ status: 403, reason: 'forbidden', message: denied });
    const read = await failure(v.read('k'));
    expect(read).toBeInstanceOf(StateStoreError);
    expect(read.message).toBe(`state store ${v.url}: no permission to read ${v.url}/k: ${denied}`);
    fake.injectFault({ status: 403, reason: 'forbidden', message: 'no storage.objects.create' });
    expect((await failure(v.write('k', 'w'))).message).toBe(`state store ${v.url}: no permission to write ${v.url}/k: no storage.objects.create`);
    fake.injectFault({ status: 400, reason: 'invalid', message: 'Invalid argument.' });
    const bad = await failure(v.list('c/'));
    expect(bad.message).toBe(`state store ${v.url}: cannot list ${v.url}/c/: Invalid argument.`);
    for (const e of [read, bad]) expectCleanMessage(e);
  });

  it('retries a preconditioned write after a transient 503, but never an unconditioned one', async () => {
    const { vfs: v, bucket } = await freshStore();
    fake.injectFault({ status: 503, reason: 'backendError' });
    const version = await v.write('k', 'v', { ifNotExists: true });
    expect(fake.bucket(bucket)?.objects.get('k')?.generation).toBe(version);
    const uploads = fake.requests.filter((r) => r.path === `/upload/storage/v1/b/${bucket}/o`);
    expect(uploads.map((r) => r.query.ifGenerationMatch)).toEqual(['0', '0']);
    fake.injectFault({ status: 503, reason: 'backendError', message: 'Backend Error' });
    const e = await failure(v.write('k', 'w'));
    expect(e.message).toBe(`state store ${v.url}: cannot write ${v.url}/k: Backend Error`);
    expect(fake.requests.filter((r) => r.path === `/upload/storage/v1/b/${bucket}/o`)).toHaveLength(3);
  });

  it('refuses malformed URLs, naming --state and the URL', () => {
    for (const url of ['gs://', 'gs://ab', 'gs://Upper-Case', 'gs://-dash-first', 'gs://dash-last-', `gs://${'a'.repeat(64)}`, 'gs://bad!chars', 'gs://b-ok//x', 's3://bucket']) {
      expect(() => new GcsVfs(url, env)).toThrow(UsageError);
      expect(() => new GcsVfs(url, env)).toThrow(`--state: ${JSON.stringify(url)} is not a valid GCS state store URL`);
    }
    expect(new GcsVfs('gs://my_bucket.example-1/a/b/', env).url).toBe('gs://my_bucket.example-1/a/b');
    expect(new GcsVfs('gs://abc/', env).url).toBe('gs://abc');
  });

  it('reports missing credentials when GOOGLE_APPLICATION_CREDENTIALS names no file', async () => {
    const start = Date.now();
    const before = fake.requests.length;
    const e = await failure(new GcsVfs('gs://kforge-creds/p', { GOOGLE_APPLICATION_CREDENTIALS: '/nonexistent/kforge-test/key.json' }).read('k'));
    expect(e).toBeInstanceOf(StateStoreError);
    expect(e.message).toMatch(/^no Google Cloud credentials found for gs:\/\/kforge-creds: run "gcloud auth application-default login" or set GOOGLE_APPLICATION_CREDENTIALS \(GOOGLE_APPLICATION_CREDENTIALS=\/nonexistent\/kforge-test\/key.json: /);
    expectCleanMessage(e);
    expect(Date.now() - start).toBeLessThan(5000);
    expect(fake.requests.length).toBe(before);
  });

  it('reports missing Application Default Credentials without waiting on the metadata server', async () => {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'kforge-gcs-home-'));
    const vars: Env = {
      HOME: home,
      CLOUDSDK_CONFIG: path.join(home, 'gcloud'),
      GOOGLE_APPLICATION_CREDENTIALS: undefined,
      STORAGE_EMULATOR_HOST: undefined,
      // Off GCE the probe of 169.254.169.254 fails fast here, but can take its 3 s timeout elsewhere.
      METADATA_SERVER_DETECTION: 'none',
    };
    const e = await withEnv(vars, () => failure(new GcsVfs('gs://kforge-adc').list('')));
    expect(e).toBeInstanceOf(StateStoreError);
    expect(e.message).toBe('no Google Cloud credentials found for gs://kforge-adc: run "gcloud auth application-default login" or set GOOGLE_APPLICATION_CREDENTIALS');
    fs.rmSync(home, { recursive: true, force: true });
  });

  it('classifies client errors by status and reason', () => {
    const apiError = (code: number, reason: string) => Object.assign(new Error('x'), { code, errors: [{ reason, message: 'x' }] });
    expect(classifyGceError(apiError(412, 'conditionNotMet'))).toBe('precondition-failed');
    expect(classifyGceError(apiError(404, 'notFound'))).toBe('not-found');
    expect(classifyGceError(apiError(409, 'conflict'))).toBe('already-exists');
    expect(classifyGceError(apiError(403, 'forbidden'))).toBe('access-denied');
    expect(classifyGceError(apiError(429, 'rateLimitExceeded'))).toBe('throttled');
    expect(classifyGceError(apiError(503, 'backendError'))).toBe('unavailable');
    expect(classifyGceError(Object.assign(new Error('getaddrinfo'), { code: 'ENOTFOUND' }))).toBe('unreachable');
    expect(classifyGceError(new Error('Could not load the default credentials'))).toBe('unknown');
  });
});

describe('fake GCS server', () => {
  const post = (bucket: string, query: string, body: string) =>
    fetch(`${fake.endpoint}/upload/storage/v1/b/${bucket}/o?uploadType=media&name=k&${query}`, { method: 'POST', body, headers: { 'content-type': 'text/plain' } });

  it('enforces generation preconditions with 412 conditionNotMet', async () => {
    const { bucket } = await freshStore();
    const created = await post(bucket, 'ifGenerationMatch=0', 'v1');
    expect(created.status).toBe(200);
    const { generation } = (await created.json()) as { generation: string };
    expect(typeof generation).toBe('string');
    const conflict = await post(bucket, 'ifGenerationMatch=0', 'v2');
    expect(conflict.status).toBe(412);
    expect(await conflict.json()).toEqual({
      error: {
        code: 412,
        message: 'At least one of the pre-conditions you specified did not hold.',
        errors: [{ message: 'At least one of the pre-conditions you specified did not hold.', domain: 'global', reason: 'conditionNotMet' }],
      },
    });
    expect((await post(bucket, `ifGenerationMatch=${BigInt(generation) - 1n}`, 'v2')).status).toBe(412);
    expect((await post(bucket, `ifGenerationNotMatch=${generation}`, 'v2')).status).toBe(412);
    expect((await post(bucket, 'ifMetagenerationMatch=2', 'v2')).status).toBe(412);
    expect((await post(bucket, `ifGenerationMatch=${generation}&ifMetagenerationMatch=1`, 'v2')).status).toBe(200);
    const media = await fetch(`${fake.endpoint}/storage/v1/b/${bucket}/o/k?alt=media`);
    expect(await media.text()).toBe('v2');
    expect(media.headers.get('x-goog-hash')).toMatch(/^crc32c=[^,]+,md5=/);
  });

  it('answers 404 notFound for a missing bucket or object', async () => {
    const { bucket } = await freshStore();
    const object = await fetch(`${fake.endpoint}/storage/v1/b/${bucket}/o/a%2Fb`);
    expect(object.status).toBe(404);
    expect(((await object.json()) as { error: { message: string } }).error.message).toBe(`No such object: ${bucket}/a/b`);
    const missing = await fetch(`${fake.endpoint}/b/kforge-nope/o`);
    expect(await missing.json()).toMatchObject({ error: { code: 404, message: 'The specified bucket does not exist.', errors: [{ reason: 'notFound' }] } });
  });
});
