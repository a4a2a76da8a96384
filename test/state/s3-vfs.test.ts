import {
  CreateBucketCommand,
  GetBucketEncryptionCommand,
  GetBucketLocationCommand,
  GetBucketOwnershipControlsCommand,
  GetBucketVersioningCommand,
  GetObjectAclCommand,
  GetObjectCommand,
  GetPublicAccessBlockCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import * as http from 'node:http';
import { awsErrorMessage, classifyAwsError } from '../../src/cloud/aws/aws-errors';
import { AlreadyExistsError } from '../../src/errors/already-exists-error';
import { ConflictError } from '../../src/errors/conflict-error';
import { StateStoreError } from '../../src/errors/state-store-error';
import { UsageError } from '../../src/errors/usage-error';
import { itBehavesLikeAStateStore } from './vfs-conformance';
import { S3Vfs } from '../../src/state/vfs/s3-vfs';
import { AWS_NO_CREDENTIALS, MotoServer, startMotoServer } from '../helpers/moto-server';

type Env = Record<string, string | undefined>;

/** Runs fn with process.env changed (the SDK's credential chain reads process.env), then restores it. */
async function withEnv<T>(vars: Env, fn: () => Promise<T>): Promise<T> {
  const saved: Env = {};
  for (const k of Object.keys(vars)) saved[k] = process.env[k];
  setEnv(vars);
  try {
    return await fn();
  } finally {
    setEnv(saved);
  }
}

function setEnv(vars: Env): void {
  for (const [k, v] of Object.entries(vars)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
}

/** The rejection of a promise that must fail, to inspect a real SDK or kforge error. */
async function failure(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (e) {
    return e;
  }
  throw new Error('expected a failure');
}

const PUBLIC_GROUPS = ['http://acs.amazonaws.com/groups/global/AllUsers', 'http://acs.amazonaws.com/groups/global/AuthenticatedUsers'];

let moto: MotoServer;
let admin: S3Client;
let restoreEnv: Env = {};

beforeAll(async () => {
  moto = await startMotoServer();
  // Credentials come from the SDK's default chain, i.e. process.env; the endpoint is passed to S3Vfs explicitly.
  const vars: Env = {
    AWS_ACCESS_KEY_ID: 'test',
    AWS_SECRET_ACCESS_KEY: 'test',
    AWS_SESSION_TOKEN: undefined,
    AWS_PROFILE: undefined,
    AWS_EC2_METADATA_DISABLED: 'true',
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
  };
  for (const k of Object.keys(vars)) restoreEnv[k] = process.env[k];
  setEnv(vars);
  admin = new S3Client({ region: 'us-east-1', endpoint: moto.endpoint, forcePathStyle: true, credentials: { accessKeyId: 'test', secretAccessKey: 'test' } });
});

afterAll(async () => {
  admin?.destroy();
  await moto?.stop();
  setEnv(restoreEnv);
  restoreEnv = {};
});

describe('S3Vfs conformance on s3://bucket/some/prefix', () => {
  const bucket = 'kforge-conformance';
  let n = 0;
  const make = (): S3Vfs => new S3Vfs(`s3://${bucket}/some/prefix/t${++n}/`, moto.env);

  beforeAll(async () => {
    await new S3Vfs(`s3://${bucket}`, moto.env).createStore();
  });

  itBehavesLikeAStateStore(make);

  it('names objects by their s3:// URL in conflicts', async () => {
    const v = make();
    await v.write('k', '1', { ifNotExists: true });
    await expect(v.write('k', '2', { ifNotExists: true })).rejects.toThrow(`s3://${bucket}/some/prefix/t${n}/k already exists`);
    await expect(v.write('k', '2', { ifVersion: '"stale"' })).rejects.toThrow(`s3://${bucket}/some/prefix/t${n}/k changed since you read it; re-run the command to start from the current version`);
  });

  it('stores keys below the prefix and returns the ETag as the version', async () => {
    const v = make();
    const version = await v.write('c/config', 'x');
    expect((await v.read('c/config'))?.version).toBe(version);
    const head = await admin.send(new HeadObjectCommand({ Bucket: bucket, Key: `some/prefix/t${n}/c/config` }));
    expect(head.ETag).toBe(version);
  });

  it('compare-and-swap writes fail when the object was deleted meanwhile', async () => {
    const v = make();
    const version = await v.write('k', '1');
    await v.delete('k');
    await expect(v.write('k', '2', { ifVersion: version })).rejects.toBeInstanceOf(ConflictError);
    expect(await v.read('k')).toBeUndefined();
  });

  it('follows continuation tokens when listing', async () => {
    const v = new S3Vfs(`s3://${bucket}/paged`, moto.env, { pageSize: 2 });
    for (const k of ['e', 'c', 'a', 'd', 'b']) await v.write(`ig/${k}`, k);
    // Proves the listing really spans pages: moto honours MaxKeys.
    const first = await admin.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: 'paged/ig/', MaxKeys: 2 }));
    expect(first.Contents).toHaveLength(2);
    expect(first.IsTruncated).toBe(true);
    expect(await v.list('ig/')).toEqual(['ig/a', 'ig/b', 'ig/c', 'ig/d', 'ig/e']);
  });

  it('encrypts every object, secret or not, with AES256 by default', async () => {
    const v = new S3Vfs(`s3://${bucket}/enc`, moto.env);
    await v.write('plain', 'p');
    await v.write('pki/private/ca', 'key', { secret: true });
    for (const key of ['enc/plain', 'enc/pki/private/ca']) {
      const head = await admin.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
      expect(head.ServerSideEncryption).toBe('AES256');
    }
  });

  it('encrypts with the KMS key from KFORGE_STATE_S3_KMS_KEY_ID', async () => {
    const keyId = 'arn:aws:kms:us-east-1:123456789012:key/0b4b8c1e-1111-2222-3333-444455556666';
    const v = new S3Vfs(`s3://${bucket}/kms`, { ...moto.env, KFORGE_STATE_S3_KMS_KEY_ID: keyId });
    await v.write('secret', 's', { secret: true });
    const head = await admin.send(new HeadObjectCommand({ Bucket: bucket, Key: 'kms/secret' }));
    expect(head.ServerSideEncryption).toBe('aws:kms');
    expect(head.SSEKMSKeyId).toBe(keyId);
  });

  it('never grants public access to an object', async () => {
    const v = new S3Vfs(`s3://${bucket}/acl`, moto.env);
    await v.write('secret', 's', { secret: true });
    // Moto still answers GetObjectAcl with BucketOwnerEnforced (AWS too: it returns the owner-only ACL).
    const acl = await admin.send(new GetObjectAclCommand({ Bucket: bucket, Key: 'acl/secret' }));
    expect(acl.Grants?.length).toBeGreaterThan(0);
    for (const grant of acl.Grants ?? []) expect(PUBLIC_GROUPS).not.toContain(grant.Grantee?.URI);
    expect(acl.Grants?.map((g) => g.Grantee?.Type)).toEqual(['CanonicalUser']);
  });
});

describe('S3Vfs.createStore', () => {
  it('creates a private, versioned, encrypted bucket and refuses to create it twice', async () => {
    const v = new S3Vfs('s3://kforge-created/clusters', moto.env);
    expect(await v.createStore()).toEqual([
      'created bucket kforge-created in us-east-1',
      'object ownership: bucket owner enforced (ACLs disabled)',
      'public access: blocked (all four settings)',
      'versioning: enabled',
      'default encryption: AES256',
    ]);
    const Bucket = 'kforge-created';
    expect((await admin.send(new GetBucketVersioningCommand({ Bucket }))).Status).toBe('Enabled');
    expect((await admin.send(new GetPublicAccessBlockCommand({ Bucket }))).PublicAccessBlockConfiguration).toEqual({
      BlockPublicAcls: true,
      IgnorePublicAcls: true,
      BlockPublicPolicy: true,
      RestrictPublicBuckets: true,
    });
    const enc = await admin.send(new GetBucketEncryptionCommand({ Bucket }));
    expect(enc.ServerSideEncryptionConfiguration?.Rules?.[0]?.ApplyServerSideEncryptionByDefault?.SSEAlgorithm).toBe('AES256');
    const own = await admin.send(new GetBucketOwnershipControlsCommand({ Bucket }));
    expect(own.OwnershipControls?.Rules?.[0]?.ObjectOwnership).toBe('BucketOwnerEnforced');

    const again = await failure(v.createStore());
    expect(again).toBeInstanceOf(AlreadyExistsError);
    expect((again as Error).message).toMatch(/bucket "kforge-created" already exists/);
  });

  it('creates the bucket in AWS_REGION with KMS default encryption when a key is configured', async () => {
    const keyId = 'arn:aws:kms:eu-west-1:123456789012:key/abcd';
    const v = new S3Vfs('s3://kforge-eu', { ...moto.env, AWS_REGION: 'eu-west-1', KFORGE_STATE_S3_KMS_KEY_ID: keyId });
    const lines = await v.createStore();
    expect(lines).toContain('created bucket kforge-eu in eu-west-1');
    expect(lines).toContain(`default encryption: aws:kms with key ${keyId} (bucket key enabled)`);
    expect((await admin.send(new GetBucketLocationCommand({ Bucket: 'kforge-eu' }))).LocationConstraint).toBe('eu-west-1');
    const rule = (await admin.send(new GetBucketEncryptionCommand({ Bucket: 'kforge-eu' }))).ServerSideEncryptionConfiguration?.Rules?.[0];
    expect(rule?.ApplyServerSideEncryptionByDefault).toEqual({ SSEAlgorithm: 'aws:kms', KMSMasterKeyID: keyId });
    expect(rule?.BucketKeyEnabled).toBe(true);
    // Outside us-east-1 the "already exists" answer comes from CreateBucket itself (409), not HeadBucket.
    await expect(v.createStore()).rejects.toBeInstanceOf(AlreadyExistsError);
  });
});

describe('S3Vfs errors', () => {
  it('names the missing bucket and how to create it, for every operation', async () => {
    const v = new S3Vfs('s3://kforge-missing/prefix', moto.env);
    const expected = 'state store s3://kforge-missing/prefix: bucket "kforge-missing" does not exist; create it with "kforge create state-store s3://kforge-missing" or check --state';
    for (const op of [() => v.read('k'), () => v.write('k', 'x'), () => v.list(''), () => v.delete('k'), () => v.delete('k', { ifVersion: '"x"' })]) {
      const e = await failure(op());
      expect(e).toBeInstanceOf(StateStoreError);
      expect((e as Error).message).toBe(expected);
    }
  });

  it('explains missing credentials without waiting for the instance metadata service', async () => {
    const started = Date.now();
    const errors = await withEnv(AWS_NO_CREDENTIALS, async () => {
      const v = new S3Vfs('s3://kforge-conformance/x', moto.env);
      return [await failure(v.read('k')), await failure(v.write('k', 'x')), await failure(v.list(''))];
    });
    expect(Date.now() - started).toBeLessThan(5000);
    for (const e of errors) {
      expect(e).toBeInstanceOf(StateStoreError);
      expect((e as Error).message).toMatch(
        /^no AWS credentials found for s3:\/\/kforge-conformance: set AWS_PROFILE, or AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY \(CredentialsProviderError: /,
      );
      expect((e as Error).message).not.toMatch(/\n\s+at /);
    }
  });

  it.each(['s3://Bad_Bucket', 's3://', 's3://ab', 's3://a..b/x', 's3:///prefix', 's3://192.168.1.1', 'gs://bucket'])('refuses the malformed URL %s', (url) => {
    expect(() => new S3Vfs(url, moto.env)).toThrow(UsageError);
    expect(() => new S3Vfs(url, moto.env)).toThrow(/--state: .* is not a valid S3 state store URL/);
  });

  it('normalises the URL', () => {
    expect(new S3Vfs('s3://bucket').url).toBe('s3://bucket');
    expect(new S3Vfs('s3://bucket/').url).toBe('s3://bucket');
    expect(new S3Vfs('s3://bucket//a/b//').url).toBe('s3://bucket/a/b');
    expect(new S3Vfs('s3://my.bucket-1/a').prefix).toBe('a');
  });
});

describe('classifyAwsError on errors captured from moto', () => {
  it('recognises S3 errors by name, code and status', async () => {
    const Bucket = 'kforge-classify';
    await admin.send(new CreateBucketCommand({ Bucket }));
    const put = await admin.send(new PutObjectCommand({ Bucket, Key: 'k', Body: 'x' }));
    const noSuchKey = await failure(admin.send(new GetObjectCommand({ Bucket, Key: 'absent' })));
    const headMissing = await failure(admin.send(new HeadObjectCommand({ Bucket, Key: 'absent' })));
    const noSuchBucket = await failure(admin.send(new GetObjectCommand({ Bucket: 'kforge-nope', Key: 'k' })));
    const exists = await failure(admin.send(new PutObjectCommand({ Bucket, Key: 'k', Body: 'y', IfNoneMatch: '*' })));
    const stale = await failure(admin.send(new PutObjectCommand({ Bucket, Key: 'k', Body: 'y', IfMatch: `"0${put.ETag?.slice(2)}` })));
    const invalidName = await failure(admin.send(new CreateBucketCommand({ Bucket: 'ab' })));
    const eu = new S3Client({ region: 'eu-west-1', endpoint: moto.endpoint, forcePathStyle: true, credentials: { accessKeyId: 'test', secretAccessKey: 'test' } });
    const create = new CreateBucketCommand({ Bucket: 'kforge-classify-eu', CreateBucketConfiguration: { LocationConstraint: 'eu-west-1' } });
    await eu.send(create);
    const ownedByYou = await failure(eu.send(create));
    eu.destroy();

    expect(classifyAwsError(noSuchKey)).toBe('not-found');
    expect(classifyAwsError(headMissing)).toBe('not-found');
    expect(classifyAwsError(noSuchBucket)).toBe('no-such-bucket');
    expect(classifyAwsError(exists)).toBe('precondition-failed');
    expect(classifyAwsError(stale)).toBe('precondition-failed');
    expect(classifyAwsError(ownedByYou)).toBe('already-exists');
    expect(classifyAwsError(invalidName)).toBe('unknown');
    expect(awsErrorMessage(noSuchKey)).toBe('NoSuchKey: The specified key does not exist.');
    expect(awsErrorMessage(headMissing)).toBe('NotFound (HTTP 404)');
    expect(awsErrorMessage(invalidName)).toBe('InvalidBucketName: The specified bucket is not valid.');
  });

  it('recognises a missing credential chain and connection failures', async () => {
    const noCreds = new S3Client({ region: 'us-east-1', endpoint: moto.endpoint, forcePathStyle: true });
    const refused = new S3Client({ region: 'us-east-1', endpoint: 'http://127.0.0.1:1', forcePathStyle: true, maxAttempts: 1 });
    const e1 = await withEnv(AWS_NO_CREDENTIALS, () => failure(noCreds.send(new GetObjectCommand({ Bucket: 'b', Key: 'k' }))));
    const e2 = await failure(refused.send(new GetObjectCommand({ Bucket: 'b', Key: 'k' })));
    noCreds.destroy();
    refused.destroy();
    expect(classifyAwsError(e1)).toBe('no-credentials');
    expect(classifyAwsError(e2)).toBe('unknown');
    expect(awsErrorMessage(e2)).toMatch(/ECONNREFUSED/);
  });

  it('falls back to unknown for non-SDK values and covers codes moto cannot produce', () => {
    expect(classifyAwsError(undefined)).toBe('unknown');
    expect(classifyAwsError('AccessDenied')).toBe('unknown');
    expect(classifyAwsError(new Error('NoSuchBucket'))).toBe('unknown');
    // Hand-made: real S3 sends 409 ConditionalRequestConflict when two conditional writes race, and
    // SlowDown/DependencyViolation under load or from EC2; moto does not produce these.
    expect(classifyAwsError({ name: 'ConditionalRequestConflict', $metadata: { httpStatusCode: 409 } })).toBe('conditional-conflict');
    expect(classifyAwsError({ name: 'SlowDown', $metadata: { httpStatusCode: 503 } })).toBe('throttled');
    expect(classifyAwsError({ name: 'Unknown', $metadata: { httpStatusCode: 429 } })).toBe('throttled');
    expect(classifyAwsError({ name: 'DependencyViolation', Code: 'DependencyViolation', $metadata: { httpStatusCode: 400 } })).toBe('dependency-violation');
  });
});

describe('with IAM authentication enforced', () => {
  let authMoto: MotoServer;
  let key: { id: string; secret: string };
  const Bucket = 'kforge-locked';

  beforeAll(async () => {
    // The first four requests are unauthenticated (setup); every later one needs a valid IAM key.
    authMoto = await startMotoServer({ env: { INITIAL_NO_AUTH_ACTION_COUNT: '4' } });
    await iam(authMoto.endpoint, 'Action=CreateUser&UserName=nobody&Version=2010-05-08');
    const xml = await iam(authMoto.endpoint, 'Action=CreateAccessKey&UserName=nobody&Version=2010-05-08');
    key = { id: /<AccessKeyId>([^<]+)</.exec(xml)?.[1] ?? '', secret: /<SecretAccessKey>([^<]+)</.exec(xml)?.[1] ?? '' };
    const setup = new S3Client({ region: 'us-east-1', endpoint: authMoto.endpoint, forcePathStyle: true, credentials: { accessKeyId: 'test', secretAccessKey: 'test' } });
    await setup.send(new CreateBucketCommand({ Bucket }));
    await setup.send(new PutObjectCommand({ Bucket, Key: 'p/k', Body: 'x' }));
    setup.destroy();
  });

  afterAll(async () => {
    await authMoto?.stop();
  });

  it('says which operation on which object the credentials may not perform', async () => {
    const errors = await withEnv({ AWS_ACCESS_KEY_ID: key.id, AWS_SECRET_ACCESS_KEY: key.secret }, async () => {
      const v = new S3Vfs(`s3://${Bucket}/p`, { ...authMoto.env, AWS_MAX_ATTEMPTS: '1' });
      // Listed at the bucket root: moto's SigV4 check rejects a '/' in a query parameter (Prefix=p/) as SignatureDoesNotMatch.
      const root = new S3Vfs(`s3://${Bucket}`, { ...authMoto.env, AWS_MAX_ATTEMPTS: '1' });
      return [await failure(v.read('k')), await failure(v.write('k', 'y')), await failure(root.list('p')), await failure(v.delete('k', { ifVersion: '"x"' }))];
    });
    const expected = [
      /^cannot read s3:\/\/kforge-locked\/p\/k: access denied: the AWS credentials in use lack permission \(s3:GetObject\) \(AccessDenied: Access Denied\)$/,
      /^cannot write s3:\/\/kforge-locked\/p\/k: access denied: .*\(s3:PutObject\)/,
      /^cannot list s3:\/\/kforge-locked\/p: access denied: .*\(s3:ListBucket\)/,
      // HEAD has no error body: the SDK only knows the 403 status.
      /^cannot delete s3:\/\/kforge-locked\/p\/k: access denied: .*\(s3:GetObject\) \(Unknown \(HTTP 403\)\)$/,
    ];
    errors.forEach((e, i) => {
      expect(e).toBeInstanceOf(StateStoreError);
      expect((e as Error).message).toMatch(expected[i]);
    });
  });

  it('classifies denials and rejected keys from the real responses', async () => {
    const client = (accessKeyId: string, secretAccessKey: string): S3Client =>
      new S3Client({ region: 'us-east-1', endpoint: authMoto.endpoint, forcePathStyle: true, maxAttempts: 1, credentials: { accessKeyId, secretAccessKey } });
    const nobody = client(key.id, key.secret);
    const unknownKey = client('test', 'test');
    const wrongSecret = client(key.id, 'wrong');
    const denied = await failure(nobody.send(new GetObjectCommand({ Bucket, Key: 'p/k' })));
    const headDenied = await failure(nobody.send(new HeadObjectCommand({ Bucket, Key: 'p/k' })));
    const badKey = await failure(unknownKey.send(new GetObjectCommand({ Bucket, Key: 'p/k' })));
    const badSignature = await failure(wrongSecret.send(new GetObjectCommand({ Bucket, Key: 'p/k' })));
    for (const c of [nobody, unknownKey, wrongSecret]) c.destroy();
    expect(classifyAwsError(denied)).toBe('access-denied');
    expect(classifyAwsError(headDenied)).toBe('access-denied');
    expect(classifyAwsError(badKey)).toBe('invalid-credentials');
    expect(classifyAwsError(badSignature)).toBe('invalid-credentials');
  });
});

/** One IAM query-API call; moto routes it by the credential scope in the (unchecked) Authorization header. */
function iam(endpoint: string, body: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${endpoint}/`,
      {
        method: 'POST',
        agent: false,
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          authorization: 'AWS4-HMAC-SHA256 Credential=test/20260101/us-east-1/iam/aws4_request, SignedHeaders=host, Signature=0',
        },
      },
      (res) => {
        let text = '';
        res.on('data', (d: Buffer) => (text += d.toString()));
        res.on('end', () => (res.statusCode === 200 ? resolve(text) : reject(new Error(`IAM ${body}: HTTP ${res.statusCode}: ${text}`))));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}
