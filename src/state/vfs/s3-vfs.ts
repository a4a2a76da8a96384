import * as https from 'node:https';
import type { BucketLocationConstraint, S3Client } from '@aws-sdk/client-s3';
import { awsErrorCode, awsErrorMessage, awsHttpStatus, classifyAwsError, isBusyAwsError } from '../../cloud/aws/aws-errors';
import { preferCheapCredentialSources } from '../../cloud/aws/prefer-cheap-credential-sources';
import { AlreadyExistsError } from '../../errors/already-exists-error';
import { ConflictError } from '../../errors/conflict-error';
import { KforgeError } from '../../errors/kforge-error';
import { StateStoreBusyError } from '../../errors/state-store-busy-error';
import { StateStoreError } from '../../errors/state-store-error';
import { CLOUD_RETRY_BUDGET, RetryBudget, RetryClock, testRetryBudget, withRetryBudget } from '../../cloud/retry-budget';
import { UsageError } from '../../errors/usage-error';
import { confirmOwnWrite } from './confirm-own-write';
import { sharedLookup } from '../../net/shared-lookup';
import { Vfs, VfsDeleteOptions, VfsObject, VfsWriteOptions } from './vfs';

type S3Module = typeof import('@aws-sdk/client-s3');

/** Options of an S3Vfs. */
export interface S3VfsOptions {
  /** Keys per ListObjectsV2 page (MaxKeys); S3's maximum and default is 1000. Tests use small pages. */
  pageSize?: number;
  /** How long a call S3 answers busy (503 SlowDown) is retried. Default: the cloud calls' budget (or KFORGE_TEST_STORE_RETRY). */
  retry?: RetryBudget;
  /** The retries' clock and wait; tests pass their own. */
  clock?: RetryClock;
}

const BUCKET_RE = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

/** A state store in an S3 bucket (`s3://bucket/prefix`): conditional writes on ETags, every object encrypted. */
export class S3Vfs implements Vfs {
  readonly url: string;
  readonly bucket: string;
  /** Key prefix without leading or trailing slash; empty for the bucket root. */
  readonly prefix: string;
  private readonly region: string;
  private readonly kmsKeyId: string | undefined;
  private readonly retry: RetryBudget;
  private client: Promise<{ s3: S3Module; client: S3Client }> | undefined;

  constructor(
    url: string,
    private readonly env: NodeJS.ProcessEnv = process.env,
    private readonly options: S3VfsOptions = {},
  ) {
    const m = /^s3:\/\/([^/]*)(\/.*)?$/i.exec(url.trim());
    const bucket = m?.[1] ?? '';
    if (!m || !BUCKET_RE.test(bucket) || bucket.includes('..') || /^\d+\.\d+\.\d+\.\d+$/.test(bucket)) {
      throw new UsageError(
        `--state: ${JSON.stringify(url)} is not a valid S3 state store URL: use s3://bucket or s3://bucket/prefix, where the bucket name ` +
          'is 3-63 characters of lowercase letters, digits, dots and hyphens, starting and ending with a letter or digit',
      );
    }
    this.bucket = bucket;
    this.prefix = (m[2] ?? '').split('/').filter(Boolean).join('/');
    this.url = `s3://${bucket}${this.prefix ? `/${this.prefix}` : ''}`;
    this.region = env.AWS_REGION || env.AWS_DEFAULT_REGION || 'us-east-1';
    this.kmsKeyId = env.KFORGE_STATE_S3_KMS_KEY_ID || undefined;
    this.retry = options.retry ?? testRetryBudget(env) ?? CLOUD_RETRY_BUDGET;
  }

  /** Loads the SDK on first use only: importing it costs ~70 ms that commands without S3 should not pay. */
  private sdk(): Promise<{ s3: S3Module; client: S3Client }> {
    preferCheapCredentialSources(this.env);
    this.client ??= import('@aws-sdk/client-s3').then((s3) => {
      const endpoint = this.env.AWS_ENDPOINT_URL_S3 || this.env.AWS_ENDPOINT_URL || undefined;
      const attempts = Number.parseInt(this.env.AWS_MAX_ATTEMPTS ?? '', 10);
      const client = new s3.S3Client({
        region: this.region,
        // Without this, a bucket in another region fails instead of being retried against its region.
        followRegionRedirects: true,
        endpoint,
        // Local endpoints (moto, MinIO) have no wildcard DNS for virtual-hosted bucket names.
        forcePathStyle: endpoint !== undefined,
        maxAttempts: attempts > 0 ? attempts : 3,
        // The SDK default is no timeout at all: an unreachable endpoint would hang the command forever. A
        // connection (DNS lookup included) that takes over 3 s is not coming; with 3 attempts a command
        // without network fails in about 10 s.
        // Retries share one DNS lookup (the SDK's default agent is keep-alive with 50 sockets too).
        requestHandler: { connectionTimeout: 3_000, socketTimeout: 60_000, httpsAgent: new https.Agent({ keepAlive: true, maxSockets: 50, lookup: sharedLookup }) },
      });
      return { s3, client };
    });
    return this.client;
  }

  private key(key: string): string {
    return this.prefix ? `${this.prefix}/${key}` : key;
  }

  private objectUrl(key: string): string {
    return `s3://${this.bucket}/${this.key(key)}`;
  }

  async read(key: string): Promise<VfsObject | undefined> {
    const { s3, client } = await this.sdk();
    try {
      const out = await this.send('s3:GetObject', key, () => client.send(new s3.GetObjectCommand({ Bucket: this.bucket, Key: this.key(key) })));
      const data = Buffer.from(out.Body ? await out.Body.transformToByteArray() : new Uint8Array());
      return { data, version: this.etag(out.ETag, 'read', key) };
    } catch (e) {
      if (classifyAwsError(e) === 'not-found') return undefined;
      throw this.fail('read', 's3:GetObject', key, e);
    }
  }

  async write(key: string, data: Buffer | string, options: VfsWriteOptions = {}): Promise<string> {
    const { s3, client } = await this.sdk();
    try {
      const out = await this.send('s3:PutObject', key, () =>
        client.send(
          new s3.PutObjectCommand({
          Bucket: this.bucket,
          Key: this.key(key),
          Body: Buffer.from(data),
          ContentType: 'application/octet-stream',
          // Every object is encrypted, so `secret` needs nothing extra; no ACL is ever sent, objects stay private.
          ...(this.kmsKeyId ? { ServerSideEncryption: 'aws:kms', SSEKMSKeyId: this.kmsKeyId } : { ServerSideEncryption: 'AES256' }),
          ...(options.ifNotExists ? { IfNoneMatch: '*' } : {}),
          ...(options.ifVersion !== undefined ? { IfMatch: options.ifVersion } : {}),
          }),
        ),
      );
      return this.etag(out.ETag, 'write', key);
    } catch (e) {
      const kind = classifyAwsError(e);
      // A 409 means a concurrent conditional write won the race; If-Match on a deleted object gives 404.
      const lost = kind === 'precondition-failed' || kind === 'conditional-conflict' || (kind === 'not-found' && options.ifVersion !== undefined);
      // The SDK retries a request whose response was lost; the retry then fails the precondition that the
      // first attempt's own write broke. Reporting that as a conflict would orphan the object.
      const own = lost && kind !== 'not-found' ? await confirmOwnWrite(this, key, data) : undefined;
      if (own !== undefined) return own;
      if (lost && options.ifNotExists) throw new ConflictError(`${this.objectUrl(key)} already exists`);
      if (lost && options.ifVersion !== undefined) throw this.changed(key);
      throw this.fail('write', 's3:PutObject', key, e);
    }
  }

  async delete(key: string, options: VfsDeleteOptions = {}): Promise<void> {
    const { s3, client } = await this.sdk();
    if (options.ifVersion !== undefined) {
      // If-Match on DeleteObject is recent in S3 and missing from many S3-compatible stores, so the check is
      // a HEAD before the DELETE: best effort, with a small race window between the two.
      let current: string | undefined;
      try {
        current = (await this.send('s3:GetObject', key, () => client.send(new s3.HeadObjectCommand({ Bucket: this.bucket, Key: this.key(key) })))).ETag;
      } catch (e) {
        // Absent already: nothing to check; the DELETE below still reports a missing bucket.
        if (classifyAwsError(e) !== 'not-found') throw this.fail('delete', 's3:GetObject', key, e);
      }
      if (current !== undefined && current !== options.ifVersion) throw this.changed(key);
    }
    try {
      await this.send('s3:DeleteObject', key, () => client.send(new s3.DeleteObjectCommand({ Bucket: this.bucket, Key: this.key(key) })));
    } catch (e) {
      throw this.fail('delete', 's3:DeleteObject', key, e);
    }
  }

  async list(prefix: string): Promise<string[]> {
    const { s3, client } = await this.sdk();
    const base = this.prefix ? `${this.prefix}/` : '';
    const keys: string[] = [];
    let token: string | undefined;
    try {
      do {
        const page = await this.send('s3:ListBucket', prefix, () =>
          client.send(new s3.ListObjectsV2Command({ Bucket: this.bucket, Prefix: base + prefix, ContinuationToken: token, MaxKeys: this.options.pageSize ?? 1000 })),
        );
        for (const obj of page.Contents ?? []) if (obj.Key?.startsWith(base)) keys.push(obj.Key.slice(base.length));
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
    } catch (e) {
      throw this.fail('list', 's3:ListBucket', prefix, e);
    }
    return keys.sort();
  }

  async createStore(): Promise<string[]> {
    const { s3, client } = await this.sdk();
    const Bucket = this.bucket;
    try {
      await this.send('s3:ListBucket', undefined, () => client.send(new s3.HeadBucketCommand({ Bucket })));
    } catch (e) {
      // us-east-1 answers 200 to CreateBucket on a bucket you own, hence this check. A 403 may be someone
      // else's bucket: CreateBucket below reports that precisely, so it is not an error yet.
      const kind = classifyAwsError(e);
      if (kind !== 'not-found' && kind !== 'no-such-bucket' && kind !== 'access-denied') throw this.fail('check bucket', 's3:ListBucket', undefined, e);
      return this.configureNewBucket(s3, client);
    }
    throw new AlreadyExistsError(`bucket "${Bucket}" already exists; use it with --state ${this.url}`);
  }

  private async configureNewBucket(s3: S3Module, client: S3Client): Promise<string[]> {
    const Bucket = this.bucket;
    const location = this.region === 'us-east-1' ? {} : { CreateBucketConfiguration: { LocationConstraint: this.region as BucketLocationConstraint } };
    const encryption = this.kmsKeyId
      ? { ApplyServerSideEncryptionByDefault: { SSEAlgorithm: 'aws:kms' as const, KMSMasterKeyID: this.kmsKeyId }, BucketKeyEnabled: true }
      : { ApplyServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' as const } };
    const steps: Array<[op: string, action: string, run: () => Promise<unknown>]> = [
      ['create bucket', 's3:CreateBucket', () => client.send(new s3.CreateBucketCommand({ Bucket, ObjectOwnership: 'BucketOwnerEnforced', ...location }))],
      [
        'block public access on',
        's3:PutBucketPublicAccessBlock',
        () =>
          client.send(
            new s3.PutPublicAccessBlockCommand({
              Bucket,
              PublicAccessBlockConfiguration: { BlockPublicAcls: true, IgnorePublicAcls: true, BlockPublicPolicy: true, RestrictPublicBuckets: true },
            }),
          ),
      ],
      ['enable versioning on', 's3:PutBucketVersioning', () => client.send(new s3.PutBucketVersioningCommand({ Bucket, VersioningConfiguration: { Status: 'Enabled' } }))],
      [
        'set default encryption on',
        's3:PutEncryptionConfiguration',
        () => client.send(new s3.PutBucketEncryptionCommand({ Bucket, ServerSideEncryptionConfiguration: { Rules: [encryption] } })),
      ],
    ];
    for (const [i, [op, action, run]] of steps.entries()) {
      try {
        await this.send(action, undefined, run);
      } catch (e) {
        if (i === 0 && classifyAwsError(e) === 'already-exists') throw new AlreadyExistsError(`bucket "${Bucket}" already exists (${awsErrorMessage(e)})`);
        const err = this.fail(op, action, undefined, e);
        // A half-configured bucket must not go unnoticed: it exists, but without the safe settings.
        throw i === 0 ? err : new StateStoreError(`${err.message}; bucket "${Bucket}" was created but is not fully configured: delete it and retry`);
      }
    }
    return [
      `created bucket ${Bucket} in ${this.region}`,
      'object ownership: bucket owner enforced (ACLs disabled)',
      'public access: blocked (all four settings)',
      'versioning: enabled',
      `default encryption: ${this.kmsKeyId ? `aws:kms with key ${this.kmsKeyId} (bucket key enabled)` : 'AES256'}`,
    ];
  }

  /**
   * Sends a call again while S3 answers busy (503 SlowDown, a 5xx), within the store's retry budget, which is
   * the cloud calls' (retry-budget.ts); then fails naming the permission, the object and S3's answer. Any
   * other error is the caller's to explain. A retried conditional write that the first attempt applied
   * fails its precondition, which write() recognises as its own (confirmOwnWrite).
   */
  private send<T>(action: string, key: string | undefined, call: () => Promise<T>): Promise<T> {
    const target = key === undefined ? `s3://${this.bucket}` : this.objectUrl(key);
    const giveUp = (last: { error: unknown; attempts: number; elapsedMs: number }) =>
      new StateStoreBusyError(this.url, { operation: action, target, errorCode: awsErrorCode(last.error), httpStatus: awsHttpStatus(last.error), attempts: last.attempts, elapsedMs: last.elapsedMs });
    return withRetryBudget(call, isBusyAwsError, giveUp, this.retry, this.options.clock);
  }

  private etag(etag: string | undefined, op: string, key: string): string {
    if (!etag) throw new StateStoreError(`cannot ${op} ${this.objectUrl(key)}: the S3 endpoint returned no ETag`);
    return etag;
  }

  private changed(key: string): ConflictError {
    return new ConflictError(`${this.objectUrl(key)} changed since you read it; re-run the command to start from the current version`);
  }

  /** Turns an SDK error into the kforge error users see; `op` is a verb phrase, `action` the IAM permission. */
  private fail(op: string, action: string, key: string | undefined, e: unknown): KforgeError {
    if (e instanceof KforgeError) return e;
    const target = key === undefined ? `s3://${this.bucket}` : this.objectUrl(key);
    switch (classifyAwsError(e)) {
      case 'no-such-bucket':
        return new StateStoreError(
          `state store ${this.url}: bucket "${this.bucket}" does not exist; create it with "kforge create state-store s3://${this.bucket}" or check --state`,
        );
      case 'no-credentials':
        return new StateStoreError(
          `no AWS credentials found for s3://${this.bucket}: set AWS_PROFILE, or AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (${awsErrorMessage(e)})`,
        );
      case 'access-denied':
        return new StateStoreError(
          `cannot ${op} ${target}: access denied: the AWS credentials in use lack permission (${action}) (${awsErrorMessage(e)})`,
        );
      case 'unreachable':
        return new StateStoreError(`state store ${this.url}: cannot ${op} ${target}: S3 is unreachable (${awsErrorMessage(e)})`);
      default:
        return new StateStoreError(`cannot ${op} ${target}: ${awsErrorMessage(e)}`);
    }
  }
}
