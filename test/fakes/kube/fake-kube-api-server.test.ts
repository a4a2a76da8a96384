import * as https from 'node:https';
import type { Keypair } from '../../../src/pki/keypair';
import { FakeKubeApi, startFakeKubeApi } from './fake-kube-api-server';
import { kubeNode, kubePod } from './kube-objects';
import type { Loose } from './kube-store';
import { KubeTestPki, makeKubeTestPki } from './kube-test-pki';

let pki: KubeTestPki;
let api: FakeKubeApi;

beforeAll(async () => {
  pki = await makeKubeTestPki();
  api = await startFakeKubeApi({ ca: pki.ca, serving: pki.serving });
});
afterAll(() => api.stop());

interface Reply {
  status: number;
  body: Loose;
}

function call(method: string, path: string, o: { as?: Keypair | null; body?: unknown; type?: string } = {}): Promise<Reply> {
  const client = o.as === undefined ? pki.admin : o.as;
  const payload = o.body === undefined ? undefined : JSON.stringify(o.body);
  return new Promise((resolve, reject) => {
    const req = https.request(
      `${api.url}${path}`,
      {
        method,
        ca: pki.ca.certificatePem,
        servername: 'localhost',
        ...(client ? { cert: client.certificatePem, key: client.privateKeyPem } : {}),
        headers: payload !== undefined ? { 'content-type': o.type ?? 'application/json', 'content-length': Buffer.byteLength(payload) } : {},
      },
      (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: res.headers['content-type']?.startsWith('application/json') ? JSON.parse(text) : text }));
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

beforeEach(() => {
  for (const n of api.store.list('nodes')) api.store.delete('nodes', n.metadata.name, undefined);
  for (const p of api.store.list('pods')) api.store.delete('pods', p.metadata.name, p.metadata.namespace);
  for (const p of api.store.list('poddisruptionbudgets')) api.store.delete('poddisruptionbudgets', p.metadata.name, p.metadata.namespace);
  api.resetRequests();
});

test('authentication is by client certificate from the cluster CA; RBAC-like authorization answers 403', async () => {
  expect(await call('GET', '/api/v1/nodes', { as: null })).toMatchObject({ status: 401, body: { kind: 'Status', reason: 'Unauthorized', code: 401 } });
  expect(await call('GET', '/api/v1/nodes', { as: pki.foreignAdmin })).toMatchObject({ status: 401 });
  const denied = await call('GET', '/api/v1/nodes', { as: pki.nobody });
  expect(denied).toMatchObject({ status: 403, body: { reason: 'Forbidden', details: { kind: 'nodes' } } });
  expect(denied.body.message).toBe('nodes is forbidden: User "nobody" cannot list resource "nodes" in API group "" at the cluster scope');
  expect((await call('GET', '/version')).body).toMatchObject({ gitVersion: 'v1.31.4' });
});

test('lists nodes and pods with label and field selectors, and 404s a missing object with its Status', async () => {
  api.store.put('nodes', kubeNode('cp-1', { role: 'control-plane', instanceGroup: 'control-plane-us-east-1a' }));
  api.store.put('nodes', kubeNode('n-1', { instanceGroup: 'nodes' }));
  api.store.put('pods', kubePod('a', { nodeName: 'n-1' }));
  api.store.put('pods', kubePod('b', { nodeName: 'cp-1', namespace: 'kube-system' }));
  const cps = await call('GET', '/api/v1/nodes?labelSelector=' + encodeURIComponent('node-role.kubernetes.io/control-plane'));
  expect(cps.body.kind).toBe('NodeList');
  expect(cps.body.items.map((n: Loose) => n.metadata.name)).toEqual(['cp-1']);
  const onN1 = await call('GET', '/api/v1/pods?fieldSelector=' + encodeURIComponent('spec.nodeName=n-1'));
  expect(onN1.body.items.map((p: Loose) => p.metadata.name)).toEqual(['a']);
  expect((await call('GET', '/api/v1/namespaces/kube-system/pods')).body.items.map((p: Loose) => p.metadata.name)).toEqual(['b']);
  expect((await call('GET', '/api/v1/pods?fieldSelector=spec.bogus%3Dx')).status).toBe(400);
  expect(await call('GET', '/api/v1/nodes/nope')).toMatchObject({ status: 404, body: { reason: 'NotFound', message: 'nodes "nope" not found', details: { name: 'nope', kind: 'nodes' } } });
  expect(api.requestCounts()).toEqual({ 'get /api/v1/nodes/nope': 1, 'list /api/v1/namespaces/kube-system/pods': 1, 'list /api/v1/nodes': 1, 'list /api/v1/pods': 2 });
});

test('cordon is a PATCH of spec.unschedulable in each patch type client-node sends; other types are 415; status is not writable', async () => {
  api.store.put('nodes', kubeNode('n-1'));
  const merge = await call('PATCH', '/api/v1/nodes/n-1', { body: { spec: { unschedulable: true } }, type: 'application/merge-patch+json' });
  expect(merge.body.spec.unschedulable).toBe(true);
  const strategic = await call('PATCH', '/api/v1/nodes/n-1', { body: { spec: { unschedulable: null } }, type: 'application/strategic-merge-patch+json' });
  expect(strategic.body.spec.unschedulable).toBeUndefined();
  const json = await call('PATCH', '/api/v1/nodes/n-1', { body: [{ op: 'add', path: '/spec/unschedulable', value: true }], type: 'application/json-patch+json' });
  expect(json.body.spec.unschedulable).toBe(true);
  expect(Number(json.body.metadata.resourceVersion)).toBeGreaterThan(Number(merge.body.metadata.resourceVersion));
  expect(await call('PATCH', '/api/v1/nodes/n-1', { body: { spec: {} }, type: 'application/json' })).toMatchObject({ status: 415, body: { reason: 'UnsupportedMediaType' } });
  const status = await call('PATCH', '/api/v1/nodes/n-1', { body: { status: { conditions: [] } }, type: 'application/merge-patch+json' });
  expect(status.body.status.conditions).toHaveLength(4);
  const stale = await call('PATCH', '/api/v1/nodes/n-1', { body: { metadata: { resourceVersion: '1' }, spec: { unschedulable: false } }, type: 'application/merge-patch+json' });
  expect(stale).toMatchObject({ status: 409, body: { reason: 'Conflict' } });
});

test('an eviction a PDB blocks answers 429 with the DisruptionBudget cause; an allowed one deletes the pod (201)', async () => {
  for (const n of ['w-1', 'w-2']) api.store.put('pods', kubePod(n, { nodeName: 'n-1', labels: { app: 'web' } }));
  api.store.put('poddisruptionbudgets', { metadata: { name: 'web', namespace: 'default' }, spec: { minAvailable: 1, selector: { matchLabels: { app: 'web' } } } });
  const evict = (name: string): Promise<Reply> =>
    call('POST', `/api/v1/namespaces/default/pods/${name}/eviction`, { body: { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name, namespace: 'default' }, deleteOptions: { gracePeriodSeconds: 30 } } });
  expect((await call('GET', '/apis/policy/v1/namespaces/default/poddisruptionbudgets/web')).body.status).toMatchObject({ disruptionsAllowed: 1, currentHealthy: 2, desiredHealthy: 1 });
  expect(await evict('w-1')).toMatchObject({ status: 201, body: { kind: 'Status', status: 'Success' } });
  const blocked = await evict('w-2');
  expect(blocked).toMatchObject({ status: 429, body: { reason: 'TooManyRequests', code: 429, details: { causes: [{ reason: 'DisruptionBudget' }] } } });
  expect(blocked.body.details.causes[0].message).toBe('The disruption budget web needs 1 healthy pods and has 1 currently');
  expect(api.store.list('pods').map((p) => p.metadata.name)).toEqual(['w-2']);
  expect((await call('POST', '/api/v1/namespaces/default/pods/w-2/eviction', { body: { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'other' } } })).status).toBe(400);
  expect(api.requestCounts()['create /api/v1/namespaces/default/pods/w-2/eviction']).toBe(2);
});

test('DELETE takes DeleteOptions: a UID precondition that does not match is a 409, dryRun deletes nothing', async () => {
  api.store.put('pods', kubePod('p', { nodeName: 'n-1' }));
  const del = (body: unknown): Promise<Reply> => call('DELETE', '/api/v1/namespaces/default/pods/p', { body });
  expect(await del({ apiVersion: 'v1', kind: 'DeleteOptions', preconditions: { uid: 'other' } })).toMatchObject({ status: 409, body: { reason: 'Conflict' } });
  expect((await del({ kind: 'DeleteOptions', apiVersion: 'v1', dryRun: ['All'] })).status).toBe(200);
  expect(api.store.list('pods')).toHaveLength(1);
  expect((await del({ kind: 'DeleteOptions', apiVersion: 'v1', gracePeriodSeconds: 0 })).body.metadata.name).toBe('p');
  expect(api.store.list('pods')).toHaveLength(0);
});

test('with graceful deletion a deleted pod terminates until the test finishes it, as its kubelet would', async () => {
  api.store.gracefulPodDeletion = true;
  try {
    api.store.put('pods', kubePod('p', { nodeName: 'n-1' }));
    expect((await call('DELETE', '/api/v1/namespaces/default/pods/p')).body.metadata.deletionTimestamp).toBeDefined();
    expect(api.store.list('pods')).toHaveLength(1);
    api.store.finishTermination('default', 'p');
    expect(api.store.list('pods')).toHaveLength(0);
  } finally {
    api.store.gracefulPodDeletion = false;
  }
});

test('an injected fault answers its Status once', async () => {
  api.injectFault({ code: 503, reason: 'ServiceUnavailable', path: '/api/v1/nodes' });
  expect((await call('GET', '/api/v1/nodes')).status).toBe(503);
  expect((await call('GET', '/api/v1/nodes')).status).toBe(200);
});

test('@kubernetes/client-node works against the fake: lists, cordon in each patch strategy, eviction 429 as an ApiException', async () => {
  const k8s = await import('@kubernetes/client-node');
  const kc = new k8s.KubeConfig();
  kc.loadFromOptions({
    clusters: [{ name: 'c', server: `https://localhost:${api.port}`, caData: Buffer.from(pki.ca.certificatePem).toString('base64') }],
    users: [{ name: 'u', certData: Buffer.from(pki.admin.certificatePem).toString('base64'), keyData: Buffer.from(pki.admin.privateKeyPem as string).toString('base64') }],
    contexts: [{ name: 'c', cluster: 'c', user: 'u' }],
    currentContext: 'c',
  });
  const core = kc.makeApiClient(k8s.CoreV1Api);
  api.store.put('nodes', kubeNode('n-1'));
  api.store.put('pods', kubePod('w-1', { nodeName: 'n-1', labels: { app: 'web' } }));
  api.store.put('poddisruptionbudgets', { metadata: { name: 'web', namespace: 'default' }, spec: { minAvailable: 1, selector: { matchLabels: { app: 'web' } } } });
  expect((await core.listNode()).items.map((n) => n.metadata?.name)).toEqual(['n-1']);
  expect((await core.listPodForAllNamespaces({ fieldSelector: 'spec.nodeName=n-1' })).items).toHaveLength(1);
  await core.patchNode({ name: 'n-1', body: [{ op: 'add', path: '/spec/unschedulable', value: true }] });
  // As on a real API server, RFC 6902 'replace' of a field the node does not have yet is a 422.
  await expect(core.patchNode({ name: 'n-1', body: [{ op: 'replace', path: '/metadata/annotations/x', value: 'y' }] })).rejects.toMatchObject({ code: 422 });
  await core.patchNode({ name: 'n-1', body: { spec: { unschedulable: false } } }, k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.StrategicMergePatch));
  await core.patchNode({ name: 'n-1', body: { spec: { unschedulable: true } } }, k8s.setHeaderOptions('Content-Type', k8s.PatchStrategy.MergePatch));
  expect(api.requests.filter((r) => r.verb === 'patch').map((r) => r.contentType)).toEqual(['application/json-patch+json', 'application/json-patch+json', 'application/strategic-merge-patch+json', 'application/merge-patch+json']);
  expect(api.store.get('nodes', 'n-1').spec.unschedulable).toBe(true);
  const evicted = core.createNamespacedPodEviction({ name: 'w-1', namespace: 'default', body: { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'w-1', namespace: 'default' } } });
  await expect(evicted).rejects.toMatchObject({ code: 429 });
});

test('server-side apply: 201 on create, 200 on update, an unchanged apply keeps the resourceVersion; fieldManager is required; a missing namespace is 404', async () => {
  const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'kube-system', labels: { app: 'x' } }, data: { a: '1' } };
  const apply = (body: unknown, query = '?fieldManager=t'): Promise<Reply> => call('PATCH', `/api/v1/namespaces/kube-system/configmaps/c${query}`, { body, type: 'application/apply-patch+yaml' });
  const created = await apply(cm);
  expect(created).toMatchObject({ status: 201, body: { kind: 'ConfigMap', data: { a: '1' }, metadata: { managedFields: [{ manager: 't', operation: 'Apply', fieldsV1: { 'f:data': { 'f:a': {} } } }] } } });
  const same = await apply(cm);
  expect([same.status, same.body.metadata.resourceVersion]).toEqual([200, created.body.metadata.resourceVersion]);
  // A field this manager no longer applies is removed.
  const changed = await apply({ ...cm, data: { b: '2' } });
  expect([changed.status, changed.body.data]).toEqual([200, { b: '2' }]);
  expect((await apply(cm, '')).status).toBe(422);
  expect(await call('PATCH', '/api/v1/namespaces/nope/configmaps/c?fieldManager=t', { body: { ...cm, metadata: { name: 'c' } }, type: 'application/apply-patch+yaml' })).toMatchObject({ status: 404, body: { message: 'namespaces "nope" not found' } });
  expect(await call('PATCH', '/api/v1/namespaces/kube-system/configmaps/c?fieldManager=t', { body: { ...cm, metadata: { name: 'other' } }, type: 'application/apply-patch+yaml' })).toMatchObject({ status: 400 });
  expect(await call('PATCH', '/api/v1/namespaces/kube-system/configmaps/Bad_Name?fieldManager=t', { body: { ...cm, metadata: { name: 'Bad_Name' } }, type: 'application/apply-patch+yaml' })).toMatchObject({ status: 422, body: { reason: 'Invalid', details: { causes: [{ field: 'metadata.name' }] } } });
  // Label-selected collection delete, as pruning may use.
  expect((await call('DELETE', '/api/v1/namespaces/kube-system/configmaps?labelSelector=app%3Dx')).body.items).toHaveLength(1);
  expect(api.store.list('configmaps')).toEqual([]);
});

test("a custom resource is served (and discovered) only once its CRD is Established; 503 while the server is starting", async () => {
  // Not Established until the test says so (no timing in the test).
  api.store.crdEstablishDelayMs = 3_600_000;
  try {
    const crd = { apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'gadgets.example.com' }, spec: { group: 'example.com', scope: 'Cluster', names: { plural: 'gadgets', kind: 'Gadget' }, versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object' } } }] } };
    const made = await call('PATCH', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/gadgets.example.com?fieldManager=t', { body: crd, type: 'application/apply-patch+yaml' });
    expect(made.body.status.conditions.find((c: { type: string }) => c.type === 'Established').status).toBe('False');
    const gadget = { apiVersion: 'example.com/v1', kind: 'Gadget', metadata: { name: 'g' }, spec: {} };
    expect((await call('PATCH', '/apis/example.com/v1/gadgets/g?fieldManager=t', { body: gadget, type: 'application/apply-patch+yaml' })).status).toBe(404);
    expect((await call('GET', '/apis/example.com/v1')).status).toBe(404);
    api.store.establish('gadgets.example.com');
    expect((await call('GET', '/apis/example.com/v1')).body.resources).toEqual([expect.objectContaining({ name: 'gadgets', kind: 'Gadget', namespaced: false })]);
    expect((await call('GET', '/apis')).body.groups.map((g: { name: string }) => g.name)).toContain('example.com');
    expect((await call('PATCH', '/apis/example.com/v1/gadgets/g?fieldManager=t', { body: gadget, type: 'application/apply-patch+yaml' })).status).toBe(201);
    api.store.delete('customresourcedefinitions', 'gadgets.example.com', undefined);
    api.setStarting(3_600_000);
    expect(await call('GET', '/api/v1/nodes')).toMatchObject({ status: 503, body: { reason: 'ServiceUnavailable' } });
    api.setStarting(0);
    expect((await call('GET', '/api/v1/nodes')).status).toBe(200);
  } finally {
    api.store.crdEstablishDelayMs = 0;
  }
});
