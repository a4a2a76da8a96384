import { googleErrorJson } from './google-error-json';

/**
 * The Cloud DNS v1 REST calls kforge makes (https://cloud.google.com/dns/docs/reference/rest/v1), over
 * Node's fetch with a bearer token from the caller: the CLI's comes from google-auth-library, protokube's
 * from the metadata server. No client library: this file is bundled into the nodeup artifact, which must
 * stay small. CLOUDSDK_API_ENDPOINT_OVERRIDES_DNS (gcloud's variable, e.g. `https://dns.googleapis.com/dns/v1/`)
 * moves the API. Throttled (429) and unavailable (5xx, no answer) calls are retried with backoff.
 */

/** A managed zone, the fields kforge reads. */
export interface CloudDnsZone {
  name: string;
  /** With the final dot: `example.com.`. */
  dnsName: string;
  id: string;
  visibility?: 'public' | 'private';
  privateVisibilityConfig?: { networks?: Array<{ networkUrl?: string }> };
}

/** A resource record set; names end with a dot. */
export interface CloudDnsRrset {
  name: string;
  type: string;
  ttl: number;
  rrdatas: string[];
}

/** A refused call: HTTP status in `code` and Google's `errors[]`, which classifyGceError reads. */
export class CloudDnsApiError extends Error {
  constructor(
    readonly code: number,
    readonly errors: Array<{ reason?: string; message?: string }>,
    message: string,
  ) {
    super(message);
    this.name = 'CloudDnsApiError';
  }
}

/** How to reach Cloud DNS, and the hooks to count calls and fence mutations. */
export interface CloudDnsRestOptions {
  project: string;
  env: NodeJS.ProcessEnv;
  /** A valid access token with a Cloud DNS scope. */
  token: () => Promise<string>;
  /** Called once per operation (retries are attempts). */
  count?: (name: string, mutating: boolean) => void;
  /** Called per attempt, with whether it was throttled. */
  attempt?: (throttled: boolean) => void;
  /** Awaited before every mutating call (the cluster lock's fence). */
  fence?: () => Promise<void>;
  maxAttempts?: number;
  backoffMs?: number;
}

/** The Cloud DNS calls of one project. */
export class CloudDnsRest {
  private readonly base: string;

  constructor(private readonly options: CloudDnsRestOptions) {
    this.base = (options.env.CLOUDSDK_API_ENDPOINT_OVERRIDES_DNS || 'https://dns.googleapis.com/dns/v1/').replace(/\/?$/, '/');
  }

  /** The project's managed zones, every page; `dnsName` (`example.com.`) filters on the zone's DNS name. */
  async listZones(dnsName?: string): Promise<CloudDnsZone[]> {
    return this.pages<CloudDnsZone>('managedZones.list', 'managedZones', dnsName ? { dnsName } : {}, 'managedZones');
  }

  /** One managed zone by its name or numeric id. */
  async getZone(zone: string): Promise<CloudDnsZone> {
    return this.call<CloudDnsZone>('managedZones.get', 'GET', `managedZones/${encodeURIComponent(zone)}`);
  }

  /** A zone's record sets, every page; `name` (with the final dot) and `type` filter. */
  async listRecords(zone: string, name?: string, type?: string): Promise<CloudDnsRrset[]> {
    const query: Record<string, string> = { ...(name ? { name } : {}), ...(name && type ? { type } : {}) };
    return this.pages<CloudDnsRrset>('resourceRecordSets.list', `managedZones/${encodeURIComponent(zone)}/rrsets`, query, 'rrsets');
  }

  /** Creates a change (atomic: all additions and deletions or none) and polls it until `done`. */
  async change(zone: string, change: { additions?: CloudDnsRrset[]; deletions?: CloudDnsRrset[] }): Promise<void> {
    const body = { ...(change.additions?.length ? { additions: change.additions } : {}), ...(change.deletions?.length ? { deletions: change.deletions } : {}) };
    let c = await this.call<{ id: string; status: string }>('changes.create', 'POST', `managedZones/${encodeURIComponent(zone)}/changes`, body);
    for (let delay = 100; c.status !== 'done'; delay = Math.min(delay * 2, 2000)) {
      if (c.status !== 'pending') throw new CloudDnsApiError(500, [{ reason: 'unknownStatus' }], `Cloud DNS change ${c.id} in zone ${zone}: status "${c.status}"`);
      await sleep(delay);
      c = await this.call<{ id: string; status: string }>('changes.get', 'GET', `managedZones/${encodeURIComponent(zone)}/changes/${encodeURIComponent(c.id)}`);
    }
  }

  private async pages<T>(name: string, path: string, query: Record<string, string>, field: string): Promise<T[]> {
    const out: T[] = [];
    let pageToken: string | undefined;
    do {
      const q = new URLSearchParams({ ...query, ...(pageToken ? { pageToken } : {}) }).toString();
      const page = await this.call<Record<string, unknown>>(name, 'GET', `${path}${q ? `?${q}` : ''}`);
      out.push(...((page[field] as T[] | undefined) ?? []));
      pageToken = typeof page.nextPageToken === 'string' && page.nextPageToken ? page.nextPageToken : undefined;
    } while (pageToken);
    return out;
  }

  private async call<T>(name: string, method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
    const mutating = method === 'POST';
    this.options.count?.(name, mutating);
    const url = `${this.base}projects/${encodeURIComponent(this.options.project)}/${path}`;
    const max = this.options.maxAttempts ?? 6;
    let delay = this.options.backoffMs ?? 250;
    for (let attempt = 1; ; attempt++) {
      let retryable = false;
      let failure: unknown;
      // Outside the try: a failure to get a token is not retried as a lost answer.
      const token = await this.options.token();
      try {
        if (mutating) await this.options.fence?.();
        const res = await fetch(url, {
          method,
          headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
          body: body === undefined ? undefined : JSON.stringify(body),
          signal: AbortSignal.timeout(60_000),
        });
        const text = await res.text();
        this.options.attempt?.(res.status === 429);
        if (res.ok) return JSON.parse(text) as T;
        failure = apiError(res.status, text, `${method} ${url}`);
        retryable = res.status === 429 || res.status >= 500;
      } catch (e) {
        if (e instanceof CloudDnsApiError) throw e;
        // No answer (refused, reset, timed out): a lost answer to a change makes the retry fail with 409
        // or 412, which the callers handle by reading again.
        this.options.attempt?.(false);
        failure = e;
        retryable = true;
      }
      if (!retryable || attempt >= max) throw failure;
      await sleep(delay);
      delay = Math.min(delay * 2, 8000);
    }
  }
}

/** Google's error JSON as a CloudDnsApiError (a proxy's page: the status alone). */
function apiError(status: number, text: string, what: string): CloudDnsApiError {
  const detail = googleErrorJson(text);
  return new CloudDnsApiError(status, detail.errors, `Cloud DNS ${what}: HTTP ${status}${detail.message ? `: ${detail.message}` : ''}`);
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
