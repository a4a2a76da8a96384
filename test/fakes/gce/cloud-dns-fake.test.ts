import { CloudDnsRest } from '../../../src/cloud/gce/cloud-dns-rest';
import { classifyGceError } from '../../../src/cloud/gce/gce-errors';
import { fakeCloudDnsEnv, FakeCloudDns, startFakeCloudDns } from './cloud-dns-fake';

// The fake Cloud DNS API as the real v1 REST API answers (paths, kinds, status codes, Google's error JSON),
// through raw HTTP and through kforge's REST client.

let dns: FakeCloudDns;
let base: string;

beforeAll(async () => {
  dns = await startFakeCloudDns();
  base = `${dns.endpoint}dns/v1/projects/p`;
  dns.addZone('p', { name: 'example-com', dnsName: 'example.com' });
  dns.addZone('p', { name: 'example-com-private', dnsName: 'example.com.', visibility: 'private', networks: ['https://www.googleapis.com/compute/v1/projects/p/global/networks/n'] });
});

afterAll(async () => {
  await dns?.stop();
});

const call = async (method: string, path: string, body?: unknown, token = 'fake-token'): Promise<{ status: number; json: Record<string, unknown> }> => {
  const res = await fetch(`${base}${path}`, { method, headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) }, body: body ? JSON.stringify(body) : undefined });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
};
const reason = (r: { json: Record<string, unknown> }) => ((r.json.error as { errors: Array<{ reason: string }> }).errors[0].reason);
const rr = (name: string, ip: string, ttl = 60) => ({ name, type: 'A', ttl, rrdatas: [ip] });

it('lists zones with the dnsName filter, public and private, and gets one by name or id', async () => {
  const all = await call('GET', '/managedZones');
  expect(all.json.kind).toBe('dns#managedZonesListResponse');
  expect((all.json.managedZones as Array<{ name: string; visibility: string }>).map((z) => [z.name, z.visibility])).toEqual([['example-com', 'public'], ['example-com-private', 'private']]);
  const filtered = await call('GET', '/managedZones?dnsName=example.com.');
  expect((filtered.json.managedZones as unknown[]).length).toBe(2);
  expect((await call('GET', '/managedZones?dnsName=other.org.')).json.managedZones).toEqual([]);
  const priv = (all.json.managedZones as Array<Record<string, unknown>>)[1];
  expect(priv.privateVisibilityConfig).toEqual({ kind: 'dns#managedZonePrivateVisibilityConfig', networks: [{ kind: 'dns#managedZonePrivateVisibilityConfigNetwork', networkUrl: 'https://www.googleapis.com/compute/v1/projects/p/global/networks/n' }] });
  expect((await call('GET', `/managedZones/${String(priv.id)}`)).json.name).toBe('example-com-private');
  const missing = await call('GET', '/managedZones/nope');
  expect([missing.status, reason(missing)]).toEqual([404, 'notFound']);
});

it('a change is pending until read back, then done; 409 on an existing name and type; 412 on an inexact deletion; 404 on a missing one', async () => {
  const created = await call('POST', '/managedZones/example-com/changes', { additions: [rr('api.c.example.com.', '203.0.113.123')] });
  expect(created.status).toBe(200);
  expect([created.json.kind, created.json.status]).toEqual(['dns#change', 'pending']);
  expect((await call('GET', `/managedZones/example-com/changes/${String(created.json.id)}`)).json.status).toBe('done');
  const listed = await call('GET', '/managedZones/example-com/rrsets?name=api.c.example.com.&type=A');
  expect(listed.json).toEqual({ kind: 'dns#resourceRecordSetsListResponse', rrsets: [{ kind: 'dns#resourceRecordSet', ...rr('api.c.example.com.', '203.0.113.123') }] });

  const again = await call('POST', '/managedZones/example-com/changes', { additions: [rr('api.c.example.com.', '10.0.0.1')] });
  expect([again.status, reason(again)]).toEqual([409, 'alreadyExists']);
  const stale = await call('POST', '/managedZones/example-com/changes', { deletions: [rr('api.c.example.com.', '10.0.0.9')], additions: [rr('api.c.example.com.', '10.0.0.1')] });
  expect([stale.status, reason(stale)]).toEqual([412, 'conditionNotMet']);
  const ttl = await call('POST', '/managedZones/example-com/changes', { deletions: [rr('api.c.example.com.', '203.0.113.123', 300)] });
  expect(ttl.status).toBe(412);
  const gone = await call('POST', '/managedZones/example-com/changes', { deletions: [rr('nothing.c.example.com.', '10.0.0.1')] });
  expect([gone.status, reason(gone)]).toEqual([404, 'notFound']);
  // A refused change changes nothing (atomic); an exact deletion plus addition replaces the record.
  const upsert = await call('POST', '/managedZones/example-com/changes', { deletions: [rr('api.c.example.com.', '203.0.113.123')], additions: [rr('api.c.example.com.', '10.0.0.1')] });
  expect(upsert.status).toBe(200);
  expect(dns.records('p', 'example-com').filter((r) => r.type === 'A')).toEqual([rr('api.c.example.com.', '10.0.0.1')]);
});

it('refuses unknown fields and parameters, names outside the zone, and requests without a valid bearer token', async () => {
  const misspelt = await call('POST', '/managedZones/example-com/changes', { addition: [rr('x.example.com.', '10.0.0.1')] });
  expect([misspelt.status, reason(misspelt)]).toEqual([400, 'invalid']);
  const field = await call('POST', '/managedZones/example-com/changes', { additions: [{ ...rr('x.example.com.', '10.0.0.1'), rrdata: ['x'] }] });
  expect(field.status).toBe(400);
  expect((await call('GET', '/managedZones?dns_name=example.com.')).status).toBe(400);
  expect((await call('GET', '/managedZones/example-com/rrsets?type=A')).status).toBe(400);
  expect((await call('POST', '/managedZones/example-com/changes', { additions: [rr('x.other.org.', '10.0.0.1')] })).status).toBe(400);
  expect((await call('POST', '/managedZones/example-com/changes', { additions: [rr('x.example.com', '10.0.0.1')] })).status).toBe(400);
  const anonymous = await call('GET', '/managedZones', undefined, 'wrong');
  expect(anonymous.status).toBe(401);
});

it('kforge\'s client rides out 429s and classifies refusals as the Compute ones', async () => {
  let attempts = 0;
  let throttled = 0;
  const client = new CloudDnsRest({ project: 'p', env: fakeCloudDnsEnv(dns), token: async () => 'fake-token', backoffMs: 1, attempt: (t) => { attempts++; if (t) throttled++; } });
  dns.setThrottleShare(0.5);
  try {
    await client.change('example-com', { additions: [rr('t.example.com.', '10.0.0.5')] });
    expect((await client.listRecords('example-com', 't.example.com.', 'A')).map((r) => r.rrdatas)).toEqual([['10.0.0.5']]);
  } finally {
    dns.setThrottleShare(0);
  }
  expect(throttled).toBeGreaterThan(0);
  expect(attempts).toBeGreaterThan(throttled);
  const refused = await client.change('example-com', { additions: [rr('t.example.com.', '10.0.0.6')] }).catch((e: unknown) => e);
  expect(classifyGceError(refused)).toBe('already-exists');
  const stale = await client.change('example-com', { deletions: [rr('t.example.com.', '10.0.0.6')] }).catch((e: unknown) => e);
  expect(classifyGceError(stale)).toBe('precondition-failed');
});
