import { createHash } from 'node:crypto';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One stored object version, as the fake keeps it (JSON fields are rendered from this). */
export interface FakeGcsObject {
  name: string;
  generation: string;
  metageneration: string;
  data: Buffer;
  contentType: string;
  md5Hash: string;
  crc32c: string;
  kmsKeyName?: string;
  timeCreated: string;
}

/** A stored bucket: the metadata the client sent (defaults where it sent none) plus its objects. */
export interface FakeGcsBucket {
  name: string;
  project: string;
  versioning: { enabled?: boolean };
  iamConfiguration: Record<string, unknown>;
  encryption?: { defaultKmsKeyName?: string };
  timeCreated: string;
  /** Live objects by name. */
  objects: Map<string, FakeGcsObject>;
  /** Overwritten or deleted versions, kept only while versioning is enabled. */
  noncurrent: FakeGcsObject[];
}

/** A request as the fake received it, so tests (and humans) can see what the client sends. */
export interface FakeGcsRequest {
  method: string;
  path: string;
  query: Record<string, string>;
}

/** Start options: `pageSize` is the default and maximum list page (the real API's is 1000). */
export interface FakeGcsOptions {
  pageSize?: number;
}

/** A running fake of the GCS JSON API, with hooks for tests to inspect and perturb it. */
export interface FakeGcs {
  endpoint: string;
  port: number;
  /** Every request since start or the last reset. */
  requests: FakeGcsRequest[];
  bucket(name: string): FakeGcsBucket | undefined;
  /** Makes the next `times` requests fail with this status and reason, as a real outage or IAM denial would. */
  injectFault(fault: { status: number; reason: string; message?: string; times?: number }): void;
  /** From now on every request needs `Authorization: Bearer <token>` with a token `check` accepts (401 otherwise, as GCS); undefined: none. */
  requireBearer(check: ((token: string) => boolean) | undefined): void;
  reset(): void;
  stop(): Promise<void>;
}

class ApiFailure extends Error {
  constructor(readonly status: number, readonly reason: string, message: string) {
    super(message);
  }
}

const CRC32C_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0x82f63b78 : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/** CRC32C (Castagnoli), the checksum GCS reports and the client verifies after every upload. */
export function crc32c(data: Buffer): number {
  let c = 0xffffffff;
  for (const byte of data) c = CRC32C_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** The API's encoding of a CRC32C: base64 of the big-endian 4 bytes. */
export function crc32cBase64(data: Buffer): string {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(crc32c(data));
  return b.toString('base64');
}

const BUCKET_NAME = /^[a-z0-9][a-z0-9._-]{1,61}[a-z0-9]$/;
const notFoundBucket = () => new ApiFailure(404, 'notFound', 'The specified bucket does not exist.');
const notFoundObject = (b: string, o: string) => new ApiFailure(404, 'notFound', `No such object: ${b}/${o}`);
const conditionNotMet = () => new ApiFailure(412, 'conditionNotMet', 'At least one of the pre-conditions you specified did not hold.');

/** Starts the fake on an ephemeral port of 127.0.0.1. */
export async function startFakeGcs(options: FakeGcsOptions = {}): Promise<FakeGcs> {
  const pageSize = options.pageSize ?? 1000;
  const buckets = new Map<string, FakeGcsBucket>();
  const requests: FakeGcsRequest[] = [];
  let faults: Array<{ status: number; reason: string; message: string }> = [];
  let bearer: ((token: string) => boolean) | undefined;
  // Real generations are microsecond timestamps; strictly increasing is the property that matters.
  let lastGeneration = Date.now() * 1000;
  const nextGeneration = () => String(++lastGeneration);

  const getBucket = (name: string) => buckets.get(name) ?? throwIt(notFoundBucket());

  const objectJson = (b: FakeGcsBucket, o: FakeGcsObject) => ({
    kind: 'storage#object',
    id: `${b.name}/${o.name}/${o.generation}`,
    name: o.name,
    bucket: b.name,
    generation: o.generation,
    metageneration: o.metageneration,
    contentType: o.contentType,
    storageClass: 'STANDARD',
    size: String(o.data.length),
    md5Hash: o.md5Hash,
    crc32c: o.crc32c,
    etag: Buffer.from(o.generation).toString('base64'),
    timeCreated: o.timeCreated,
    updated: o.timeCreated,
    ...(o.kmsKeyName ? { kmsKeyName: o.kmsKeyName } : {}),
  });

  const bucketJson = (b: FakeGcsBucket) => ({
    ...{ kind: 'storage#bucket', id: b.name, name: b.name, projectNumber: '123456789012', metageneration: '1', etag: 'CAE=' },
    ...{ location: 'US', locationType: 'multi-region', storageClass: 'STANDARD', timeCreated: b.timeCreated, updated: b.timeCreated },
    ...{ versioning: b.versioning, iamConfiguration: b.iamConfiguration, ...(b.encryption ? { encryption: b.encryption } : {}) },
  });

  const findVersion = (b: FakeGcsBucket, name: string, generation?: string) => {
    const live = b.objects.get(name);
    if (generation === undefined || live?.generation === generation) return live;
    return b.noncurrent.find((o) => o.name === name && o.generation === generation);
  };

  const insertBucket = (q: Record<string, string>, body: Buffer): [number, unknown] => {
    const meta = parseJson(body);
    const name = String(meta.name ?? '');
    if (!q.project) throw new ApiFailure(400, 'required', 'Required parameter: project');
    if (!BUCKET_NAME.test(name)) throw new ApiFailure(400, 'invalid', 'Invalid bucket name: ' + JSON.stringify(name));
    if (buckets.has(name)) throw new ApiFailure(409, 'conflict', 'Your previous request to create the named bucket succeeded and you already own it.');
    const iam = (meta.iamConfiguration ?? {}) as Record<string, unknown>;
    const b: FakeGcsBucket = {
      name,
      project: q.project,
      versioning: (meta.versioning as FakeGcsBucket['versioning']) ?? { enabled: false },
      iamConfiguration: { uniformBucketLevelAccess: { enabled: false }, publicAccessPrevention: 'inherited', ...iam },
      encryption: meta.encryption as FakeGcsBucket['encryption'],
      timeCreated: new Date().toISOString(),
      objects: new Map(),
      noncurrent: [],
    };
    buckets.set(name, b);
    return [200, bucketJson(b)];
  };

  const upload = (bucketName: string, q: Record<string, string>, req: http.IncomingMessage, body: Buffer): [number, unknown] => {
    const b = getBucket(bucketName);
    let meta: Record<string, unknown> = {};
    let data = body;
    let contentType = req.headers['content-type'] ?? 'application/octet-stream';
    if (q.uploadType === 'multipart') {
      const [metaPart, dataPart] = parseMultipart(body, contentType);
      meta = parseJson(metaPart.body);
      data = dataPart.body;
      contentType = String(meta.contentType ?? dataPart.contentType ?? 'application/octet-stream');
    } else if (q.uploadType !== 'media') {
      throw new ApiFailure(501, 'notImplemented', `fake-gcs: uploadType=${q.uploadType} is not implemented`);
    }
    const name = q.name ?? (typeof meta.name === 'string' ? meta.name : '');
    if (!name) throw new ApiFailure(400, 'required', 'Required parameter: name');
    const sums = { md5Hash: createHash('md5').update(data).digest('base64'), crc32c: crc32cBase64(data) };
    for (const [field, actual] of Object.entries(sums)) {
      if (meta[field] !== undefined && meta[field] !== actual) throw new ApiFailure(400, 'invalid', `Provided ${field} "${String(meta[field])}" doesn't match calculated ${field} "${actual}".`);
    }
    const live = b.objects.get(name);
    checkPreconditions(q, live);
    const kms = q.kmsKeyName ?? (meta.kmsKeyName as string | undefined) ?? b.encryption?.defaultKmsKeyName;
    const o: FakeGcsObject = { name, generation: nextGeneration(), metageneration: '1', data: Buffer.from(data), contentType, ...sums, kmsKeyName: kms, timeCreated: new Date().toISOString() };
    if (live && b.versioning.enabled) b.noncurrent.push(live);
    b.objects.set(name, o);
    return [200, objectJson(b, o)];
  };

  // Sorted by name (then generation), like the real listing; the page token is the last key returned.
  const list = (b: FakeGcsBucket, q: Record<string, string>): [number, unknown] => {
    const keyOf = (o: FakeGcsObject) => `${o.name}\0${o.generation.padStart(20, '0')}`;
    const after = q.pageToken ? Buffer.from(q.pageToken, 'base64url').toString() : '';
    const all = q.versions === 'true' ? [...b.objects.values(), ...b.noncurrent] : [...b.objects.values()];
    const matching = all.filter((o) => o.name.startsWith(q.prefix ?? '') && keyOf(o) > after).sort((x, y) => (keyOf(x) < keyOf(y) ? -1 : 1));
    const page = matching.slice(0, Math.min(Number(q.maxResults) || pageSize, pageSize));
    const next = page.length < matching.length ? { nextPageToken: Buffer.from(keyOf(page[page.length - 1])).toString('base64url') } : {};
    return [200, { kind: 'storage#objects', ...(page.length ? { items: page.map((o) => objectJson(b, o)) } : {}), ...next }];
  };

  const deleteObject = (b: FakeGcsBucket, name: string, q: Record<string, string>): [number, unknown] => {
    const target = findVersion(b, name, q.generation) ?? throwIt(notFoundObject(b.name, name));
    checkPreconditions(q, b.objects.get(name));
    if (b.objects.get(name) === target) {
      b.objects.delete(name);
      if (b.versioning.enabled) b.noncurrent.push(target);
    } else {
      b.noncurrent = b.noncurrent.filter((o) => o !== target);
    }
    return [204, undefined];
  };

  const route = (req: http.IncomingMessage, res: http.ServerResponse, body: Buffer): [number, unknown] => {
    const url = new URL(req.url ?? '/', 'http://fake');
    const q = Object.fromEntries(url.searchParams.entries());
    const method = req.method ?? 'GET';
    requests.push({ method, path: url.pathname, query: q });
    if (bearer) {
      const auth = /^Bearer (\S+)$/.exec(String(req.headers.authorization ?? ''));
      if (!auth) throw new ApiFailure(401, 'required', 'Anonymous caller does not have storage.objects.get access to the Google Cloud Storage object.');
      if (!bearer(auth[1])) throw new ApiFailure(401, 'authError', 'Invalid Credentials');
    }
    const fault = faults.shift();
    if (fault) throw new ApiFailure(fault.status, fault.reason, fault.message);
    // Raw segments, decoded one by one: object names arrive with `/` encoded as %2F.
    const raw = url.pathname.split('/').slice(1);
    const isUpload = raw[0] === 'upload';
    // The client uses /storage/v1/... with apiEndpoint and bare /b/... with STORAGE_EMULATOR_HOST; real servers take both.
    const seg = (isUpload ? raw.slice(1) : raw).join('/').replace(/^storage\/v1\//, '').split('/').map(decodeURIComponent);
    if (isUpload && method === 'POST' && seg.length === 3 && seg[0] === 'b' && seg[2] === 'o') return upload(seg[1], q, req, body);
    if (!isUpload && seg[0] === 'b') {
      if (seg.length === 1 && method === 'POST') return insertBucket(q, body);
      const b = seg.length >= 2 ? getBucket(seg[1]) : undefined;
      if (b && seg.length === 2 && method === 'GET') return [200, bucketJson(b)];
      if (b && seg.length === 3 && seg[2] === 'o' && method === 'GET') return list(b, q);
      if (b && seg.length === 4 && seg[2] === 'o') {
        if (method === 'DELETE') return deleteObject(b, seg[3], q);
        if (method === 'GET') {
          const o = findVersion(b, seg[3], q.generation) ?? throwIt(notFoundObject(b.name, seg[3]));
          checkPreconditions(q, o);
          if (q.alt !== 'media') return [200, objectJson(b, o)];
          res.writeHead(200, {
            'content-type': o.contentType,
            'content-length': o.data.length,
            'x-goog-generation': o.generation,
            'x-goog-metageneration': o.metageneration,
            'x-goog-hash': `crc32c=${o.crc32c},md5=${o.md5Hash}`,
            'x-goog-stored-content-encoding': 'identity',
            'x-goog-stored-content-length': o.data.length,
          });
          res.end(o.data);
          return [0, undefined];
        }
      }
    }
    throw new ApiFailure(501, 'notImplemented', `fake-gcs: ${method} ${url.pathname} is not implemented`);
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      let status: number;
      let json: unknown;
      try {
        [status, json] = route(req, res, Buffer.concat(chunks));
        if (status === 0) return;
      } catch (e) {
        const f = e instanceof ApiFailure ? e : new ApiFailure(500, 'backendError', e instanceof Error ? e.message : String(e));
        status = f.status;
        json = { error: { code: f.status, message: f.message, errors: [{ message: f.message, domain: 'global', reason: f.reason }] } };
      }
      if (json === undefined) res.writeHead(status).end();
      else res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8' }).end(JSON.stringify(json));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    port,
    requests,
    bucket: (name) => buckets.get(name),
    injectFault: ({ status, reason, message, times = 1 }) => {
      for (let i = 0; i < times; i++) faults.push({ status, reason, message: message ?? `fake-gcs: injected ${reason}` });
    },
    requireBearer: (check) => {
      bearer = check;
    },
    reset: () => {
      bearer = undefined;
      buckets.clear();
      requests.length = 0;
      faults = [];
    },
    stop: () =>
      new Promise<void>((resolve, reject) => {
        server.close((e) => (e ? reject(e) : resolve()));
        // The client keeps connections alive; without this close() waits for them to time out.
        server.closeAllConnections();
      }),
  };
}

function checkPreconditions(q: Record<string, string>, live: FakeGcsObject | undefined): void {
  for (const p of ['ifGenerationMatch', 'ifGenerationNotMatch', 'ifMetagenerationMatch', 'ifMetagenerationNotMatch']) {
    if (q[p] !== undefined && !/^\d+$/.test(q[p])) throw new ApiFailure(400, 'invalid', `Invalid value for ${p}: ${JSON.stringify(q[p])}`);
  }
  const gen = live?.generation ?? '0';
  if (q.ifGenerationMatch !== undefined && BigInt(q.ifGenerationMatch) !== BigInt(gen)) throw conditionNotMet();
  if (q.ifGenerationNotMatch !== undefined && (!live || BigInt(q.ifGenerationNotMatch) === BigInt(gen))) throw conditionNotMet();
  if (q.ifMetagenerationMatch !== undefined && (!live || q.ifMetagenerationMatch !== live.metageneration)) throw conditionNotMet();
  if (q.ifMetagenerationNotMatch !== undefined && (!live || q.ifMetagenerationNotMatch === live.metageneration)) throw conditionNotMet();
}

function parseMultipart(body: Buffer, contentType: string): Array<{ contentType?: string; body: Buffer }> {
  const boundary = /boundary="?([^";]+)"?/.exec(contentType)?.[1];
  if (!boundary) throw new ApiFailure(400, 'invalid', 'multipart upload without a boundary');
  const delimiter = Buffer.from(`--${boundary}`);
  const parts: Array<{ contentType?: string; body: Buffer }> = [];
  let pos = body.indexOf(delimiter);
  while (pos >= 0) {
    const start = pos + delimiter.length;
    const next = body.indexOf(delimiter, start);
    if (next < 0) break;
    // A part is CRLF, headers, CRLF CRLF, content, CRLF.
    const part = body.subarray(start + 2, next - 2);
    const split = part.indexOf('\r\n\r\n');
    const headers = part.subarray(0, split).toString();
    parts.push({ contentType: /content-type:\s*([^\r\n]+)/i.exec(headers)?.[1], body: part.subarray(split + 4) });
    pos = next;
  }
  if (parts.length !== 2) throw new ApiFailure(400, 'invalid', `multipart upload has ${parts.length} parts, expected metadata and media`);
  return parts;
}

function parseJson(body: Buffer): Record<string, unknown> {
  try {
    return JSON.parse(body.toString() || '{}') as Record<string, unknown>;
  } catch {
    throw new ApiFailure(400, 'parseError', 'Parse Error');
  }
}

function throwIt(e: Error): never {
  throw e;
}
