import * as https from 'node:https';
import { ApiNotUpError } from './api-not-up-error';

/** One answer of the API server: the HTTP status and the decoded JSON body (a Status on failure). */
export interface KubeReply {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- Kubernetes objects are open JSON, read by path
  body: any;
}

/** How long the client keeps retrying while the API server is not up, and its first delay (doubling, at most 5 s). */
export interface KubeRetryBudget {
  /** The deadline, in ms since the epoch, shared by every request of one pass. */
  deadline: number;
  firstDelayMs: number;
}

/** Answers that mean "not up yet", retried until the deadline: a starting or overloaded server, a gateway in between. */
const NOT_UP_STATUSES = new Set([429, 500, 502, 503, 504]);
const NOT_UP_ERRNOS = new Set(['ECONNREFUSED', 'ECONNRESET', 'EHOSTUNREACH', 'ENETUNREACH', 'ETIMEDOUT', 'EPIPE', 'EAI_AGAIN']);

/**
 * A small client of kube-apiserver for the addon applier: the TLS options and server come from a kubeconfig
 * loaded by @kubernetes/client-node (`KubeConfig.applyToHTTPSOptions`: the client certificate nodeup issued,
 * the cluster CA), and every request is plain JSON over node:https, so what is sent is exactly what the
 * applier built (server-side apply bodies are not re-serialized through typed models). A connection refused
 * or a 429/5xx answer is retried with backoff until the pass's deadline, then `ApiNotUpError`.
 * `requests` counts the calls made.
 */
export class KubeApiClient {
  /** Every request made, as `METHOD path`, in order. */
  readonly requests: string[] = [];

  constructor(
    private readonly server: string,
    private readonly tls: https.RequestOptions,
    private readonly retry: KubeRetryBudget,
  ) {}

  /** A client for a kubeconfig's current context (text, e.g. `/var/lib/kforge/kubeconfig`). */
  static async fromKubeconfig(text: string, retry: KubeRetryBudget): Promise<KubeApiClient> {
    // config.js alone: the package's index would pull every generated API client into the nodeup artifact (~15 MB).
    const { KubeConfig } = await import('@kubernetes/client-node/dist/config.js');
    const kc = new KubeConfig();
    kc.loadFromString(text);
    const server = kc.getCurrentCluster()?.server;
    if (!server) throw new Error('its current context names no cluster server');
    const tls: https.RequestOptions = {};
    await kc.applyToHTTPSOptions(tls);
    return new KubeApiClient(server.replace(/\/$/, ''), tls, retry);
  }

  /** When this pass stops waiting for the API server (ms since the epoch). */
  get deadline(): number {
    return this.retry.deadline;
  }

  /** The API server's URL. */
  get url(): string {
    return this.server;
  }

  /** One request, retried while the server is not up (see the class). Any other answer, 4xx included, is returned. */
  async request(method: string, path: string, o: { query?: Record<string, string>; body?: unknown; contentType?: string } = {}): Promise<KubeReply> {
    const qs = new URLSearchParams(o.query ?? {}).toString();
    const target = `${path}${qs ? `?${qs}` : ''}`;
    let delay = this.retry.firstDelayMs;
    for (;;) {
      let outcome: KubeReply | Error;
      try {
        this.requests.push(`${method} ${path}`);
        outcome = await this.once(method, target, o.body, o.contentType);
      } catch (e) {
        const errno = (e as NodeJS.ErrnoException).code;
        if (!errno || !NOT_UP_ERRNOS.has(errno)) throw e;
        outcome = new Error(`${errno} connecting to ${this.server}`);
      }
      if (!(outcome instanceof Error) && !NOT_UP_STATUSES.has(outcome.status)) return outcome;
      const why = outcome instanceof Error ? outcome.message : `${outcome.status} ${outcome.body?.reason ?? ''} ${outcome.body?.message ?? ''}`.trim();
      if (Date.now() + delay > this.retry.deadline) throw new ApiNotUpError(`${method} ${path}: ${why}`);
      await new Promise((r) => setTimeout(r, delay));
      delay = Math.min(delay * 2, 5_000);
    }
  }

  private once(method: string, target: string, body: unknown, contentType?: string): Promise<KubeReply> {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    return new Promise((resolve, reject) => {
      const req = https.request(
        `${this.server}${target}`,
        {
          ...this.tls,
          method,
          headers: { accept: 'application/json', ...(payload !== undefined ? { 'content-type': contentType ?? 'application/json', 'content-length': Buffer.byteLength(payload) } : {}) },
          // Fresh connections: a pass makes few calls, and a kept-alive socket to a restarting server only fails later.
          agent: false,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            let parsed: unknown = text;
            try {
              parsed = text ? JSON.parse(text) : undefined;
            } catch {
              // Not JSON (a proxy's page): kept as text for the message.
            }
            resolve({ status: res.statusCode ?? 0, body: parsed });
          });
          res.on('error', reject);
        },
      );
      req.setTimeout(30_000, () => req.destroy(Object.assign(new Error('request timed out'), { code: 'ETIMEDOUT' })));
      req.on('error', reject);
      req.end(payload);
    });
  }
}
