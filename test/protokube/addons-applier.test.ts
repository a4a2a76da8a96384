import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as yaml from 'js-yaml';
import { nodeKubeconfig } from '../../src/nodeup/node-kubeconfig';
import { RootWriter } from '../../src/nodeup/root-writer';
import type { ChannelAddon } from '../../src/protokube/addons/addon-channel';
import { parseAddonChannel } from '../../src/protokube/addons/addon-channel';
import { AddonOutcome, applyAddonChannel } from '../../src/protokube/addons/apply-addon-channel';
import { applyBootstrapChannel } from '../../src/protokube/addons/apply-bootstrap-channel';
import { KubeApiClient } from '../../src/protokube/addons/kube-api-client';
import { openVfs } from '../../src/state/vfs/open-vfs';
import { FakeKubeApi, startFakeKubeApi } from '../fakes/kube/fake-kube-api-server';
import { KubeTestPki, makeKubeTestPki } from '../fakes/kube/kube-test-pki';

// The applier (kops's `channels apply channel`, run by protokube) against the stateful fake API server:
// kops's own minimal-1.33 channel and manifests (test/fixtures/kops-addons, kops commit 268927e), and small
// hand-written channels for order, CRDs, pruning and refusals.

const FIXTURES = path.join(__dirname, '..', 'fixtures', 'kops-addons');
const CHANNEL = 's3://bucket/minimal.example.com/addons/bootstrap-channel.yaml';

let pki: KubeTestPki;
let api: FakeKubeApi;

beforeAll(async () => {
  pki = await makeKubeTestPki();
  api = await startFakeKubeApi({ ca: pki.ca, serving: pki.serving });
});
afterAll(() => api.stop());

beforeEach(() => {
  // A fresh cluster per test: every object the applier made goes, the four initial namespaces come back bare.
  for (const r of api.store.resources()) {
    const key = r.group && !['namespaces'].includes(r.resource) && api.store.list('customresourcedefinitions').some((c) => c.metadata.name === `${r.resource}.${r.group}`) ? `${r.resource}.${r.group}` : r.resource;
    for (const o of api.store.list(key)) if (!(key === 'namespaces' && ['default', 'kube-system', 'kube-public', 'kube-node-lease'].includes(o.metadata.name))) api.store.delete(key, o.metadata.name, o.metadata.namespace);
  }
  for (const name of ['default', 'kube-system', 'kube-public', 'kube-node-lease']) api.store.put('namespaces', { metadata: { name, labels: { 'kubernetes.io/metadata.name': name } } });
  api.store.crdEstablishDelayMs = 0;
  api.onRequest = undefined;
  api.setStarting(0);
  api.resetRequests();
});

function kubeconfig(): string {
  return nodeKubeconfig('kforge', `https://localhost:${api.port}`, pki.ca.certificatePem, pki.admin);
}

async function client(waitMs = 10_000, firstDelayMs = 50): Promise<KubeApiClient> {
  return KubeApiClient.fromKubeconfig(kubeconfig(), { deadline: Date.now() + waitMs, firstDelayMs });
}

/** One of kops's channels (default minimal-1.33), with each manifest read from its fixture file. */
function minimalChannel(kopsCase = 'minimal-1.33'): { addons: ChannelAddon[]; manifests: Map<string, string> } {
  const dir = path.join(FIXTURES, kopsCase);
  const addons = parseAddonChannel(fs.readFileSync(path.join(dir, 'bootstrap_content'), 'utf8'), 'bootstrap_content');
  const manifests = new Map<string, string>();
  for (const a of addons) {
    const file = [`${a.name}-${a.id}_content`, `${a.name}_content`].map((f) => path.join(dir, f)).find((f) => fs.existsSync(f));
    if (!file) throw new Error(`no fixture for ${a.manifest}`);
    manifests.set(a.manifest, fs.readFileSync(file, 'utf8'));
  }
  return { addons, manifests };
}

async function apply(addons: ChannelAddon[], manifests: Map<string, string>, c?: KubeApiClient): Promise<AddonOutcome[]> {
  return applyAddonChannel({ client: c ?? (await client()), channel: CHANNEL, addons, readManifest: async (a) => manifests.get(a.manifest) as string, establishPollMs: 50 });
}

const writes = (): string[] => api.requests.filter((r) => r.method !== 'GET').map((r) => `${r.verb} ${r.path}`);

function addon(name: string, hash: string, extra: Partial<ChannelAddon> = {}): ChannelAddon {
  return { name, namespace: 'kube-system', id: 'k8s-1.0', manifest: `${name}/k8s-1.0.yaml`, manifestHash: hash, needsPKI: false, prune: undefined, ...extra };
}

const docs = (...objects: unknown[]): string => objects.map((o) => yaml.dump(o)).join('---\n');

test("kops's minimal-1.33 channel: the first pass creates every object and records each addon's version; the second makes no write", async () => {
  const { addons, manifests } = minimalChannel();
  const first = await apply(addons, manifests);
  expect(first.map((o) => [o.name, o.action, o.error])).toEqual(addons.map((a) => [a.name, 'applied', undefined]));
  const objects = [...manifests.values()].flatMap((m) => yaml.loadAll(m).filter(Boolean));
  expect(first.reduce((n, o) => n + (o.created ?? 0), 0)).toBe(objects.length);
  const firstCalls = api.requests.map((r) => (r.verb === 'patch' ? (r.contentType === 'application/apply-patch+yaml' ? 'apply' : 'record') : r.verb === 'get' ? 'discovery' : r.path === '/api/v1/namespaces' ? 'versions' : 'prune list'));
  const patches = api.requests.filter((r) => r.verb === 'patch');
  // One server-side apply per object (field manager kforge, forced as kops's applier does), one record per addon.
  expect(patches.filter((r) => r.contentType === 'application/apply-patch+yaml' && r.query.fieldManager === 'kforge' && r.query.force === 'true')).toHaveLength(objects.length);
  expect(patches.filter((r) => r.path === '/api/v1/namespaces/kube-system')).toHaveLength(addons.length);
  const coredns = api.store.get('deployments', 'coredns', 'kube-system');
  expect(coredns.metadata.labels['k8s-addon']).toBe('coredns.addons.k8s.io');
  expect(coredns.metadata.managedFields.map((m: { manager: string; operation: string }) => [m.manager, m.operation])).toEqual([['kforge', 'Apply']]);
  const recorded = api.store.get('namespaces', 'kube-system').metadata.annotations;
  expect(JSON.parse(recorded['addons.k8s.io/coredns.addons.k8s.io'])).toEqual({ channel: CHANNEL, id: 'k8s-1.12', manifestHash: '0b180b32473059784ae4bc805d19bc5596a25a86a84041755b792a4766501627', systemGeneration: 1 });
  // limit-range has no id in kops's channel: kops's JSON leaves it out.
  expect(recorded['addons.k8s.io/limit-range.addons.k8s.io']).toBe(`{"channel":"${CHANNEL}","manifestHash":"686cc69e559a1c6f5e8b94e38de54a575a25c432ed5ceec565244b965fb5f07f","systemGeneration":1}`);

  api.resetRequests();
  const second = await apply(addons, manifests);
  expect(second.every((o) => o.action === 'unchanged')).toBe(true);
  expect(writes()).toEqual([]);
  expect(api.requestCounts()).toEqual({ 'list /api/v1/namespaces': 1 });
  // The numbers docs/protokube.md reports.
  const tally = (xs: string[]): Record<string, number> => xs.reduce((t: Record<string, number>, x) => ({ ...t, [x]: (t[x] ?? 0) + 1 }), {});
  // First pass: the installed versions (1 list), discovery of each group used (10), one apply per object (65),
  // node-termination-handler's prune kinds (13 lists), one version record per addon (9): 98 calls, 74 writes.
  expect({ total: firstCalls.length, ...tally(firstCalls) }).toEqual({ total: 98, versions: 1, discovery: 10, apply: 65, 'prune list': 13, record: 9 });
  expect(api.requests).toHaveLength(1);
});

test("kops's many-addons channel (16 addons: cert-manager, custom resources, an APIService, needsPKI) applies in one pass; the second makes no write", async () => {
  const { addons, manifests } = minimalChannel('many-addons');
  const first = await apply(addons, manifests);
  expect(first.filter((o) => o.action !== 'applied').map((o) => [o.name, o.error])).toEqual([]);
  expect(addons).toHaveLength(16);
  // Every cert-manager custom resource was written after cert-manager's CRDs were applied.
  const writes = api.requests.map((r, i) => ({ ...r, i })).filter((r) => r.verb === 'patch' || r.verb === 'create');
  const lastCrd = Math.max(...writes.filter((r) => r.path.endsWith('.cert-manager.io')).map((r) => r.i));
  expect(writes.filter((r) => r.path.startsWith('/apis/cert-manager.io/v1/')).every((r) => r.i > lastCrd)).toBe(true);
  // needsPKI (kops's installPKI): metrics-server comes before cert-manager in kops's channel, so its Issuer is
  // made when the pass tries it again at its end; each such addon has its CA Secret and Issuer.
  const withPki = addons.filter((a) => a.needsPKI).map((a) => a.name);
  expect(withPki).toEqual(['metrics-server.addons.k8s.io', 'aws-load-balancer-controller.addons.k8s.io', 'snapshot-controller.addons.k8s.io']);
  expect(first.filter((x) => x.pkiInstalled).map((x) => x.name)).toEqual(withPki);
  for (const name of withPki) {
    const secret = api.store.get('secrets', `${name}-ca`, 'kube-system');
    expect(secret.type).toBe('kubernetes.io/tls');
    expect(Buffer.from(secret.data['tls.crt'], 'base64').toString()).toContain('BEGIN CERTIFICATE');
    expect(api.store.get('issuers.cert-manager.io', name, 'kube-system').spec).toEqual({ ca: { secretName: `${name}-ca` } });
  }
  api.resetRequests();
  const second = await apply(addons, manifests);
  expect(second.every((o) => o.action === 'unchanged')).toBe(true);
  // As kops: no write; one list, and for each needsPKI addon a read of its Secret and of its Issuer.
  expect(writes.length).toBeGreaterThan(0);
  expect(api.requests.filter((r) => r.method !== 'GET')).toEqual([]);
  expect(api.requestCounts()).toEqual({
    'get /apis/cert-manager.io/v1': 1,
    'list /api/v1/namespaces': 1,
    ...Object.fromEntries(withPki.flatMap((n) => [[`get /api/v1/namespaces/kube-system/secrets/${n}-ca`, 1], [`get /apis/cert-manager.io/v1/namespaces/kube-system/issuers/${n}`, 1]])),
  });
});

test('a changed manifest hash applies that addon alone; the unchanged ones cost no call', async () => {
  const { addons, manifests } = minimalChannel();
  await apply(addons, manifests);
  api.resetRequests();
  const lr = addons.find((a) => a.name === 'limit-range.addons.k8s.io') as ChannelAddon;
  const changed = addons.map((a) => (a === lr ? { ...a, manifestHash: 'f'.repeat(64) } : a));
  const outcome = await apply(changed, manifests);
  expect(outcome.filter((o) => o.action === 'applied').map((o) => [o.name, o.previousHash, o.configured])).toEqual([[lr.name, lr.manifestHash, 1]]);
  expect(writes()).toEqual(['patch /api/v1/namespaces/default/limitranges/limits', 'patch /api/v1/namespaces/kube-system']);
});

test('order: Namespaces, then CRDs, then the rest; a custom resource only once its CRD is Established', async () => {
  // The CRD becomes Established when the applier asks for it the second time: it must wait and look again.
  api.store.crdEstablishDelayMs = 3_600_000;
  let asked = 0;
  api.onRequest = (r) => {
    if (r.verb === 'get' && r.path.endsWith('/customresourcedefinitions/widgets.example.com') && ++asked === 2) api.store.establish('widgets.example.com');
  };
  const crd = {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'widgets.example.com' },
    spec: { group: 'example.com', scope: 'Namespaced', names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' }, versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } }] },
  };
  const manifest = docs(
    { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w', namespace: 'shop' }, spec: { size: 3 } },
    { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings', namespace: 'shop' }, data: { a: 'b' } },
    crd,
    { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop' } },
  );
  const a = addon('shop.example.com', 'a'.repeat(64));
  const outcome = await apply([a], new Map([[a.manifest, manifest]]));
  expect(outcome).toEqual([expect.objectContaining({ action: 'applied', created: 4, configured: 0 })]);
  const sequence = api.requests.map((r) => `${r.method} ${r.path}`).filter((r) => !r.startsWith('GET /api') || r.includes('customresourcedefinitions/'));
  const applies = api.requests.filter((r) => r.contentType === 'application/apply-patch+yaml').map((r) => r.path);
  expect(applies).toEqual(['/api/v1/namespaces/shop', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/widgets.example.com', '/api/v1/namespaces/shop/configmaps/settings', '/apis/example.com/v1/namespaces/shop/widgets/w']);
  // The CRD was polled until Established, and only then was the Widget applied: no 404 on the way.
  const poll = 'GET /apis/apiextensions.k8s.io/v1/customresourcedefinitions/widgets.example.com';
  expect(sequence.filter((r) => r === poll)).toHaveLength(2);
  expect(sequence.indexOf('PATCH /apis/example.com/v1/namespaces/shop/widgets/w')).toBeGreaterThan(sequence.lastIndexOf(poll));
  expect(api.store.get('widgets.example.com', 'w', 'shop').spec).toEqual({ size: 3 });
});

test('an object dropped from an addon is pruned by its prune kinds (label, namespaces), and nothing else is', async () => {
  const labels = { 'addon.kops.k8s.io/name': 'demo.addons.k8s.io', 'app.kubernetes.io/managed-by': 'kops' };
  const selector = 'addon.kops.k8s.io/name=demo.addons.k8s.io,app.kubernetes.io/managed-by=kops';
  const cm = (name: string, namespace = 'kube-system', l: Record<string, string> = labels): unknown => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace, labels: l }, data: { k: name } });
  const prune = [
    { group: '', kind: 'ConfigMap', labelSelector: selector, namespaces: ['kube-system'] },
    { group: 'rbac.authorization.k8s.io', kind: 'ClusterRole', labelSelector: selector },
  ];
  const v1 = addon('demo.addons.k8s.io', '1'.repeat(64), { prune });
  const role = (name: string): unknown => ({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name, labels }, rules: [] });
  await apply([v1], new Map([[v1.manifest, docs(cm('keep'), cm('drop'), role('demo:keep'), role('demo:drop'))]]));
  // Not the addon's to prune: another addon's label, and a namespace its prune list does not name.
  api.store.put('configmaps', { metadata: { name: 'other', namespace: 'kube-system', labels: { 'addon.kops.k8s.io/name': 'other' } } });
  api.store.put('configmaps', { metadata: { name: 'elsewhere', namespace: 'default', labels } });
  api.resetRequests();
  const v2 = { ...v1, manifestHash: '2'.repeat(64) };
  const [outcome] = await apply([v2], new Map([[v2.manifest, docs(cm('keep'), role('demo:keep'))]]));
  expect(outcome).toMatchObject({ action: 'applied', pruned: ['ConfigMap kube-system/drop', 'ClusterRole demo:drop'] });
  expect(api.store.list('configmaps').map((c) => `${c.metadata.namespace}/${c.metadata.name}`)).toEqual(['default/elsewhere', 'kube-system/keep', 'kube-system/other']);
  expect(api.store.list('clusterroles').map((c) => c.metadata.name)).toEqual(['demo:keep']);
  expect(api.requests.filter((r) => r.verb === 'list').map((r) => [r.path, r.query.labelSelector])).toEqual([
    ['/api/v1/namespaces', undefined],
    ['/api/v1/namespaces/kube-system/configmaps', selector],
    ['/apis/rbac.authorization.k8s.io/v1/clusterroles', selector],
  ]);
});

test('"API not up yet": 503 answers are retried with backoff, then the pass succeeds; past the wait it is left to the next pass', async () => {
  const { addons, manifests } = minimalChannel();
  // Starting until the applier has been answered 503 three times.
  const c = await client(10_000, 50);
  api.setStarting(3_600_000);
  let refusedSoFar = 0;
  api.onRequest = () => {
    if (++refusedSoFar === 4) api.setStarting(0);
  };
  const outcome = await apply(addons, manifests, c);
  expect(outcome.every((o) => o.action === 'applied')).toBe(true);
  expect(api.requests.filter((r) => r.path === '/api/v1/namespaces' && r.verb === 'list')).toHaveLength(4);
  api.onRequest = undefined;

  // Through protokube's step: a server that stays down past --api-wait leaves the addons waiting, not failed.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kforge-addons-'));
  try {
    const store = path.join(dir, 'store', 'minimal.example.com');
    fs.mkdirSync(path.join(store, 'addons'), { recursive: true });
    fs.copyFileSync(path.join(FIXTURES, 'minimal-1.33', 'bootstrap_content'), path.join(store, 'addons', 'bootstrap-channel.yaml'));
    fs.mkdirSync(path.join(dir, 'root', 'var', 'lib', 'kforge'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'root', 'var', 'lib', 'kforge', 'kubeconfig'), kubeconfig(), { mode: 0o600 });
    const configBase = `file://${store}`;
    api.setStarting(60_000);
    const waiting = await applyBootstrapChannel({ vfs: openVfs(configBase), configBase, writer: new RootWriter(path.join(dir, 'root')), apiWaitMs: 300, retryDelayMs: 50 });
    expect(waiting).toMatchObject({ status: 'waiting', server: `https://localhost:${api.port}`, addons: [] });
    expect(waiting.reason).toContain('503 ServiceUnavailable');
    api.setStarting(0);
    const none = await applyBootstrapChannel({ vfs: openVfs(configBase), configBase, writer: new RootWriter(path.join(dir, 'empty-root')), apiWaitMs: 300 });
    expect(none).toMatchObject({ status: 'skipped', reason: 'no kubeconfig at /var/lib/kforge/kubeconfig yet (nodeup writes it)' });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('a refusal (422 invalid, 409 conflict) fails that addon with the addon, object and reason; the other addons are applied', async () => {
  const bad = addon('bad.addons.k8s.io', 'b'.repeat(64));
  const stale = addon('stale.addons.k8s.io', 'c'.repeat(64));
  const good = addon('good.addons.k8s.io', 'd'.repeat(64));
  api.store.put('configmaps', { metadata: { name: 'pinned', namespace: 'kube-system' }, data: {} });
  const manifests = new Map([
    [bad.manifest, docs({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: 'kube-system' }, spec: { replicas: 'three', selector: { matchLabels: { a: 'b' } }, template: { metadata: { labels: { a: 'b' } }, spec: { containers: [{ name: 'c', image: 'i' }] } } } })],
    // A resourceVersion in a manifest is a precondition the server checks even when the apply is forced.
    [stale.manifest, docs({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'pinned', namespace: 'kube-system', resourceVersion: '1' }, data: { a: 'b' } })],
    [good.manifest, docs({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'fine', namespace: 'kube-system' }, data: { a: 'b' } })],
  ]);
  const outcome = await apply([bad, stale, good], manifests);
  expect(outcome.map((o) => [o.name, o.action, o.error])).toEqual([
    ['bad.addons.k8s.io', 'failed', 'addon bad.addons.k8s.io: Deployment kube-system/web: 422 Invalid: Deployment.apps "web" is invalid: spec.replicas: Invalid value: "three": must be integer'],
    ['stale.addons.k8s.io', 'failed', 'addon stale.addons.k8s.io: ConfigMap kube-system/pinned: 409 Conflict: Operation cannot be fulfilled on configmaps "pinned": the object has been modified; please apply your changes to the latest version and try again'],
    ['good.addons.k8s.io', 'applied', undefined],
  ]);
  // A failed addon is not recorded, so the next pass tries it again.
  const recorded = Object.keys(api.store.get('namespaces', 'kube-system').metadata.annotations ?? {});
  expect(recorded).toEqual(['addons.k8s.io/good.addons.k8s.io']);
});

test('a field another manager changed is a 409 FieldManagerConflict without force; the applier forces it back, as kops does', async () => {
  const a = addon('owned.addons.k8s.io', 'e'.repeat(64));
  const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'owned', namespace: 'kube-system' }, data: { mode: 'kops' } };
  await apply([a], new Map([[a.manifest, docs(cm)]]));
  const c = await client();
  expect((await c.request('PATCH', '/api/v1/namespaces/kube-system/configmaps/owned', { query: { fieldManager: 'kubectl-edit' }, body: { data: { mode: 'edited' } }, contentType: 'application/merge-patch+json' })).status).toBe(200);
  const unforced = await c.request('PATCH', '/api/v1/namespaces/kube-system/configmaps/owned', { query: { fieldManager: 'kforge' }, body: cm, contentType: 'application/apply-patch+yaml' });
  expect(unforced).toMatchObject({ status: 409, body: { kind: 'Status', reason: 'Conflict', message: 'Apply failed with 1 conflict: conflict with "kubectl-edit" using v1: .data.mode', details: { causes: [{ reason: 'FieldManagerConflict', field: '.data.mode' }] } } });
  const [outcome] = await apply([{ ...a, manifestHash: 'f'.repeat(64) }], new Map([[a.manifest, docs(cm)]]));
  expect(outcome.action).toBe('applied');
  const now = api.store.get('configmaps', 'owned', 'kube-system');
  expect(now.data).toEqual({ mode: 'kops' });
  expect(now.metadata.managedFields.map((m: { manager: string }) => m.manager)).toEqual(['kforge']);
});

test("a channel that is not kops's format, or a broken kubeconfig, is refused with the file named and no key quoted", async () => {
  const parse = (text: string): string => {
    try {
      parseAddonChannel(text, 's3://b/c/addons/bootstrap-channel.yaml');
      return 'parsed';
    } catch (e) {
      return `${(e as { code?: string }).code}: ${(e as Error).message}`;
    }
  };
  expect(parse('kind: ConfigMap\n')).toBe('ADDON_APPLY_FAILED: s3://b/c/addons/bootstrap-channel.yaml: not an addon channel (kind Addons)');
  expect(parse('kind: Addons\nspec:\n  addons:\n  - name: x\n    manifest: ../../pki/private/x.yaml\n')).toBe('ADDON_APPLY_FAILED: s3://b/c/addons/bootstrap-channel.yaml: spec.addons[0] (x): manifest "../../pki/private/x.yaml" must be a path below the channel\'s directory');
  expect(parse('kind: Addons\nspec:\n  addons:\n  - name: x\n    manifest: x/a.yaml\n    kubernetesVersion: ">=1.20"\n')).toBe('ADDON_APPLY_FAILED: s3://b/c/addons/bootstrap-channel.yaml: spec.addons[0] (x): a bootstrap addon has no kubernetesVersion');

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kforge-addons-'));
  try {
    const store = path.join(dir, 'store', 'c');
    fs.mkdirSync(path.join(store, 'addons'), { recursive: true });
    fs.copyFileSync(path.join(FIXTURES, 'minimal-1.33', 'bootstrap_content'), path.join(store, 'addons', 'bootstrap-channel.yaml'));
    fs.mkdirSync(path.join(dir, 'root', 'var', 'lib', 'kforge'), { recursive: true });
    const key = Buffer.from(pki.admin.privateKeyPem as string).toString('base64');
    fs.writeFileSync(path.join(dir, 'root', 'var', 'lib', 'kforge', 'kubeconfig'), `users:\n- name: u\n  user:\n    client-key-data: ${key}\n    : [\n`);
    const step = applyBootstrapChannel({ vfs: openVfs(store), configBase: store, writer: new RootWriter(path.join(dir, 'root')), apiWaitMs: 100 });
    const error = await step.then(() => undefined, (e: Error & { code?: string }) => e);
    expect(error?.code).toBe('ADDON_APPLY_FAILED');
    expect(error?.message).toMatch(/^\/var\/lib\/kforge\/kubeconfig: not a usable kubeconfig \(YAML: .* at line \d+\)$/);
    expect(error?.message).not.toContain(key.slice(0, 40));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
