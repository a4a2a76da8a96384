import * as https from 'node:https';
import type { Bucket, File, Storage } from '@google-cloud/storage';
import { classifyGceError, gceErrorMessage, requireGceCredentials } from '../../cloud/gce/gce-errors';
import { AlreadyExistsError } from '../../errors/already-exists-error';
import { ConflictError } from '../../errors/conflict-error';
import { KforgeError } from '../../errors/kforge-error';
import { StateStoreError } from '../../errors/state-store-error';
import { UsageError } from '../../errors/usage-error';
import { confirmOwnWrite } from './confirm-own-write';
import { sharedLookup } from '../../net/shared-lookup';
import { Vfs, VfsDeleteOptions, VfsObject, VfsWriteOptions } from './vfs';

/** Bucket names kforge accepts: 3-63 characters of lowercase letters, digits, `-`, `_`, `.`; alphanumeric at both ends. */
const BUCKET_NAME = /^[a-z0-9][a-z0-9._-]{1,61}[a-z0-9]$/;
/** Selects a customer-managed KMS key; GCS encrypts every object at rest regardless. */
const KMS_ENV = 'KFORGE_STATE_GCS_KMS_KEY';

/** A state store in Google Cloud Storage (`gs://bucket/prefix`); version tokens are object generations. */
export class GcsVfs implements Vfs {
  readonly url: string;
  /** The bucket holding the store. */
  readonly bucketName: string;
  /** Object-name prefix of every key: `` or `some/prefix/`. */
  private readonly prefix: string;
  private storage: Promise<Storage> | undefined;
  /** Once any call reached the bucket, a 404 can only mean a missing object, which saves a lookup per miss. */
  private bucketSeen = false;

  constructor(
    url: string,
    private readonly env: NodeJS.ProcessEnv = process.env,
  ) {
    const m = /^gs:\/\/([^/]*)(?:\/(.*))?$/i.exec(url);
    const prefix = (m?.[2] ?? '').replace(/\/+$/, '');
    const problem = !m
      ? 'expected gs://bucket or gs://bucket/prefix'
      : !BUCKET_NAME.test(m[1])
        ? `bucket name ${JSON.stringify(m[1])} must be 3-63 lowercase letters, digits, "-", "_" or ".", starting and ending with a letter or digit`
        : prefix.split('/').includes('') && prefix !== ''
          ? 'the prefix has an empty path segment'
          : undefined;
    if (problem !== undefined || !m) throw new UsageError(`--state: ${JSON.stringify(url)} is not a valid GCS state store URL: ${problem}`);
    this.bucketName = m[1];
    this.prefix = prefix ? `${prefix}/` : '';
    this.url = `gs://${this.bucketName}${prefix ? `/${prefix}` : ''}`;
  }

  async read(key: string): Promise<VfsObject | undefined> {
    const bucket = await this.bucket();
    try {
      const { data, generation } = await download(bucket.file(this.prefix + key));
      this.bucketSeen = true;
      return { data, version: generation };
    } catch (e) {
      if (await this.isMissingObject(e)) return undefined;
      throw this.fail('read', key, e);
    }
  }

  async write(key: string, data: Buffer | string, options: VfsWriteOptions = {}): Promise<string> {
    const bucket = await this.bucket();
    const version = options.ifNotExists ? '0' : options.ifVersion;
    if (version !== undefined && !isGeneration(version)) throw this.conflict(key, options);
    // `secret` needs nothing extra: GCS encrypts every object, and the bucket is private with uniform access.
    const kmsKeyName = this.env[KMS_ENV] || undefined;
    const file = bucket.file(this.prefix + key, kmsKeyName ? { kmsKeyName } : {});
    try {
      // Simple (non-resumable) upload: state objects are small and the write is all-or-nothing.
      await file.save(Buffer.from(data), {
        resumable: false,
        validation: 'crc32c',
        contentType: 'application/octet-stream',
        ...(version !== undefined ? { preconditionOpts: { ifGenerationMatch: version } } : {}),
      });
    } catch (e) {
      if (classifyGceError(e) === 'precondition-failed') {
        // The client retries preconditioned uploads; after a lost response the retry trips over our own write.
        const own = await confirmOwnWrite(this, key, data);
        if (own !== undefined) return own;
        throw this.conflict(key, options);
      }
      throw this.fail('write', key, e);
    }
    this.bucketSeen = true;
    const generation = file.metadata.generation;
    if (generation === undefined) throw new StateStoreError(`state store ${this.url}: the upload of ${this.url}/${key} returned no generation`);
    return String(generation);
  }

  async delete(key: string, options: VfsDeleteOptions = {}): Promise<void> {
    if (options.ifVersion !== undefined && !isGeneration(options.ifVersion)) throw this.conflict(key, options);
    const bucket = await this.bucket();
    try {
      await bucket.file(this.prefix + key).delete(options.ifVersion !== undefined ? { ifGenerationMatch: options.ifVersion } : {});
      this.bucketSeen = true;
    } catch (e) {
      if (classifyGceError(e) === 'precondition-failed') throw this.conflict(key, options);
      if (await this.isMissingObject(e)) return;
      throw this.fail('delete', key, e);
    }
  }

  async list(prefix: string): Promise<string[]> {
    const bucket = await this.bucket();
    try {
      // autoPaginate follows nextPageToken; `fields` keeps each page to the names.
      const [files] = await bucket.getFiles({ prefix: this.prefix + prefix, autoPaginate: true, fields: 'items(name),nextPageToken' });
      this.bucketSeen = true;
      return files.map((f) => f.name.slice(this.prefix.length)).sort();
    } catch (e) {
      throw this.fail('list', prefix, e);
    }
  }

  async createStore(): Promise<string[]> {
    if (!this.project()) {
      throw new UsageError(
        `creating bucket "${this.bucketName}" needs a Google Cloud project: set GOOGLE_CLOUD_PROJECT (or CLOUDSDK_CORE_PROJECT) to the project that should own it`,
      );
    }
    const storage = await this.client();
    const kms = this.env[KMS_ENV] || undefined;
    try {
      await storage.createBucket(this.bucketName, {
        versioning: { enabled: true },
        iamConfiguration: { uniformBucketLevelAccess: { enabled: true }, publicAccessPrevention: 'enforced' },
        ...(kms ? { encryption: { defaultKmsKeyName: kms } } : {}),
      });
    } catch (e) {
      if (classifyGceError(e) === 'already-exists') {
        throw new AlreadyExistsError(`bucket "${this.bucketName}" already exists (${gceErrorMessage(e)})`);
      }
      throw this.fail('create bucket', undefined, e);
    }
    return [
      `created bucket ${this.bucketName} in project ${this.project()}`,
      'versioning: enabled',
      'public access prevention: enforced',
      'uniform bucket-level access: enabled',
      kms ? `encryption: customer-managed KMS key ${kms}` : 'encryption: Google-managed',
    ];
  }

  private project(): string | undefined {
    return this.env.GOOGLE_CLOUD_PROJECT || this.env.CLOUDSDK_CORE_PROJECT || undefined;
  }

  private async bucket(): Promise<Bucket> {
    return (await this.client()).bucket(this.bucketName);
  }

  /** The SDK takes ~75 ms to load, so it is loaded on first use and the client is shared by every call. */
  private client(): Promise<Storage> {
    this.storage ??= this.connect().catch((e: unknown) => {
      this.storage = undefined;
      throw this.fail('connect to', undefined, e);
    });
    return this.storage;
  }

  private async connect(): Promise<Storage> {
    // Without credentials the auth library pings the GCE metadata server, which takes ~10 s and prints a raw
    // MetadataLookupWarning where packets to it are dropped; the firmware (BIOS vendor) and Cloud Run's
    // variables say at once whether it can be there. METADATA_SERVER_DETECTION, when set, decides instead.
    process.env.METADATA_SERVER_DETECTION ??= 'bios-only';
    const { Storage } = await import('@google-cloud/storage');
    const raw = process.env.STORAGE_EMULATOR_HOST;
    // The client also reads STORAGE_EMULATOR_HOST from the process itself, and needs a scheme in it.
    if (raw && !/^[a-z][a-z0-9+.-]*:\/\//i.test(raw)) process.env.STORAGE_EMULATOR_HOST = `http://${raw}`;
    const emulator = this.env.STORAGE_EMULATOR_HOST || undefined;
    const storage = new Storage({
      apiEndpoint: emulator && (/^[a-z][a-z0-9+.-]*:\/\//i.test(emulator) ? emulator : `http://${emulator}`),
      projectId: this.project(),
      keyFilename: this.env.GOOGLE_APPLICATION_CREDENTIALS || undefined,
      // A node pointed at a metadata server (GCE_METADATA_HOST) sends its service account's token even to
      // an emulator endpoint: the node tests' fake GCS checks it. Elsewhere emulators take no credentials.
      useAuthWithCustomEndpoint: !!(emulator && this.env.GCE_METADATA_HOST),
      // Unconditional writes are never retried by the client; preconditioned ones are idempotent and safe to repeat.
      retryOptions: { autoRetry: true, maxRetries: 3, maxRetryDelay: 8, totalTimeout: 60 },
      // The auth library waits for a token without limit; an endpoint that gives no answer in 3 s is not reachable.
      // Its retries share one DNS lookup.
      clientOptions: { transporterOptions: { timeout: 3_000, agent: new https.Agent({ keepAlive: true, lookup: sharedLookup }) } },
    });
    // Without credentials the client would send requests unauthenticated and report a 401 or a network
    // error; resolving them first gives a clear answer (emulators take no credentials).
    if (!emulator) await requireGceCredentials(storage.authClient);
    return storage;
  }

  /** Whether a failure is a 404 of the object rather than of the bucket, checked with a one-item list only when needed. */
  private async isMissingObject(e: unknown): Promise<boolean> {
    if (classifyGceError(e) !== 'not-found') return false;
    if (this.bucketSeen) return true;
    try {
      await (await this.bucket()).getFiles({ prefix: this.prefix, maxResults: 1, autoPaginate: false, fields: 'items(name)' });
    } catch (listError) {
      const kind = classifyGceError(listError);
      if (kind === 'not-found') return false;
      // A denied list still proves the bucket exists; any other failure leaves the object 404 as the best answer.
      if (kind !== 'access-denied') return true;
    }
    this.bucketSeen = true;
    return true;
  }

  private conflict(key: string, options: VfsWriteOptions): ConflictError {
    return options.ifNotExists
      ? new ConflictError(`${this.url}/${key} already exists`)
      : new ConflictError(`${this.url}/${key} changed since you read it; re-run the command to start from the current version`);
  }

  /** Maps a client error to a kforge error; 404s reaching here are the bucket's. */
  private fail(op: string, key: string | undefined, e: unknown): KforgeError {
    if (e instanceof KforgeError) return e;
    const b = this.bucketName;
    const target = key === undefined ? `gs://${b}` : `${this.url}/${key}`;
    const reason = gceErrorMessage(e);
    switch (classifyGceError(e)) {
      case 'not-found':
        return new StateStoreError(`state store ${this.url}: bucket "${b}" does not exist; create it with "kforge create state-store gs://${b}" or check --state`);
      case 'no-credentials': {
        const file = this.env.GOOGLE_APPLICATION_CREDENTIALS;
        const detail = file ? ` (GOOGLE_APPLICATION_CREDENTIALS=${file}: ${reason})` : '';
        return new StateStoreError(`no Google Cloud credentials found for gs://${b}: run "gcloud auth application-default login" or set GOOGLE_APPLICATION_CREDENTIALS${detail}`);
      }
      case 'unauthenticated':
        return new StateStoreError(`Google Cloud rejected the credentials used for gs://${b} (${reason}): run "gcloud auth application-default login" or check GOOGLE_APPLICATION_CREDENTIALS`);
      case 'access-denied':
        return new StateStoreError(`state store ${this.url}: no permission to ${op} ${target}: ${reason}`);
      case 'throttled':
        return new StateStoreError(`state store ${this.url}: cannot ${op} ${target}: Google Cloud Storage is rate-limiting requests (${reason}); try again shortly`);
      case 'unreachable':
        return new StateStoreError(`state store ${this.url}: cannot ${op} ${target}: Google Cloud Storage is unreachable (${reason})`);
      default:
        return new StateStoreError(`state store ${this.url}: cannot ${op} ${target}: ${reason}`);
    }
  }
}

/** Generations are decimal; any other token (e.g. a content hash from another store kind) cannot be current. */
function isGeneration(version: string): boolean {
  return /^\d+$/.test(version);
}

/**
 * Downloads an object and its generation in one request: the generation comes from the response's
 * `x-goog-generation` header, so it always belongs to the bytes returned, even under concurrent writes.
 */
function download(file: File): Promise<{ data: Buffer; generation: string }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let generation: string | undefined;
    file
      .createReadStream({ validation: 'crc32c' })
      .on('response', (res: { headers?: Record<string, string | string[] | undefined> }) => {
        const g = res.headers?.['x-goog-generation'];
        generation = Array.isArray(g) ? g[0] : g;
      })
      .on('data', (chunk: Buffer) => chunks.push(chunk))
      .on('error', reject)
      .on('end', () => {
        if (generation === undefined) reject(new StateStoreError(`gs://${file.bucket.name}/${file.name}: the server sent no x-goog-generation header`));
        else resolve({ data: Buffer.concat(chunks), generation });
      });
  });
}
