/**
 * A stateful fake of the Cloud DNS v1 REST API (https://cloud.google.com/dns/docs/reference/rest/v1), the
 * calls kforge makes: managedZones list (`dnsName` filter) and get, resourceRecordSets list (`name`, `type`),
 * changes create and get. No Cloud DNS emulator exists.
 *
 * What keeps it honest:
 * - Paths under `/dns/v1/projects/{project}/managedZones…`; a zone is addressed by its name or numeric id, as
 *   the API allows. Answers carry the API's `kind`s (`dns#managedZonesListResponse`, `dns#change`, …).
 * - Request bodies are checked against an allow-list of the v1 resource fields (the Cloud DNS protos are not
 *   installed): a field Change or ResourceRecordSet does not have is 400 `invalid`, as the API's JSON parser
 *   fails it; so is an unknown query parameter.
 * - A change is atomic: 409 `alreadyExists` when an addition's name and type exist (and are not deleted by
 *   the same change), 404 `notFound` when a deletion names no record, 412 `conditionNotMet` when a deletion
 *   does not match the current record exactly (ttl and rrdatas); names outside the zone or without the final
 *   dot are 400 `invalid`.
 * - A change is committed to the zone when created (the API's rrsets list shows it at once, and a second
 *   change is checked against it) and reports `status: pending` until read with GET `changes/{id}`, then
 *   `done` (Cloud DNS's pending means "not yet served by every name server").
 * - Every request needs `Authorization: Bearer <token>` with an accepted token (401 otherwise).
 * - A configurable share of calls is throttled with 429 rateLimitExceeded; `loseAnswers(n)` makes the next n
 *   changes and drops the connection before answering. Errors use Google's JSON shape.
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A record set as Cloud DNS holds it. */
export interface FakeRrset {
  kind?: string;
  name: string;
  type: string;
  ttl: number;
  rrdatas: string[];
}

/** A managed zone as the fake holds it. */
export interface FakeZone {
  name: string;
  dnsName: string;
  id: string;
  visibility: 'public' | 'private';
  /** For private zones: the networks that see the zone (`privateVisibilityConfig.networks[].networkUrl`). */
  networks?: string[];
  rrsets: FakeRrset[];
}

/** A request as the fake received it. */
export interface FakeDnsRequest {
  method: string;
  path: string;
  query: string;
  /** Whether the call changes something (changes.create). */
  mutating: boolean;
  /** The HTTP status answered (0: the answer was dropped). */
  status?: number;
}

/** A running fake Cloud DNS API. */
export interface FakeCloudDns {
  /** `http://127.0.0.1:PORT/` — the value of CLOUDSDK_API_ENDPOINT_OVERRIDES_DNS is `${endpoint}dns/v1/`. */
  endpoint: string;
  requests: FakeDnsRequest[];
  /** Adds a zone with its SOA and NS records; returns it. */
  addZone(project: string, zone: { name: string; dnsName: string; visibility?: 'public' | 'private'; networks?: string[] }): FakeZone;
  zones(project: string): FakeZone[];
  /** The zone's records, sorted by name and type. */
  records(project: string, zone: string): FakeRrset[];
  /** Writes a record directly (someone else changed it). */
  putRecord(project: string, zone: string, rrset: FakeRrset): void;
  /** From now on a bearer token is accepted when `check` says so (default: only `fake-token`); e.g. the fake metadata server's `issued`. */
  requireBearer(check: (token: string) => boolean): void;
  /** Runs `fn` once, just before the next changes.create is checked (someone else changes the zone in between). */
  beforeNextChange(fn: () => void): void;
  /** Share of calls (0..1) answered 429, spread evenly and deterministically. */
  setThrottleShare(share: number): void;
  /** Performs the next n changes.create but drops the connection before the answer. */
  loseAnswers(n: number): void;
  stop(): Promise<void>;
}

/** The v1 fields of a ResourceRecordSet (reference: rest/v1/resourceRecordSets). */
const RRSET_FIELDS = new Set(['kind', 'name', 'type', 'ttl', 'rrdatas', 'signatureRrdatas', 'routingPolicy']);
/** The v1 fields of a Change (reference: rest/v1/changes). */
const CHANGE_FIELDS = new Set(['kind', 'additions', 'deletions', 'startTime', 'id', 'status', 'isServing']);
/** Query parameters per method (reference: each method's "Query parameters"). */
const QUERY = {
  zonesList: new Set(['dnsName', 'maxResults', 'pageToken']),
  zonesGet: new Set(['clientOperationId']),
  rrsetsList: new Set(['name', 'type', 'maxResults', 'pageToken']),
  changesCreate: new Set(['clientOperationId']),
  changesGet: new Set(['clientOperationId']),
};

class DnsApiError extends Error {
  constructor(
    readonly status: number,
    readonly reason: string,
    message: string,
  ) {
    super(message);
  }
}

const invalid = (message: string) => new DnsApiError(400, 'invalid', message);

interface PendingChange {
  zone: FakeZone;
  body: { kind: string; id: string; additions?: FakeRrset[]; deletions?: FakeRrset[]; startTime: string; status: 'pending' | 'done' };
}

/** Starts the fake on a free loopback port. */
export async function startFakeCloudDns(options: { throttleShare?: number } = {}): Promise<FakeCloudDns> {
  const projects = new Map<string, FakeZone[]>();
  const changes = new Map<string, PendingChange[]>();
  const requests: FakeDnsRequest[] = [];
  let accepts = (token: string): boolean => token === 'fake-token';
  let hook: (() => void) | undefined;
  let lose = 0;
  let throttleShare = options.throttleShare ?? 0;
  let calls = 0;
  let nextZoneId = 1000;
  const zonesOf = (project: string): FakeZone[] => projects.get(project) ?? [];
  const findZone = (project: string, ref: string): FakeZone => {
    const z = zonesOf(project).find((x) => x.name === ref || x.id === ref);
    if (!z) throw new DnsApiError(404, 'notFound', `The 'parameters.managedZone' resource named '${ref}' does not exist.`);
    return z;
  };
  const sortRecords = (z: FakeZone) => z.rrsets.sort((a, b) => a.name.localeCompare(b.name) || a.type.localeCompare(b.type));
  const commit = (z: FakeZone, additions: FakeRrset[], deletions: FakeRrset[]): void => {
    for (const d of deletions) z.rrsets = z.rrsets.filter((r) => !(r.name === d.name && r.type === d.type));
    for (const a of additions) z.rrsets.push({ kind: 'dns#resourceRecordSet', name: a.name, type: a.type, ttl: a.ttl, rrdatas: [...a.rrdatas] });
    sortRecords(z);
  };

  const checkFields = (what: string, body: Record<string, unknown>, allowed: Set<string>) => {
    for (const k of Object.keys(body)) if (!allowed.has(k)) throw invalid(`Invalid JSON payload received. Unknown name "${k}" at '${what}': Cannot find field.`);
  };
  const checkRrset = (z: FakeZone, where: string, r: Record<string, unknown>): FakeRrset => {
    checkFields(where, r, RRSET_FIELDS);
    const name = typeof r.name === 'string' ? r.name : '';
    if (!name.endsWith('.') || !(name === z.dnsName || name.endsWith(`.${z.dnsName}`))) throw invalid(`Invalid value for '${where}.name': '${name}'`);
    if (typeof r.type !== 'string' || !/^[A-Z]+$/.test(r.type)) throw invalid(`Invalid value for '${where}.type': '${String(r.type)}'`);
    if (!Array.isArray(r.rrdatas) || r.rrdatas.length === 0) throw invalid(`The resource record set '${where}' has no rrdatas`);
    if (r.type === 'A' && !r.rrdatas.every((v) => typeof v === 'string' && /^\d{1,3}(\.\d{1,3}){3}$/.test(v))) throw invalid(`Invalid value for '${where}.rrdata': '${String(r.rrdatas[0])}'`);
    const ttl = r.ttl === undefined ? 300 : Number(r.ttl);
    if (!Number.isInteger(ttl) || ttl < 0) throw invalid(`Invalid value for '${where}.ttl'`);
    return { name, type: r.type, ttl, rrdatas: r.rrdatas.map(String) };
  };

  const createChange = (project: string, z: FakeZone, body: Record<string, unknown>): PendingChange => {
    checkFields('change', body, CHANGE_FIELDS);
    const deletions = ((body.deletions ?? []) as Record<string, unknown>[]).map((r, i) => checkRrset(z, `entity.change.deletions[${i}]`, r));
    const additions = ((body.additions ?? []) as Record<string, unknown>[]).map((r, i) => checkRrset(z, `entity.change.additions[${i}]`, r));
    if (additions.length + deletions.length === 0) throw invalid("The 'entity.change' resource has no additions or deletions");
    deletions.forEach((d, i) => {
      const cur = z.rrsets.find((r) => r.name === d.name && r.type === d.type);
      if (!cur) throw new DnsApiError(404, 'notFound', `The 'entity.change.deletions[${i}]' resource named '${d.name} (${d.type})' does not exist.`);
      if (cur.ttl !== d.ttl || JSON.stringify([...cur.rrdatas].sort()) !== JSON.stringify([...d.rrdatas].sort())) {
        throw new DnsApiError(412, 'conditionNotMet', `Precondition not met for 'entity.change.deletions[${i}]'`);
      }
    });
    additions.forEach((a, i) => {
      const deleted = deletions.some((d) => d.name === a.name && d.type === a.type);
      if (!deleted && z.rrsets.some((r) => r.name === a.name && r.type === a.type)) {
        throw new DnsApiError(409, 'alreadyExists', `The resource 'entity.change.additions[${i}]' named '${a.name} (${a.type})' already exists`);
      }
    });
    const list = changes.get(project) ?? [];
    changes.set(project, list);
    const change: PendingChange = {
      zone: z,
      body: {
        kind: 'dns#change',
        id: String(list.length + 1),
        ...(additions.length ? { additions: additions.map((a) => ({ kind: 'dns#resourceRecordSet', ...a })) } : {}),
        ...(deletions.length ? { deletions: deletions.map((d) => ({ kind: 'dns#resourceRecordSet', ...d })) } : {}),
        startTime: '2026-01-01T00:00:00.000Z',
        status: 'pending',
      },
    };
    list.push(change);
    commit(z, additions, deletions);
    // The answer says pending: a copy, so that a later poll's `done` does not change it.
    return { ...change, body: { ...change.body } };
  };

  const route = (method: string, url: URL, body: Record<string, unknown> | undefined): unknown => {
    const m = /^\/dns\/v1\/projects\/([^/]+)\/managedZones(?:\/([^/]+)(?:\/(rrsets|changes)(?:\/([^/]+))?)?)?$/.exec(url.pathname);
    if (!m) throw new DnsApiError(404, 'notFound', `The requested URL ${url.pathname} was not found on this server.`);
    const [, project, zoneRef, sub, id] = m.map((x) => (x === undefined ? x : decodeURIComponent(x)));
    const q = url.searchParams;
    const checkQuery = (allowed: Set<string>) => {
      for (const k of q.keys()) if (!allowed.has(k)) throw invalid(`Invalid JSON payload received. Unknown name "${k}": Cannot bind query parameter.`);
    };
    if (!zoneRef && method === 'GET') {
      checkQuery(QUERY.zonesList);
      const dnsName = q.get('dnsName');
      // The API matches dnsName exactly, the final dot optional in the filter.
      const zones = zonesOf(project).filter((z) => dnsName === null || z.dnsName === (dnsName.endsWith('.') ? dnsName : `${dnsName}.`));
      return { kind: 'dns#managedZonesListResponse', managedZones: zones.map(zoneBody) };
    }
    if (zoneRef && !sub && method === 'GET') {
      checkQuery(QUERY.zonesGet);
      return zoneBody(findZone(project, zoneRef));
    }
    if (zoneRef && sub === 'rrsets' && !id && method === 'GET') {
      checkQuery(QUERY.rrsetsList);
      const z = findZone(project, zoneRef);
      const name = q.get('name');
      const type = q.get('type');
      if (type !== null && name === null) throw invalid('type is only valid together with name');
      const rrsets = z.rrsets.filter((r) => (name === null || r.name === name) && (type === null || r.type === type));
      return { kind: 'dns#resourceRecordSetsListResponse', rrsets: rrsets.map((r) => ({ kind: 'dns#resourceRecordSet', name: r.name, type: r.type, ttl: r.ttl, rrdatas: r.rrdatas })) };
    }
    if (zoneRef && sub === 'changes' && !id && method === 'POST') {
      checkQuery(QUERY.changesCreate);
      const z = findZone(project, zoneRef);
      if (!body) throw invalid('a Change body is required');
      const run = hook;
      hook = undefined;
      run?.();
      return createChange(project, z, body).body;
    }
    if (zoneRef && sub === 'changes' && id && method === 'GET') {
      checkQuery(QUERY.changesGet);
      const z = findZone(project, zoneRef);
      const c = (changes.get(project) ?? []).find((x) => x.zone === z && x.body.id === id);
      if (!c) throw new DnsApiError(404, 'notFound', `The 'parameters.changeId' resource named '${id}' does not exist.`);
      // Served everywhere by the first read (the fake's propagation takes one poll).
      c.body.status = 'done';
      return c.body;
    }
    throw new DnsApiError(405, 'methodNotAllowed', `${method} ${url.pathname} is not a Cloud DNS v1 method the fake serves`);
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const method = req.method ?? 'GET';
      const record: FakeDnsRequest = { method, path: url.pathname, query: url.search, mutating: method === 'POST' };
      requests.push(record);
      const send = (status: number, body: unknown) => {
        record.status = status;
        res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8' });
        res.end(JSON.stringify(body));
      };
      try {
        const auth = /^Bearer (\S+)$/.exec(String(req.headers.authorization ?? ''));
        if (!auth || !accepts(auth[1])) throw new DnsApiError(401, 'required', 'Request had invalid authentication credentials. Expected OAuth 2 access token.');
        const n = calls++;
        if (Math.floor((n + 1) * throttleShare) > Math.floor(n * throttleShare)) throw new DnsApiError(429, 'rateLimitExceeded', "Quota exceeded for quota metric 'Queries' of service 'dns.googleapis.com'");
        let body: Record<string, unknown> | undefined;
        if (chunks.length) {
          try {
            body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
          } catch {
            throw invalid('Invalid JSON payload received.');
          }
        }
        const answer = route(method, url, body);
        if (method === 'POST' && lose > 0) {
          lose--;
          record.status = 0;
          req.socket.destroy();
          return;
        }
        send(200, answer);
      } catch (e) {
        if (!(e instanceof DnsApiError)) throw e;
        send(e.status, { error: { code: e.status, message: e.message, errors: [{ message: e.message, domain: 'global', reason: e.reason }] } });
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    endpoint: `http://127.0.0.1:${port}/`,
    requests,
    addZone(project, zone) {
      const dnsName = zone.dnsName.endsWith('.') ? zone.dnsName : `${zone.dnsName}.`;
      const z: FakeZone = {
        name: zone.name,
        dnsName,
        id: String(nextZoneId++),
        visibility: zone.visibility ?? 'public',
        ...(zone.networks ? { networks: zone.networks } : {}),
        rrsets: [
          { kind: 'dns#resourceRecordSet', name: dnsName, type: 'NS', ttl: 21600, rrdatas: ['ns-cloud-a1.googledomains.com.', 'ns-cloud-a2.googledomains.com.'] },
          { kind: 'dns#resourceRecordSet', name: dnsName, type: 'SOA', ttl: 21600, rrdatas: ['ns-cloud-a1.googledomains.com. cloud-dns-hostmaster.google.com. 1 21600 3600 259200 300'] },
        ],
      };
      projects.set(project, [...zonesOf(project), z]);
      return z;
    },
    zones: (project) => zonesOf(project),
    records(project, zone) {
      return findZone(project, zone).rrsets.map((r) => ({ name: r.name, type: r.type, ttl: r.ttl, rrdatas: [...r.rrdatas] }));
    },
    putRecord(project, zone, rrset) {
      const z = findZone(project, zone);
      z.rrsets = [...z.rrsets.filter((r) => !(r.name === rrset.name && r.type === rrset.type)), { kind: 'dns#resourceRecordSet', ...rrset }];
      sortRecords(z);
    },
    requireBearer: (check) => void (accepts = check),
    beforeNextChange: (fn) => void (hook = fn),
    setThrottleShare: (share) => void (throttleShare = share),
    loseAnswers: (n) => void (lose = n),
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A managed zone's v1 representation. */
function zoneBody(z: FakeZone): Record<string, unknown> {
  return {
    kind: 'dns#managedZone',
    name: z.name,
    dnsName: z.dnsName,
    description: '',
    id: z.id,
    nameServers: ['ns-cloud-a1.googledomains.com.', 'ns-cloud-a2.googledomains.com.'],
    creationTime: '2026-01-01T00:00:00.000Z',
    visibility: z.visibility,
    ...(z.visibility === 'private' ? { privateVisibilityConfig: { kind: 'dns#managedZonePrivateVisibilityConfig', networks: (z.networks ?? []).map((networkUrl) => ({ kind: 'dns#managedZonePrivateVisibilityConfigNetwork', networkUrl })) } } : {}),
  };
}

/** The environment that points kforge's Cloud DNS calls at the fake (with fakeGceEnv for the rest), as gcloud's override does. */
export function fakeCloudDnsEnv(dns: FakeCloudDns): NodeJS.ProcessEnv {
  return { CLOUDSDK_API_ENDPOINT_OVERRIDES_DNS: `${dns.endpoint}dns/v1/` };
}
