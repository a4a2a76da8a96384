import { createHash, randomUUID } from 'node:crypto';
import { CloudAccessError } from '../../errors/cloud-access-error';
import { classifyGceError, gceErrorMessage } from './gce-errors';
import type { GceCallCounter } from './gce-call-counter';

/** A Compute resource as the REST API returns it. */
export type GceResource = Record<string, unknown> & { name?: string | null; selfLink?: string | null };

/** Where a collection lives: one per project, per region or per zone. */
export type GceScope = 'global' | 'region' | 'zone';

/** A Compute collection the tasks use: its client class, scope and the request fields naming it. */
export interface GceCollection {
  /** The path segment (`instanceGroupManagers`), also the key of inventories and call counts. */
  readonly path: string;
  readonly client: string;
  readonly scope: GceScope;
  /** Request field of the resource body (`networkResource`) and of the name (`network`). */
  readonly resourceField: string;
  readonly nameField: string;
}

const c = (path: string, client: string, scope: GceScope, resource: string): GceCollection => ({ path, client, scope, resourceField: `${resource}Resource`, nameField: resource });

/** The collections kforge creates, with the @google-cloud/compute client of each. */
export const GCE_COLLECTIONS = {
  networks: c('networks', 'NetworksClient', 'global', 'network'),
  subnetworks: c('subnetworks', 'SubnetworksClient', 'region', 'subnetwork'),
  firewalls: c('firewalls', 'FirewallsClient', 'global', 'firewall'),
  instanceTemplates: c('instanceTemplates', 'InstanceTemplatesClient', 'global', 'instanceTemplate'),
  instanceGroupManagers: c('instanceGroupManagers', 'InstanceGroupManagersClient', 'zone', 'instanceGroupManager'),
  disks: c('disks', 'DisksClient', 'zone', 'disk'),
  addresses: c('addresses', 'AddressesClient', 'region', 'address'),
  forwardingRules: c('forwardingRules', 'ForwardingRulesClient', 'region', 'forwardingRule'),
  targetPools: c('targetPools', 'TargetPoolsClient', 'region', 'targetPool'),
  regionHealthChecks: c('healthChecks', 'RegionHealthChecksClient', 'region', 'healthCheck'),
  regionBackendServices: c('backendServices', 'RegionBackendServicesClient', 'region', 'backendService'),
  routers: c('routers', 'RoutersClient', 'region', 'router'),
  instances: c('instances', 'InstancesClient', 'zone', 'instance'),
  // Legacy HTTP health checks (a target pool's): compute v1 still serves them, but the client library's
  // protos no longer describe them, so they are called as plain REST with the same credentials.
  httpHealthChecks: c('httpHealthChecks', 'REST', 'global', 'httpHealthCheck'),
} as const;

/** Where the APIs are and who the caller is. */
export interface GceComputeOptions {
  project: string;
  env: NodeJS.ProcessEnv;
  calls: GceCallCounter;
  /** The cluster lock's fence, awaited before every mutating call. */
  fence?: () => Promise<void>;
  /** Retries of a throttled or unavailable call and the first delay (doubling). */
  maxAttempts?: number;
  backoffMs?: number;
}

type AnyClient = Record<string, (request: Record<string, unknown>, options?: unknown) => Promise<unknown[]>>;
interface AuthClient { getRequestHeaders(url?: string): Promise<Headers | Record<string, string>>; request<T>(opts: Record<string, unknown>): Promise<{ data: T }> }

/** One binding of a project IAM policy. */
export interface GceIamBinding {
  role: string;
  members: string[];
}

/** A project IAM policy as Cloud Resource Manager returns it. */
export interface GceIamPolicy {
  version?: number;
  etag?: string;
  bindings?: GceIamBinding[];
}

/** A call failed in its operation (the operation's `error`), classified like an HTTP error by its status. */
export class GceOperationError extends Error {
  constructor(readonly code: number, readonly errors: Array<{ reason?: string; message?: string }>, message: string) {
    super(message);
    this.name = 'GceOperationError';
  }
}

/**
 * The Compute API as kforge's GCE tasks call it, through @google-cloud/compute's REST transport (loaded only
 * here, on the first GCE command that needs it). Every mutation waits for its operation with the operations
 * clients' `wait`; inserts carry a `requestId` (GCE's idempotency token: a retry after a lost answer returns
 * the first operation); throttled (429) and unavailable (503) calls are retried with backoff here.
 * Endpoints: gcloud's own overrides `CLOUDSDK_API_ENDPOINT_OVERRIDES_COMPUTE` / `_IAM` (tests point them at
 * the fake); credentials: `CLOUDSDK_AUTH_ACCESS_TOKEN` if set, else Application Default Credentials.
 */
export class GceCompute {
  private readonly clients = new Map<string, AnyClient>();
  /** One per run: with the resource's key it makes the requestIds a retry in this run repeats. */
  private readonly runNonce = randomUUID();

  private constructor(
    private readonly lib: Record<string, new (opts: unknown) => AnyClient>,
    private readonly clientOptions: Record<string, unknown>,
    private readonly auth: AuthClient,
    private readonly iamBase: string,
    private readonly computeBase: string,
    private readonly crmBase: string,
    private readonly options: GceComputeOptions,
  ) {}

  /** Loads the client library and resolves credentials (CloudAccessError when there are none). */
  static async connect(options: GceComputeOptions): Promise<GceCompute> {
    const lib = (await import('@google-cloud/compute')) as unknown as Record<string, new (opts: unknown) => AnyClient>;
    const gax = await import('google-gax');
    const env = options.env;
    let auth: AuthClient;
    const token = env.CLOUDSDK_AUTH_ACCESS_TOKEN;
    if (token) {
      const client = new gax.googleAuthLibrary.OAuth2Client({ transporterOptions: { fetchImplementation: fetch } });
      client.setCredentials({ access_token: token, expiry_date: Date.now() + 3_600_000 });
      auth = client as unknown as AuthClient;
    } else {
      try {
        const google = new gax.googleAuthLibrary.GoogleAuth({ scopes: ['https://www.googleapis.com/auth/cloud-platform'] });
        auth = (await google.getClient()) as unknown as AuthClient;
      } catch (e) {
        throw new CloudAccessError(`no Google Cloud credentials for project ${options.project}: run "gcloud auth application-default login", or set GOOGLE_APPLICATION_CREDENTIALS or CLOUDSDK_AUTH_ACCESS_TOKEN (${gceErrorMessage(e)})`);
      }
    }
    const clientOptions: Record<string, unknown> = { fallback: true, authClient: auth };
    const override = env.CLOUDSDK_API_ENDPOINT_OVERRIDES_COMPUTE;
    if (override) {
      const url = new URL(override);
      Object.assign(clientOptions, { apiEndpoint: url.hostname, port: Number(url.port || (url.protocol === 'http:' ? 80 : 443)), protocol: url.protocol.replace(':', '') });
    }
    const iamBase = (env.CLOUDSDK_API_ENDPOINT_OVERRIDES_IAM || 'https://iam.googleapis.com/').replace(/\/?$/, '/');
    const computeBase = (override || 'https://compute.googleapis.com/compute/v1/').replace(/\/?$/, '/');
    const crmBase = (env.CLOUDSDK_API_ENDPOINT_OVERRIDES_CLOUDRESOURCEMANAGER || 'https://cloudresourcemanager.googleapis.com/').replace(/\/?$/, '/');
    return new GceCompute(lib, clientOptions, auth, iamBase, computeBase, crmBase, options);
  }

  /** The project's (global), region's or zone's resources of a collection, every page; `filter` is GCE's list filter. */
  async list(collection: GceCollection, where?: string, filter?: string): Promise<GceResource[]> {
    const items: GceResource[] = [];
    let pageToken: string | undefined;
    do {
      if (collection.client === 'REST') {
        const token = pageToken ? `?pageToken=${encodeURIComponent(pageToken)}` : '';
        const page = await this.call(`${collection.path}.list`, false, () => this.rest<{ items?: GceResource[]; nextPageToken?: string }>('GET', `global/${collection.path}${token}`));
        items.push(...(page.items ?? []));
        pageToken = page.nextPageToken || undefined;
        continue;
      }
      const request = { project: this.options.project, ...this.scopeFields(collection, where), maxResults: 500, ...(filter ? { filter } : {}), ...(pageToken ? { pageToken } : {}) };
      const [page, , raw] = (await this.call(`${collection.path}.list`, false, () => this.client(collection.client).list(request, { autoPaginate: false }))) as [GceResource[], unknown, { nextPageToken?: string } | undefined];
      items.push(...(page ?? []));
      pageToken = raw?.nextPageToken || undefined;
    } while (pageToken);
    return items;
  }

  /**
   * Every zone's (or region's) resources of a collection in one paged call (`aggregated/<path>`), each with
   * its zone or region name; `filter` is GCE's list filter. Plain REST: the client library only iterates these.
   */
  async aggregated(collection: GceCollection, filter?: string): Promise<Array<{ where: string; resource: GceResource }>> {
    const out: Array<{ where: string; resource: GceResource }> = [];
    let pageToken: string | undefined;
    do {
      const query = new URLSearchParams({ maxResults: '500', ...(filter ? { filter } : {}), ...(pageToken ? { pageToken } : {}) });
      const page = await this.call(`${collection.path}.aggregatedList`, false, () => this.rest<{ items?: Record<string, Record<string, GceResource[] | undefined>>; nextPageToken?: string }>('GET', `aggregated/${collection.path}?${query.toString()}`));
      for (const [scope, list] of Object.entries(page.items ?? {})) for (const resource of list[collection.path] ?? []) out.push({ where: scope.split('/').pop() ?? scope, resource });
      pageToken = page.nextPageToken || undefined;
    } while (pageToken);
    return out;
  }

  /** A zonal MIG's managed instances (`currentAction`, `version`), every page. */
  async listManagedInstances(zone: string, mig: string): Promise<GceResource[]> {
    const items: GceResource[] = [];
    let pageToken: string | undefined;
    do {
      const request = { project: this.options.project, zone, instanceGroupManager: mig, maxResults: 500, ...(pageToken ? { pageToken } : {}) };
      const [page, , raw] = (await this.call('instanceGroupManagers.listManagedInstances', false, () => this.client('InstanceGroupManagersClient').listManagedInstances(request, { autoPaginate: false }))) as [GceResource[], unknown, { nextPageToken?: string } | undefined];
      items.push(...(page ?? []));
      pageToken = raw?.nextPageToken || undefined;
    } while (pageToken);
    return items;
  }

  /** An instance's serial console (port 1), as text. */
  async serialPortOutput(zone: string, instance: string): Promise<string> {
    const [out] = (await this.call('instances.getSerialPortOutput', false, () => this.client('InstancesClient').getSerialPortOutput({ project: this.options.project, zone, instance, port: 1 }))) as [GceResource];
    return typeof out?.contents === 'string' ? out.contents : '';
  }

  /** Creates a resource and waits for it; `key` makes the requestId that a retry in this run repeats. */
  async insert(collection: GceCollection, where: string | undefined, resource: GceResource): Promise<void> {
    const requestId = this.requestId(`${collection.path}/${where ?? ''}/${String(resource.name)}`);
    if (collection.client === 'REST') return this.restMutation(`${collection.path}.insert`, 'POST', `global/${collection.path}?requestId=${requestId}`, resource);
    await this.mutate(`${collection.path}.insert`, collection.client, 'insert', { ...this.scopeFields(collection, where), [collection.resourceField]: resource, requestId });
  }

  /** Deletes a resource and waits for it. */
  async delete(collection: GceCollection, where: string | undefined, name: string): Promise<void> {
    if (collection.client === 'REST') return this.restMutation(`${collection.path}.delete`, 'DELETE', `global/${collection.path}/${name}`);
    await this.mutate(`${collection.path}.delete`, collection.client, 'delete', { ...this.scopeFields(collection, where), [collection.nameField]: name, requestId: this.requestId(`delete/${collection.path}/${where ?? ''}/${name}`) });
  }

  /**
   * Any other mutating method (`patch`, `setInstanceTemplate`, `resize`, `recreateInstances`, …) with its request
   * fields, waited for; `setLabels` names the resource in `resource`. Each call gets its own requestId, which
   * the retries of a lost answer repeat (so a `recreateInstances` whose answer was lost recreates once), while
   * a later call (the executor's retry after a failed operation) is a new request.
   */
  async method(collection: GceCollection, where: string | undefined, method: string, name: string, fields: Record<string, unknown>): Promise<void> {
    const requestId = this.requestId(`${method}/${collection.path}/${where ?? ''}/${name}#${++this.methodCalls}`);
    await this.mutate(`${collection.path}.${method}`, collection.client, method, { ...this.scopeFields(collection, where), ...(fields.resource === undefined ? { [collection.nameField]: name } : {}), ...fields, requestId });
  }

  /** Calls of `method` so far in this run: part of each one's requestId. */
  private methodCalls = 0;

  /** An IAM v1 REST call (`projects/p/serviceAccounts`), counted and retried as the Compute calls are. */
  async iam<T>(name: string, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, body?: unknown): Promise<T> {
    return this.call(name, method !== 'GET', async () => {
      if (method !== 'GET') await this.options.fence?.();
      const res = await this.auth.request<T>({ url: `${this.iamBase}v1/${path}`, method, ...(body ? { data: body } : {}), responseType: 'json' });
      return res.data;
    });
  }

  /** A plain REST call to the Compute API (for what the client library lacks). */
  private async rest<T>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await this.auth.request<T>({ url: `${this.computeBase}projects/${this.options.project}/${path}`, method, ...(body ? { data: body } : {}), responseType: 'json' });
    return res.data;
  }

  private async restMutation(name: string, method: string, path: string, body?: unknown): Promise<void> {
    const op = await this.call(name, true, async () => {
      await this.options.fence?.();
      return this.rest<GceResource>(method, path, body);
    });
    await this.wait(op);
  }

  /** The project's IAM policy (Cloud Resource Manager v1). */
  async projectPolicy(): Promise<GceIamPolicy> {
    return this.call('projects.getIamPolicy', false, async () => (await this.auth.request<GceIamPolicy>({ url: `${this.crmBase}v1/projects/${this.options.project}:getIamPolicy`, method: 'POST', data: {}, responseType: 'json' })).data);
  }

  /**
   * Read-modify-write of the project's policy: `change` edits the bindings of a fresh read, written with its
   * etag; a concurrent change (409) reads again and retries. Nothing is written when `change` changes nothing.
   */
  async updateProjectPolicy(change: (bindings: GceIamBinding[]) => GceIamBinding[]): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      const policy = await this.projectPolicy();
      const bindings = change((policy.bindings ?? []).map((b) => ({ role: b.role, members: [...b.members] })));
      if (JSON.stringify(bindings) === JSON.stringify(policy.bindings ?? [])) return;
      try {
        await this.call('projects.setIamPolicy', true, async () => {
          await this.options.fence?.();
          await this.auth.request({ url: `${this.crmBase}v1/projects/${this.options.project}:setIamPolicy`, method: 'POST', data: { policy: { ...policy, bindings } }, responseType: 'json' });
        });
        return;
      } catch (e) {
        if (attempt >= 5 || classifyGceError(e) !== 'already-exists') throw e;
      }
    }
  }

  /** Closes the clients' connections. */
  async close(): Promise<void> {
    await Promise.all([...this.clients.values()].map((c) => (c as unknown as { close(): Promise<void> }).close()));
  }

  private async mutate(name: string, client: string, method: string, request: Record<string, unknown>): Promise<void> {
    const [op] = (await this.call(name, true, async () => {
      await this.options.fence?.();
      return this.client(client)[method]({ project: this.options.project, ...request });
    })) as [{ latestResponse?: GceResource }];
    await this.wait(op.latestResponse ?? (op as GceResource));
  }

  /** Waits for an operation with its scope's operations client until DONE; its error, if any, is thrown. */
  private async wait(op: GceResource): Promise<void> {
    const zone = typeof op.zone === 'string' ? op.zone.split('/').pop() : undefined;
    const region = typeof op.region === 'string' ? op.region.split('/').pop() : undefined;
    const [client, scope] = zone ? ['ZoneOperationsClient', { zone }] : region ? ['RegionOperationsClient', { region }] : ['GlobalOperationsClient', {}];
    let current = op;
    while (current.status !== 'DONE') {
      const [next] = (await this.call('operations.wait', false, () => this.client(client).wait({ project: this.options.project, ...scope, operation: String(op.name) }))) as [GceResource];
      current = next;
    }
    const error = current.error as { errors?: Array<{ code?: string; message?: string }> } | undefined;
    if (error?.errors?.length) {
      const errors = error.errors.map((e) => ({ reason: camelReason(e.code ?? ''), message: e.message }));
      throw new GceOperationError(Number(current.httpErrorStatusCode ?? 400), errors, errors.map((e) => e.message).join('; '));
    }
  }

  /** One counted operation, retried with backoff while throttled or unavailable. */
  private async call<T>(name: string, mutating: boolean, fn: () => Promise<T>): Promise<T> {
    const calls = this.options.calls;
    calls.count(name, mutating);
    const max = this.options.maxAttempts ?? 6;
    let delay = this.options.backoffMs ?? 250;
    for (let attempt = 1; ; attempt++) {
      calls.attempts++;
      try {
        return await fn();
      } catch (e) {
        const kind = classifyGceError(e);
        if (kind === 'throttled') calls.throttled++;
        // A lost answer of a mutation is retried too: inserts carry their requestId, the rest are idempotent.
        if (attempt >= max || !(kind === 'throttled' || kind === 'unavailable' || kind === 'unreachable')) throw e;
        await new Promise((r) => setTimeout(r, delay));
        delay = Math.min(delay * 2, 8000);
      }
    }
  }

  private client(name: string): AnyClient {
    let client = this.clients.get(name);
    if (!client) {
      client = new this.lib[name](this.clientOptions);
      this.clients.set(name, client);
    }
    return client;
  }

  private scopeFields(collection: GceCollection, where: string | undefined): Record<string, string> {
    if (collection.scope === 'global') return {};
    if (!where) throw new Error(`${collection.path} needs a ${collection.scope}`);
    return { [collection.scope]: where };
  }

  /** A UUID (GCE requires one) from the run's nonce and the call's key. */
  private requestId(key: string): string {
    const h = createHash('sha256').update(`${this.runNonce}/${key}`).digest('hex');
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
  }
}

/** `RESOURCE_IN_USE_BY_ANOTHER_RESOURCE` → `resourceInUseByAnotherResource`, the HTTP errors' reason. */
function camelReason(code: string): string {
  return code.toLowerCase().replace(/_([a-z])/g, (_, ch: string) => ch.toUpperCase());
}
