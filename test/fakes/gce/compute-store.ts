import { createHash } from 'node:crypto';
import { alreadyExists, ComputeApiError, inUse, invalid, notFound, staleFingerprint } from './compute-errors';

/** A stored resource: GCE's JSON. */
export type Resource = Record<string, unknown>;

/** The URL prefix of every Compute resource's selfLink, as GCE writes it. */
export const COMPUTE_BASE = 'https://www.googleapis.com/compute/v1/';

/** A reference as a client may send it (full URL, `projects/…`, `global/…`, `zones/…`), as a path from `projects/`. */
function relative(project: string, v: string): string | undefined {
  const s = v.startsWith(COMPUTE_BASE) ? v.slice(COMPUTE_BASE.length) : v;
  if (s.startsWith('projects/')) return s;
  if (/^(global|regions|zones)\//.test(s)) return `projects/${project}/${s}`;
  return undefined;
}

/** Every string inside a value, depth first. */
function strings(v: unknown, out: string[] = []): string[] {
  if (typeof v === 'string') out.push(v);
  else if (Array.isArray(v)) for (const x of v) strings(x, out);
  else if (typeof v === 'object' && v !== null) for (const x of Object.values(v)) strings(x, out);
  return out;
}

/** Expands partial references to full URLs, as GCE stores them. */
function expandReferences(project: string, v: unknown, key = ''): unknown {
  if (typeof v === 'string') {
    // Fields that hold URLs of other resources; names, IPs and label values stay as given.
    if (!/^(network|subnetwork|machineType|sourceImage|instanceTemplate|target|backendService|region|zone|source|healthChecks|targetPools|users|group|sourceInstanceTemplate|diskType|natIps)$/.test(key)) return v;
    const rel = relative(project, v);
    return rel ? COMPUTE_BASE + rel : v;
  }
  if (Array.isArray(v)) return v.map((x) => expandReferences(project, x, key));
  if (typeof v === 'object' && v !== null) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, expandReferences(project, x, k)]));
  return v;
}

/**
 * The resources of the fake Compute API, by collection (`projects/p/global/networks`) and name, with the
 * checks GCE makes: 409 on a duplicate name, 404 on a missing one, 412 on a stale fingerprint, 400 on
 * deleting what another resource references (a network its subnetworks, a template its MIG, a disk its instance).
 */
export class ComputeStore {
  readonly collections = new Map<string, Map<string, Resource>>();
  private nextId = 1000;

  constructor(private readonly hasFingerprint: (type: string, field: string) => boolean) {}

  /** A resource, or undefined. */
  find(collection: string, name: string): Resource | undefined {
    return this.collections.get(collection)?.get(name);
  }

  /** A resource, or 404. */
  get(collection: string, name: string): Resource {
    const r = this.find(collection, name);
    if (!r) throw notFound(`${collection}/${name}`);
    return r;
  }

  /** The resources of a collection, sorted by name. */
  list(collection: string): Resource[] {
    return [...(this.collections.get(collection)?.values() ?? [])].sort((a, b) => (String(a.name) < String(b.name) ? -1 : 1));
  }

  /** 409 if the name is taken; the check an insert makes when it is received. */
  checkInsert(collection: string, body: Resource): void {
    if (typeof body.name !== 'string' || !/^[a-z]([-a-z0-9]{0,61}[a-z0-9])?$/.test(body.name)) throw invalid(`Invalid value for field 'resource.name': '${String(body.name)}'. Must be a match of regex '(?:[a-z](?:[-a-z0-9]{0,61}[a-z0-9])?)'`);
    if (this.find(collection, body.name)) throw alreadyExists(`${collection}/${body.name}`);
  }

  /** Stores a new resource with GCE's output fields (kind, id, selfLink, fingerprints, region or zone URL). */
  insert(collection: string, type: string, body: Resource): Resource {
    const project = collection.split('/')[1];
    const name = body.name as string;
    const r = expandReferences(project, body) as Resource;
    r.kind = `compute#${type[0].toLowerCase()}${type.slice(1)}`;
    r.id = String(this.nextId++);
    r.creationTimestamp = '2026-01-01T00:00:00.000-08:00';
    r.selfLink = `${COMPUTE_BASE}${collection}/${name}`;
    const scope = /^projects\/[^/]+\/(regions|zones)\/([^/]+)\//.exec(collection);
    if (scope && this.hasFingerprint(type, scope[1] === 'regions' ? 'region' : 'zone')) r[scope[1] === 'regions' ? 'region' : 'zone'] = `${COMPUTE_BASE}projects/${project}/${scope[1]}/${scope[2]}`;
    // GCE allocates what the caller leaves out: an address's IP, a forwarding rule's IP and full port range.
    if (type === 'Address' && r.address === undefined) r.address = r.addressType === 'INTERNAL' ? `10.0.16.${this.nextId % 250}` : `34.1.${this.nextId % 250}.1`;
    if (type === 'ForwardingRule' && r.IPAddress === undefined) r.IPAddress = `34.2.${this.nextId % 250}.1`;
    if (type === 'ForwardingRule' && typeof r.portRange === 'string' && !r.portRange.includes('-')) r.portRange = `${r.portRange}-${r.portRange}`;
    if (this.hasFingerprint(type, 'labelFingerprint')) r.labelFingerprint = this.fingerprint(r.labels ?? {});
    if (this.hasFingerprint(type, 'fingerprint')) r.fingerprint = this.fingerprint(r);
    if (!this.collections.has(collection)) this.collections.set(collection, new Map());
    const existing = this.collections.get(collection)!;
    if (existing.has(name)) throw alreadyExists(`${collection}/${name}`);
    existing.set(name, r);
    return r;
  }

  /** Refuses a delete of what another resource references, and of a disk still attached; then removes it. */
  checkDelete(collection: string, name: string): Resource {
    const r = this.get(collection, name);
    const self = r.selfLink as string;
    for (const [c, items] of this.collections) {
      for (const other of items.values()) {
        if (other === r) continue;
        // A disk's `users` names its instances: that link runs the other way and does not block deleting the instance.
        if (c.endsWith('/disks')) continue;
        if (strings({ ...other, selfLink: undefined, zone: undefined, region: undefined }).includes(self)) throw inUse(`${collection}/${name}`, String(other.selfLink).slice(COMPUTE_BASE.length));
      }
    }
    if (Array.isArray(r.users) && r.users.length > 0) throw inUse(`${collection}/${name}`, String(r.users[0]).slice(COMPUTE_BASE.length));
    return r;
  }

  /** Removes a resource (after checkDelete). */
  remove(collection: string, name: string): void {
    this.collections.get(collection)?.delete(name);
  }

  /** 412 when the body's fingerprint (or labelFingerprint) is not the resource's current one. */
  checkFingerprint(collection: string, name: string, sent: unknown, field: 'fingerprint' | 'labelFingerprint'): Resource {
    const r = this.get(collection, name);
    if (sent !== undefined && sent !== r[field]) throw staleFingerprint(`${collection}/${name}`);
    return r;
  }

  /** Merges a patch (JSON merge semantics on top-level fields) and renews the fingerprint. */
  patch(collection: string, name: string, type: string, body: Resource, replace = false): Resource {
    const project = collection.split('/')[1];
    const r = this.get(collection, name);
    const keep = ['kind', 'id', 'creationTimestamp', 'selfLink', 'name', 'region', 'zone', 'labelFingerprint'];
    if (replace) for (const k of Object.keys(r)) if (!keep.includes(k)) delete r[k];
    for (const [k, v] of Object.entries(expandReferences(project, body) as Resource)) if (!keep.includes(k) && k !== 'fingerprint') r[k] = v;
    if (this.hasFingerprint(type, 'fingerprint')) r.fingerprint = this.fingerprint({ ...r, fingerprint: undefined });
    return r;
  }

  /** Replaces the labels and renews `labelFingerprint`. */
  setLabels(r: Resource, labels: Record<string, string>): void {
    r.labels = labels;
    r.labelFingerprint = this.fingerprint(labels);
  }

  /** A short stable fingerprint of content, base64 as GCE's. */
  fingerprint(v: unknown): string {
    return createHash('sha256').update(JSON.stringify(v)).update(String(this.nextId++)).digest('base64').slice(0, 12);
  }

  /** Throws an error the API would give. */
  static fail(status: number, reason: string, message: string): never {
    throw new ComputeApiError(status, reason, message);
  }
}
