/**
 * A stateful fake of the Compute Engine v1 REST API (and the few IAM service-account calls kforge makes),
 * for tests driven through the real @google-cloud/compute client (REST transport). No GCE emulator exists.
 *
 * What keeps it honest:
 * - Paths, verbs and request types come from the client library's own protos.json (every RPC's
 *   `google.api.http` binding), and request bodies and query parameters are checked against those message
 *   types: a field compute v1 does not have fails with 400 `invalid`, as GCE fails it.
 * - Mutations answer with an Operation (`compute#operation`, PENDING) and take effect only when the
 *   operation is polled to DONE (`operations/{name}` get, `/wait`); `pollsToFinish` sets how many gets.
 * - 409 alreadyExists on a duplicate name (including one whose insert is still pending), 404 notFound in
 *   GCE's error JSON, 412 conditionNotMet on a stale `fingerprint` / `labelFingerprint`, 400
 *   resourceInUseByAnotherResource on deleting what another resource references (a network with
 *   subnetworks or firewalls, a template a MIG uses, an attached disk).
 * - Operations are found by name or numeric id, as GCE's are; one nobody polls finishes after `settleAfter`
 *   further requests (GCE works on when the caller is gone).
 * - An insert naming a network, subnetwork, health check, pool or backend service that does not exist is 404.
 * - `requestId` must be a UUID; a repeated one returns the first operation instead of acting twice.
 * - A configurable share of calls is throttled with 429 rateLimitExceeded; `loseAnswers(n, only?)` performs the
 *   next n mutating calls (of the paths `only` accepts) and drops the connection before answering.
 * - Stored references are expanded to full URLs; references are compared by URL.
 * Legacy `global/httpHealthChecks` (absent from the client's protos) are described by hand from the API reference.
 * Implemented methods: Insert, Get, List (filter `field = "value"` joined by AND, paging), AggregatedList
 * (`aggregated/instances`, `aggregated/instanceGroupManagers`), Delete, Patch, Update, SetLabels,
 * InstanceGroupManagers Resize / SetInstanceTemplate / SetTargetPools / ListManagedInstances /
 * RecreateInstances / DeleteInstances, Instances AttachDisk / DetachDisk / GetSerialPortOutput, and the three
 * operations services' Get and Wait. A MIG keeps its target size of RUNNING instances
 * (`<baseInstanceName>-xxxx`, compute-managed-instances.ts). Any other RPC answers 501 rather than pretend.
 */
import { createHash } from 'node:crypto';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ComputeApiError, invalid, notFound } from './compute-errors';
import { ComputeSchema } from './compute-schema';
import { COMPUTE_BASE, ComputeStore, Resource } from './compute-store';
import { IamFake } from './iam-fake';
import { aggregatedList, matcher, page } from './compute-lists';
import { ManagedInstances } from './compute-managed-instances';

/** A request as the fake received it. */
export interface FakeComputeRequest {
  method: string;
  path: string;
  /** The query string (`requestId=…`). */
  query: string;
  /** Whether the call changes something (operation polls and policy reads, though POSTs, do not). */
  mutating: boolean;
  /** `Service.Method` of the matched RPC, e.g. `Networks.Insert`; `IAM.…` for the IAM calls. */
  rpc: string;
}

/** Start options. */
export interface FakeComputeOptions {
  /** Share of calls (0..1) answered 429, spread evenly and deterministically. */
  throttleShare?: number;
  /** Operation gets before an operation is DONE (wait always finishes it); default 1. */
  pollsToFinish?: number;
  /** Requests to the fake after which an operation nobody polls finishes anyway (GCE works on without the caller); default 20. */
  settleAfter?: number;
  /** Requests to the fake after which a flagged recreate or delete of a MIG's instance completes; default 2. */
  actionRequests?: number;
}

/** A running fake Compute API. */
export interface FakeCompute {
  /** `http://127.0.0.1:PORT`. */
  endpoint: string;
  port: number;
  requests: FakeComputeRequest[];
  store: ComputeStore;
  iam: IamFake;
  /** Changes the throttled share of calls. */
  setThrottleShare(share: number): void;
  /** Performs the next n mutating calls but drops the connection before the answer. */
  loseAnswers(n: number, only?: (path: string) => boolean): void;
  /** Answers dropped so far. */
  lostAnswers(): number;
  /** Every resource of every collection, as `collection/name`, sorted. */
  inventory(): string[];
  /** Sets what an instance's serial console shows (`projects/p/zones/z/instances/i`). */
  setSerialPortOutput(instance: string, text: string): void;
  stop(): Promise<void>;
}

interface Operation {
  body: Resource;
  polls: number;
  /** The fake's request count when it was made. */
  born: number;
  effect: () => void;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Starts the fake on a free loopback port. */
export async function startFakeCompute(options: FakeComputeOptions = {}): Promise<FakeCompute> {
  const schema = new ComputeSchema();
  const store = new ComputeStore((type, field) => schema.hasField(type, field));
  const managed = new ManagedInstances(store, options.actionRequests ?? 2);
  const iam = new IamFake();
  const requests: FakeComputeRequest[] = [];
  const operations = new Map<string, Operation>();
  const byRequestId = new Map<string, string>();
  const pendingInserts = new Set<string>();
  let throttleShare = options.throttleShare ?? 0;
  let calls = 0;
  let lose = 0;
  // Which mutating calls lose their answers (by URL path); default any.
  let loseOnly: (path: string) => boolean = () => true;
  let lost = 0;
  let opSeq = 0;

  /** Operations no one polled finish once enough other requests went by, as GCE finishes them without the caller. */
  const settle = (): void => {
    for (const op of new Set(operations.values())) if (op.body.status !== 'DONE' && calls - op.born >= (options.settleAfter ?? 20)) finish(op);
  };

  const throttled = (): boolean => {
    const n = calls++;
    return Math.floor((n + 1) * throttleShare) > Math.floor(n * throttleShare);
  };

  function operation(scopePath: string, type: string, target: string, effect: () => void, requestId: string | undefined): Resource {
    if (requestId !== undefined) {
      if (!UUID.test(requestId) || /^0{8}-/.test(requestId)) throw invalid(`Invalid value for field 'requestId': '${requestId}'. The request ID must be a valid UUID with the exception that zero UUID is not supported.`);
      const seen = byRequestId.get(requestId);
      if (seen) return operations.get(seen)!.body;
    }
    const name = `operation-${String(++opSeq).padStart(6, '0')}-${createHash('sha256').update(target + opSeq).digest('hex').slice(0, 8)}`;
    const scope = /^projects\/[^/]+\/(regions|zones)\/([^/]+)/.exec(scopePath);
    const opsPath = scope ? `${scope[0]}/operations` : `${scopePath.split('/').slice(0, 2).join('/')}/global/operations`;
    const body: Resource = { kind: 'compute#operation', id: String(opSeq), name, operationType: type, targetLink: COMPUTE_BASE + target, status: 'PENDING', progress: 0, insertTime: '2026-01-01T00:00:00.000-08:00', selfLink: `${COMPUTE_BASE}${opsPath}/${name}` };
    if (scope) body[scope[1] === 'regions' ? 'region' : 'zone'] = `${COMPUTE_BASE}${scope[0]}`;
    // GCE finds an operation by its name or its numeric id (the client's ExtendedOperation names it by id).
    const op = { body, polls: 0, effect, born: calls };
    operations.set(`${opsPath}/${name}`, op);
    operations.set(`${opsPath}/${String(body.id)}`, op);
    if (requestId !== undefined) byRequestId.set(requestId, `${opsPath}/${name}`);
    return body;
  }

  function finish(op: Operation): void {
    if (op.body.status === 'DONE') return;
    try {
      op.effect();
    } catch (e) {
      if (!(e instanceof ComputeApiError)) throw e;
      op.body.error = { errors: [{ code: e.reason.replace(/([A-Z])/g, '_$1').toUpperCase(), message: e.message }] };
      op.body.httpErrorStatusCode = e.status;
      op.body.httpErrorMessage = e.message;
    }
    Object.assign(op.body, { status: 'DONE', progress: 100, endTime: '2026-01-01T00:00:01.000-08:00' });
  }

  /** A MIG's instances follow its target size and template. */
  const reconcile = (zonePath: string, mig: Resource): void => managed.reconcile(zonePath, mig);

  function handle(rpc: string, service: string, method: string, path: string, body: Resource, query: URLSearchParams, bodyType: string | undefined): unknown {
    const requestId = query.get('requestId') ?? undefined;
    const segments = path.split('/');
    if (service.endsWith('Operations') && (method === 'Get' || method === 'Wait')) {
      const op = operations.get(path.replace(/\/wait$/, ''));
      if (!op) throw notFound(path.replace(/\/wait$/, ''));
      op.polls++;
      if (method === 'Wait' || op.polls >= (options.pollsToFinish ?? 1)) finish(op);
      else op.body.status = 'RUNNING';
      return op.body;
    }
    if (method === 'Insert') {
      const key = `${path}/${String(body.name)}`;
      if (requestId && byRequestId.has(requestId)) return operation(path, 'insert', key, () => undefined, requestId);
      store.checkInsert(path, body);
      checkReferences(store, path, body);
      if (service === 'InstanceGroupManagers') checkTemplate(store, path, String(body.instanceTemplate ?? ''));
      if (pendingInserts.has(key)) throw new ComputeApiError(409, 'alreadyExists', `The resource '${key}' already exists`);
      pendingInserts.add(key);
      return operation(path, 'insert', key, () => {
        pendingInserts.delete(key);
        const r = store.insert(path, bodyType!, body);
        if (service === 'InstanceGroupManagers') reconcile(path.split('/').slice(0, -1).join('/'), r);
      }, requestId);
    }
    if (method === 'Get') {
      const r = store.get(segments.slice(0, -1).join('/'), segments[segments.length - 1]);
      return service === 'InstanceGroupManagers' ? managed.view(segments.slice(0, -2).join('/'), r) : r;
    }
    if (method === 'AggregatedList') return aggregatedList(store, managed, service, path, query);
    if (method === 'List') {
      let items = store.list(path);
      if (service === 'InstanceGroupManagers') items = items.map((m) => managed.view(segments.slice(0, -1).join('/'), m));
      const filter = query.get('filter');
      if (filter) items = items.filter(matcher(filter));
      const max = Math.min(Number(query.get('maxResults') ?? 500), 500);
      const start = Number(query.get('pageToken') ?? 0);
      const page = items.slice(start, start + max);
      return { kind: `compute#${service[0].toLowerCase()}${service.slice(1, -1)}List`, id: path, items: page, selfLink: COMPUTE_BASE + path, ...(start + max < items.length ? { nextPageToken: String(start + max) } : {}) };
    }
    const collection = segments.slice(0, method === 'Delete' || method === 'Patch' || method === 'Update' ? -1 : -2).join('/');
    const name = segments[collection.split('/').length];
    const target = `${collection}/${name}`;
    const type = store.get(collection, name).kind as string;
    const resourceType = type.replace('compute#', '').replace(/^./, (c) => c.toUpperCase());
    if (requestId && byRequestId.has(requestId)) return operation(collection, method, target, () => undefined, requestId);
    switch (method) {
      case 'Delete': {
        store.checkDelete(collection, name);
        return operation(collection, 'delete', target, () => {
          store.checkDelete(collection, name);
          if (service === 'InstanceGroupManagers') {
            const mig = store.get(collection, name);
            store.remove(collection, name);
            reconcile(collection.split('/').slice(0, -1).join('/'), { ...mig, targetSize: 0 });
          } else store.remove(collection, name);
        }, requestId);
      }
      case 'Patch':
      case 'Update':
        store.checkFingerprint(collection, name, body.fingerprint, 'fingerprint');
        return operation(collection, method.toLowerCase(), target, () => {
          store.checkFingerprint(collection, name, body.fingerprint, 'fingerprint');
          const r = store.patch(collection, name, resourceType, body, method === 'Update');
          if (service === 'InstanceGroupManagers') reconcile(collection.split('/').slice(0, -1).join('/'), r);
        }, requestId);
      case 'SetLabels':
        store.checkFingerprint(collection, name, body.labelFingerprint, 'labelFingerprint');
        return operation(collection, 'setLabels', target, () => store.setLabels(store.checkFingerprint(collection, name, body.labelFingerprint, 'labelFingerprint'), (body.labels ?? {}) as Record<string, string>), requestId);
      case 'Resize': {
        const size = Number(query.get('size'));
        return operation(collection, 'compute.instanceGroupManagers.resize', target, () => reconcile(collection.split('/').slice(0, -1).join('/'), store.patch(collection, name, resourceType, { targetSize: size })), requestId);
      }
      case 'SetInstanceTemplate':
        return operation(collection, 'compute.instanceGroupManagers.setInstanceTemplate', target, () => {
          const ref = String(body.instanceTemplate ?? '');
          checkTemplate(store, collection, ref);
          store.patch(collection, name, resourceType, { instanceTemplate: ref });
        }, requestId);
      case 'SetTargetPools':
        store.checkFingerprint(collection, name, body.fingerprint, 'fingerprint');
        return operation(collection, 'compute.instanceGroupManagers.setTargetPools', target, () => store.patch(collection, name, resourceType, { targetPools: body.targetPools ?? [] }), requestId);
      case 'ListManagedInstances':
        return page(managed.listManaged(collection.split('/').slice(0, -1).join('/'), store.get(collection, name)), query, 'managedInstances');
      case 'RecreateInstances': {
        const refs = (body.instances ?? []) as unknown;
        managed.check(collection.split('/').slice(0, -1).join('/'), store.get(collection, name), refs);
        return operation(collection, 'compute.instanceGroupManagers.recreateInstances', target, () => managed.recreate(collection.split('/').slice(0, -1).join('/'), store.get(collection, name), refs), requestId);
      }
      case 'DeleteInstances': {
        const refs = (body.instances ?? []) as unknown;
        managed.check(collection.split('/').slice(0, -1).join('/'), store.get(collection, name), refs);
        return operation(collection, 'compute.instanceGroupManagers.deleteInstances', target, () => managed.deleteInstances(collection.split('/').slice(0, -1).join('/'), store.get(collection, name), refs), requestId);
      }
      case 'GetSerialPortOutput':
        return managed.serialPort(collection.split('/').slice(0, -1).join('/'), name, Number(query.get('start') ?? 0));
      case 'AttachDisk':
        return operation(collection, 'attachDisk', target, () => attach(store, collection, name, body), requestId);
      case 'DetachDisk':
        return operation(collection, 'detachDisk', target, () => detach(store, collection, name, query.get('deviceName') ?? ''), requestId);
      default:
        throw new ComputeApiError(501, 'notImplemented', `${rpc} is not implemented by the fake Compute API`);
    }
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      const answer = (status: number, json: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8' });
        res.end(JSON.stringify(json));
      };
      try {
        const raw = Buffer.concat(chunks).toString('utf8');
        // The REST transport sends `""` as the body of an RPC that has none.
        const parsed = raw.trim() ? (JSON.parse(raw) as unknown) : {};
        const body = typeof parsed === 'object' && parsed !== null ? (parsed as Resource) : {};
        if (url.pathname.startsWith('/v1/projects/')) {
          const iamMutating = req.method !== 'GET' && !url.pathname.endsWith(':getIamPolicy');
          requests.push({ method: req.method ?? '', path: url.pathname, query: url.search, rpc: 'IAM', mutating: iamMutating });
          if (throttled()) throw new ComputeApiError(429, 'rateLimitExceeded', 'Quota exceeded for quota metric \'Requests\'');
          const out = iam.handle(req.method ?? '', url.pathname, body);
          // IAM changes lose their answers too (applied, connection dropped), as the Compute ones do.
          if (iamMutating && out.status < 300 && lose > 0 && loseOnly(url.pathname)) {
            lose--;
            lost++;
            res.socket?.destroy();
            return;
          }
          answer(out.status, out.body);
          return;
        }
        settle();
        managed.tick();
        const matched = schema.match(req.method ?? '', url.pathname);
        if (!matched) throw new ComputeApiError(404, 'notFound', `No API route for ${req.method ?? ''} ${url.pathname}`);
        const { route } = matched;
        const rpc = `${route.service}.${route.method}`;
        const mutating = route.verb !== 'GET' && !route.service.endsWith('Operations') && route.method !== 'ListManagedInstances';
        requests.push({ method: req.method ?? '', path: url.pathname, query: url.search, rpc, mutating });
        if (throttled()) throw new ComputeApiError(429, 'rateLimitExceeded', 'Quota exceeded for quota metric \'Queries\' and limit \'Queries per minute\' of service \'compute.googleapis.com\'');
        for (const k of url.searchParams.keys()) {
          if (k === '$alt' || k === 'alt') continue;
          if (!route.queryFields.has(k)) throw invalid(`Invalid JSON payload received. Unknown name "${k}": Cannot bind query parameter.`);
        }
        if (route.bodyType) {
          const bad = schema.invalidField(route.bodyType, body);
          if (bad) throw invalid(`Invalid JSON payload received. Unknown name "${bad}" at '${route.bodyField ?? ''}': Cannot find field.`);
        } else if (!['', '{}', '""'].includes(raw.trim())) throw invalid('Invalid JSON payload received. This RPC takes no body.');
        const path = url.pathname.slice('/compute/v1/'.length);
        const out = handle(rpc, route.service, route.method, path, body, url.searchParams, route.bodyType);
        if (mutating && lose > 0 && loseOnly(url.pathname)) {
          lose--;
          lost++;
          res.socket?.destroy();
          return;
        }
        answer(200, out);
      } catch (e) {
        if (e instanceof ComputeApiError) answer(e.status, e.body());
        else if (e instanceof SyntaxError) answer(400, invalid('Invalid JSON payload received.').body());
        else answer(500, new ComputeApiError(500, 'backendError', e instanceof Error ? e.message : String(e)).body());
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    port,
    requests,
    store,
    iam,
    setThrottleShare: (share) => void (throttleShare = share),
    loseAnswers: (n, only) => {
      lose = n;
      loseOnly = only ?? (() => true);
    },
    lostAnswers: () => lost,
    setSerialPortOutput: (instance, text) => managed.setSerialPort(COMPUTE_BASE + instance, text),
    inventory: () => [...store.collections].flatMap(([c, items]) => [...items.keys()].map((n) => `${c}/${n}`)).concat(iam.inventory()).sort(),
    stop: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

/** 404 for a referenced network, subnetwork, health check, pool or backend service that does not exist, as GCE answers an insert. */
function checkReferences(store: ComputeStore, collection: string, body: Resource): void {
  const project = collection.split('/')[1];
  const refs: string[] = [];
  const walk = (v: unknown, key: string): void => {
    if (typeof v === 'string' && /^(network|subnetwork|healthChecks|targetPools|target|backendService)$/.test(key)) refs.push(v);
    else if (Array.isArray(v)) v.forEach((x) => walk(x, key));
    else if (typeof v === 'object' && v !== null) for (const [k, x] of Object.entries(v)) walk(x, k);
  };
  walk(body, '');
  for (const ref of refs) {
    const rel = ref.startsWith(COMPUTE_BASE) ? ref.slice(COMPUTE_BASE.length) : ref.startsWith('projects/') ? ref : /^(global|regions|zones)\//.test(ref) ? `projects/${project}/${ref}` : undefined;
    if (rel && !store.find(rel.split('/').slice(0, -1).join('/'), rel.split('/').pop()!)) throw notFound(rel);
  }
}

/** 400 unless a MIG's template exists, as GCE checks on insert and setInstanceTemplate. */
function checkTemplate(store: ComputeStore, collection: string, ref: string): void {
  const project = collection.split('/')[1];
  const rel = ref.startsWith(COMPUTE_BASE) ? ref.slice(COMPUTE_BASE.length) : ref.startsWith('projects/') ? ref : `projects/${project}/${ref}`;
  if (!store.find(rel.split('/').slice(0, -1).join('/'), rel.split('/').pop()!)) throw invalid(`Invalid value for field 'resource.instanceTemplate': '${ref}'. The referenced instance template resource cannot be found.`);
}

function attach(store: ComputeStore, collection: string, name: string, body: Resource): void {
  const instance = store.get(collection, name);
  const source = String(body.source ?? '');
  const rel = source.startsWith(COMPUTE_BASE) ? source.slice(COMPUTE_BASE.length) : source.startsWith('projects/') ? source : `${collection.split('/').slice(0, 2).join('/')}/${source}`;
  const disk = store.get(rel.split('/').slice(0, -1).join('/'), rel.split('/').pop()!);
  const users = (disk.users as string[] | undefined) ?? [];
  if (users.length > 0 && body.mode !== 'READ_ONLY') throw new ComputeApiError(400, 'resourceInUseByAnotherResource', `The disk resource '${rel}' is already being used by '${users[0].slice(COMPUTE_BASE.length)}'`);
  disk.users = [...users, instance.selfLink as string];
  instance.disks = [...((instance.disks as Resource[] | undefined) ?? []), { kind: 'compute#attachedDisk', source: disk.selfLink, deviceName: body.deviceName ?? disk.name, mode: body.mode ?? 'READ_WRITE', type: 'PERSISTENT', boot: false, autoDelete: false }];
}

function detach(store: ComputeStore, collection: string, name: string, deviceName: string): void {
  const instance = store.get(collection, name);
  const disks = (instance.disks as Resource[] | undefined) ?? [];
  const d = disks.find((x) => x.deviceName === deviceName);
  if (!d) throw invalid(`Invalid value for field 'deviceName': '${deviceName}'. No attached disk found with device name '${deviceName}'`);
  instance.disks = disks.filter((x) => x !== d);
  const rel = String(d.source).slice(COMPUTE_BASE.length);
  const disk = store.get(rel.split('/').slice(0, -1).join('/'), rel.split('/').pop()!);
  disk.users = ((disk.users as string[] | undefined) ?? []).filter((u) => u !== instance.selfLink);
}
