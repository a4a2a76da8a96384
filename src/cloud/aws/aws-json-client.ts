import { createHash, createHmac } from 'node:crypto';
import { classifyAwsError } from './aws-errors';

/** What the JSON client needs to reach one AWS service. */
export interface AwsJsonClientConfig {
  /** `sqs` (AWS JSON 1.0, target prefix `AmazonSQS`) or `events` (EventBridge, AWS JSON 1.1, `AWSEvents`). */
  service: 'sqs' | 'events';
  region: string;
  /** An endpoint override (AWS_ENDPOINT_URL…); default `https://<service>.<region>.amazonaws.com` (`.com.cn` in China). */
  endpoint?: string;
  credentials?: { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
  maxAttempts: number;
}

/** An operation and its input, the shape the middlewares see (as an SDK command's). */
export interface AwsJsonCommand {
  operation: string;
  input: Record<string, unknown>;
}

type Handler = (args: { input: Record<string, unknown> }) => Promise<unknown>;
type Middleware = (next: Handler, context: { commandName: string }) => Handler;
type Step = 'initialize' | 'serialize' | 'build' | 'finalizeRequest' | 'deserialize';
const STEPS: Step[] = ['initialize', 'serialize', 'build', 'finalizeRequest', 'deserialize'];
const PRIORITY = { high: 0, normal: 1, low: 2 } as const;

const PROTOCOL = {
  sqs: { contentType: 'application/x-amz-json-1.0', target: 'AmazonSQS' },
  events: { contentType: 'application/x-amz-json-1.1', target: 'AWSEvents' },
} as const;

/**
 * A small client for the two AWS JSON-protocol services the node-termination-handler needs (SQS, EventBridge),
 * whose SDK packages kforge does not ship: SigV4-signed POSTs with `X-Amz-Target`, through the SDK's own signer,
 * HTTP handler and credential chain. It has the SDK client's `middlewareStack.add`, so the call counter, the
 * lock fence and the unconfirmed-create guard install on it as on every other client, and the SDK's retry
 * placement: throttling, 5xx and dropped connections are retried between `build` and `finalizeRequest`.
 * Errors carry the SDK's fields (`name` = the error code, `$metadata.httpStatusCode`), so aws-errors.ts
 * classifies them like SDK errors.
 */
export class AwsJsonClient {
  private readonly middlewares: Array<{ mw: Middleware; step: Step; priority: number; order: number }> = [];
  /** The SDK's `middlewareStack` surface that kforge's instrumentation uses. */
  readonly middlewareStack = {
    add: (mw: Middleware, options: { step?: Step; priority?: keyof typeof PRIORITY }): void => {
      this.middlewares.push({ mw, step: options.step ?? 'initialize', priority: PRIORITY[options.priority ?? 'normal'], order: this.middlewares.length });
    },
  };
  private http: Promise<{ handle: (r: unknown) => Promise<{ response: { statusCode: number; headers: Record<string, string>; body: AsyncIterable<Uint8Array> } }> }> | undefined;

  constructor(private readonly config: AwsJsonClientConfig) {}

  /** Sends one operation and returns its parsed answer. */
  async send<T = Record<string, unknown>>(command: AwsJsonCommand): Promise<T> {
    const context = { commandName: `${command.operation}Command` };
    const ordered = (steps: Step[]) =>
      this.middlewares.filter((m) => steps.includes(m.step)).sort((a, b) => STEPS.indexOf(a.step) - STEPS.indexOf(b.step) || a.priority - b.priority || a.order - b.order);
    const compose = (steps: Step[], inner: Handler): Handler => ordered(steps).reduceRight<Handler>((next, m) => m.mw(next, context), inner);
    const attempt = compose(['finalizeRequest', 'deserialize'], (args) => this.request(command.operation, args.input));
    const withRetries: Handler = async (args) => {
      for (let n = 1; ; n++) {
        try {
          return await attempt(args);
        } catch (e) {
          if (n >= this.config.maxAttempts || !retryable(e)) throw e;
          await new Promise((r) => setTimeout(r, Math.min(20_000, 100 * 2 ** n * Math.random())));
        }
      }
    };
    return (await compose(['initialize', 'serialize', 'build'], withRetries)({ input: command.input })) as T;
  }

  /** One signed HTTP request. */
  private async request(operation: string, input: Record<string, unknown>): Promise<unknown> {
    const { service, region } = this.config;
    const url = new URL(this.config.endpoint ?? `https://${service}.${region}.amazonaws.com${region.startsWith('cn-') ? '.cn' : ''}`);
    const body = JSON.stringify(input);
    const unsigned = {
      method: 'POST',
      protocol: url.protocol,
      hostname: url.hostname,
      port: url.port ? Number(url.port) : undefined,
      path: url.pathname || '/',
      query: {},
      headers: { host: url.host, 'content-type': PROTOCOL[service].contentType, 'x-amz-target': `${PROTOCOL[service].target}.${operation}`, 'content-length': String(Buffer.byteLength(body)) },
      body,
    };
    const { SignatureV4 } = await import('@smithy/signature-v4');
    const credentials = this.config.credentials ?? (await import('@aws-sdk/credential-provider-node')).defaultProvider();
    const signer = new SignatureV4({ service, region, credentials, sha256: NodeSha256 });
    const signed = await signer.sign(unsigned as Parameters<typeof signer.sign>[0]);
    this.http ??= import('@smithy/node-http-handler').then(({ NodeHttpHandler }) => new NodeHttpHandler({ requestTimeout: 60_000 }) as never);
    const { response } = await (await this.http).handle(signed);
    const chunks: Buffer[] = [];
    for await (const c of response.body) chunks.push(Buffer.from(c));
    const text = Buffer.concat(chunks).toString('utf8');
    let parsed: Record<string, unknown> = {};
    try {
      parsed = text.trim() === '' ? {} : (JSON.parse(text) as Record<string, unknown>);
    } catch {
      parsed = {};
    }
    if (response.statusCode >= 300) throw awsJsonError(response.statusCode, response.headers, parsed, text);
    return parsed;
  }
}

/** An error answer as the SDK would raise it: `name` is the code (`QueueDoesNotExist`, `ResourceNotFoundException`). */
function awsJsonError(status: number, headers: Record<string, string>, parsed: Record<string, unknown>, text: string): Error {
  // `com.amazonaws.sqs#QueueDoesNotExist`; SQS also names the query-protocol code in a header. A proxy or gateway
  // in between may answer in XML (`<Code>Throttling</Code>`), as the query-protocol services do.
  const xmlCode = /<Code>([^<]+)<\/Code>/.exec(text)?.[1];
  const type = String(parsed.__type ?? parsed.code ?? headers['x-amzn-errortype'] ?? xmlCode ?? '').split('#').pop()?.split(':')[0] ?? '';
  const message = String(parsed.message ?? parsed.Message ?? /<Message>([^<]*)<\/Message>/.exec(text)?.[1] ?? text.slice(0, 200));
  const code = type || (status === 429 ? 'Throttling' : status >= 500 ? 'InternalFailure' : 'UnknownError');
  const queryCode = headers['x-amzn-query-error']?.split(';')[0];
  return Object.assign(new Error(message || code), { name: code, Code: queryCode ?? code, $fault: status >= 500 ? 'server' : 'client', $metadata: { httpStatusCode: status } });
}

/** Whether a failed attempt may be sent again: throttling, 5xx, or a connection that failed (unless the guard said its outcome is unknown). */
function retryable(e: unknown): boolean {
  const kind = classifyAwsError(e);
  return kind === 'throttled' || kind === 'unavailable' || kind === 'unreachable';
}

/** The SHA-256 (and HMAC-SHA-256 with a secret) the signer needs, from node:crypto. */
class NodeSha256 {
  private readonly hash;
  constructor(secret?: string | ArrayBuffer | ArrayBufferView) {
    this.hash = secret === undefined ? createHash('sha256') : createHmac('sha256', bytes(secret));
  }
  update(data: string | ArrayBuffer | ArrayBufferView): void {
    this.hash.update(bytes(data));
  }
  digest(): Promise<Uint8Array> {
    return Promise.resolve(new Uint8Array(this.hash.digest()));
  }
}

/** The bytes of a string (UTF-8), an ArrayBuffer or a view. */
function bytes(v: string | ArrayBuffer | ArrayBufferView): Buffer {
  if (typeof v === 'string') return Buffer.from(v, 'utf8');
  if (ArrayBuffer.isView(v)) return Buffer.from(v.buffer, v.byteOffset, v.byteLength);
  return Buffer.from(v);
}
