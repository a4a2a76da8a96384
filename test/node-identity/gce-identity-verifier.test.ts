import { GceInstanceTemplateTask } from '../../src/cloud/gce/tasks/gce-instance-template-task';
import { newCluster } from '../../src/create/new-cluster';
import { buildGceTasks } from '../../src/model/gce/gce-model-builder';
import { completeCluster } from '../../src/ops/expand-cluster';
import { fetchGceIdentityToken, GCE_TOKEN_PREFIX } from '../../src/node-identity/gce-identity-token';
import { GceIdentityVerifier } from '../../src/node-identity/gce-identity-verifier';
import { gceInstanceFacts } from '../../src/node-identity/gce-instance-facts';
import { IdentityDenied } from '../../src/node-identity/identity-denied';
import { FakeCompute, startFakeCompute } from '../fakes/gce/compute-fake';
import { FakeGceMetadata, startFakeGceMetadata } from '../fakes/gce/fake-gce-metadata';
import { fakeGoogleSigner, FakeGoogleJwks, FakeGoogleSigner, signIdentityToken, startFakeGoogleJwks } from '../fakes/gce/fake-google-identity';

// The GCE verifier against the fake metadata server (which signs instance identity tokens as Google does,
// with a test key), a fake of Google's JWKS endpoint serving that key, and the fake Compute API holding the
// instances, labelled and annotated from the model's own instance templates. Each refusal has its reason.

const CLUSTER = 'g.example.com';
const PROJECT = 'kforge-test';
const ZONE = 'us-central1-a';
const AUDIENCE = `https://kops-controller.internal.${CLUSTER}:3988`;
jest.setTimeout(60_000);

let compute: FakeCompute;
let jwks: FakeGoogleJwks;
let google: FakeGoogleSigner;
let controlPlaneMetadata: FakeGceMetadata;
let verifier: GceIdentityVerifier;
const stops: Array<() => Promise<void>> = [];
// Instance template labels and metadata by group, as the model makes them.
let templates: Map<string, { labels: Record<string, string>; metadata: Record<string, string> }>;
let nextId = 7000000000000000001n;

beforeAll(async () => {
  compute = await startFakeCompute();
  google = fakeGoogleSigner();
  jwks = await startFakeGoogleJwks([google]);
  controlPlaneMetadata = await startFakeGceMetadata({ id: '1', name: 'cp', zone: ZONE, internalIp: '10.0.16.2', attributes: {}, serviceAccountEmail: `cp@${PROJECT}.iam.gserviceaccount.com`, scopes: [] }, { id: PROJECT, numericId: '123456789' });
  const made = newCluster({ name: CLUSTER, zones: [ZONE], cloud: 'gce', project: PROJECT });
  const completed = completeCluster(made.cluster, made.instanceGroups, 'memfs://t');
  templates = new Map(
    buildGceTasks(completed, made.instanceGroups)
      .filter((t): t is GceInstanceTemplateTask => t instanceof GceInstanceTemplateTask)
      .map((t) => [t.desired.labels['k8s-io-instance-group'], { labels: t.desired.labels, metadata: t.desired.metadata }]),
  );
  verifier = new GceIdentityVerifier({
    clusterName: CLUSTER,
    project: PROJECT,
    audience: AUDIENCE,
    jwksUrl: jwks.url,
    workerGroups: made.instanceGroups.filter((g) => g.spec.role === 'Node').map((g) => g.metadata.name),
    getInstance: gceInstanceFacts(PROJECT, { GCE_METADATA_HOST: controlPlaneMetadata.host, CLOUDSDK_API_ENDPOINT_OVERRIDES_COMPUTE: `${compute.endpoint}/compute/v1/` }),
  });
});

afterAll(async () => {
  for (const stop of stops) await stop();
  await controlPlaneMetadata?.stop();
  await jwks?.stop();
  await compute?.stop();
});

/** An instance in the fake Compute API made from a group's template (labels, metadata), with GCE's own id. */
function addInstance(name: string, group: string, change: { status?: string; labels?: Record<string, string>; metadata?: Record<string, string> } = {}): string {
  const t = templates.get(group);
  if (!t) throw new Error(`no template for group ${group} (${[...templates.keys()].join(', ')})`);
  const metadata = { ...t.metadata, ...change.metadata };
  const inst = compute.store.insert(`projects/${PROJECT}/zones/${ZONE}/instances`, 'Instance', {
    name,
    status: change.status ?? 'RUNNING',
    labels: { ...t.labels, ...change.labels },
    metadata: { items: Object.entries(metadata).map(([key, value]) => ({ key, value })) },
  });
  inst.id = String(nextId++);
  return inst.id as string;
}

/** The metadata server of one VM, which signs its identity tokens with `signer` (Google's key unless a test says). */
async function vm(name: string, id: string, options: { project?: string; signer?: FakeGoogleSigner } = {}): Promise<FakeGceMetadata> {
  const m = await startFakeGceMetadata({ id, name, zone: ZONE, internalIp: '10.0.16.9', attributes: {}, serviceAccountEmail: `node@${PROJECT}.iam.gserviceaccount.com`, scopes: [] }, { id: options.project ?? PROJECT, numericId: '123456789' }, { signer: options.signer ?? google });
  stops.push(() => m.stop());
  return m;
}

async function tokenOf(m: FakeGceMetadata, audience = AUDIENCE): Promise<string> {
  return GCE_TOKEN_PREFIX + (await fetchGceIdentityToken(audience, { GCE_METADATA_HOST: m.host }));
}

/** The reason a token is refused (fails the test if it is accepted). */
async function refusal(authorization: string | undefined): Promise<{ reason: string; status: number }> {
  try {
    const node = await verifier.verify(authorization);
    throw new Error(`accepted: ${JSON.stringify(node)}`);
  } catch (e) {
    if (!(e instanceof IdentityDenied)) throw e;
    return { reason: e.reason, status: e.status };
  }
}

const compute_ = (name: string, id: string, project = PROJECT) => ({ project_id: project, project_number: 123456789, zone: ZONE, instance_id: id, instance_name: name, instance_creation_timestamp: 1767225600 });

test('a running worker of the cluster, with its token from the metadata server, is accepted as its instance name', async () => {
  const id = addInstance('nodes-us-central1-a-x1b2', 'nodes-us-central1-a');
  const m = await vm('nodes-us-central1-a-x1b2', id);
  const token = await tokenOf(m);
  expect(m.requests).toContain(`GET /computeMetadata/v1/instance/service-accounts/default/identity?audience=${encodeURIComponent(AUDIENCE)}&format=full`);
  expect(await verifier.verify(token)).toEqual({ instanceId: id, instanceGroup: 'nodes-us-central1-a', role: `node@${PROJECT}.iam.gserviceaccount.com`, nodeName: 'nodes-us-central1-a-x1b2' });
  expect(compute.requests.some((r) => r.method === 'GET' && r.path === `/compute/v1/projects/${PROJECT}/zones/${ZONE}/instances/nodes-us-central1-a-x1b2`)).toBe(true);
});

test('the metadata server refuses an identity request without an audience, and the node reports it', async () => {
  const m = await vm('any', '1');
  const res = await fetch(`${m.endpoint}/computeMetadata/v1/instance/service-accounts/default/identity`, { headers: { 'Metadata-Flavor': 'Google' } });
  expect(res.status).toBe(400);
  await expect(fetchGceIdentityToken('', { GCE_METADATA_HOST: m.host })).rejects.toMatchObject({ code: 'NODE_IDENTITY_FAILED' });
});

test('a token signed by another key under Google\'s kid is refused: bad signature', async () => {
  const id = addInstance('nodes-us-central1-a-sig1', 'nodes-us-central1-a');
  const forger = { ...fakeGoogleSigner(), kid: google.kid };
  const m = await vm('nodes-us-central1-a-sig1', id, { signer: forger });
  expect(await refusal(await tokenOf(m))).toEqual({ status: 403, reason: expect.stringContaining('signature is not Google') });
});

test('a token whose kid is not in Google\'s JWKS is refused', async () => {
  const id = addInstance('nodes-us-central1-a-kid1', 'nodes-us-central1-a');
  const m = await vm('nodes-us-central1-a-kid1', id, { signer: fakeGoogleSigner() });
  const before = jwks.fetches;
  expect(await refusal(await tokenOf(m))).toEqual({ status: 403, reason: expect.stringContaining('kid is not one of Google') });
  // An unknown kid makes the verifier read the keys again at most once (Google rotates them), not per request.
  await refusal(await tokenOf(m));
  expect(jwks.fetches - before).toBeLessThanOrEqual(1);
});

test('a token for another audience is refused', async () => {
  const id = addInstance('nodes-us-central1-a-aud1', 'nodes-us-central1-a');
  const m = await vm('nodes-us-central1-a-aud1', id);
  expect(await refusal(await tokenOf(m, 'https://kops-controller.internal.other.example.com:3988'))).toEqual({ status: 403, reason: expect.stringMatching(/aud claim/) });
});

test('a token from another issuer is refused', async () => {
  const id = addInstance('nodes-us-central1-a-iss1', 'nodes-us-central1-a');
  const token = signIdentityToken(google, { aud: AUDIENCE, iss: 'https://issuer.example.com', compute: compute_('nodes-us-central1-a-iss1', id) });
  expect(await refusal(GCE_TOKEN_PREFIX + token)).toEqual({ status: 403, reason: expect.stringMatching(/iss claim/) });
});

test('an expired token is refused; one a few seconds past exp passes within the skew', async () => {
  const id = addInstance('nodes-us-central1-a-exp1', 'nodes-us-central1-a');
  const now = Math.floor(Date.now() / 1000);
  const expired = signIdentityToken(google, { aud: AUDIENCE, iat: now - 7200, exp: now - 3600, compute: compute_('nodes-us-central1-a-exp1', id) });
  expect(await refusal(GCE_TOKEN_PREFIX + expired)).toEqual({ status: 403, reason: expect.stringContaining('expired') });
  const justPast = signIdentityToken(google, { aud: AUDIENCE, iat: now - 3610, exp: now - 10, compute: compute_('nodes-us-central1-a-exp1', id) });
  expect((await verifier.verify(GCE_TOKEN_PREFIX + justPast)).nodeName).toBe('nodes-us-central1-a-exp1');
});

test('an instance of another project is refused', async () => {
  const m = await vm('nodes-us-central1-a-prj1', '42', { project: 'someone-elses' });
  expect(await refusal(await tokenOf(m))).toEqual({ status: 403, reason: expect.stringContaining(`in project someone-elses, not the cluster's ${PROJECT}`) });
});

test('a token without the compute_engine claims (format=standard) is refused', async () => {
  const token = signIdentityToken(google, { aud: AUDIENCE });
  expect(await refusal(GCE_TOKEN_PREFIX + token)).toEqual({ status: 403, reason: expect.stringContaining('format=full') });
});

test('an instance that does not exist is refused', async () => {
  const m = await vm('nodes-us-central1-a-gone', '77');
  expect(await refusal(await tokenOf(m))).toEqual({ status: 403, reason: expect.stringContaining('does not exist') });
});

test('an instance that is not RUNNING is refused', async () => {
  const id = addInstance('nodes-us-central1-a-stop', 'nodes-us-central1-a', { status: 'STOPPING' });
  const m = await vm('nodes-us-central1-a-stop', id);
  expect(await refusal(await tokenOf(m))).toEqual({ status: 403, reason: expect.stringContaining('is STOPPING, not RUNNING') });
});

test('an instance whose id differs from the token\'s (the name was reused) is refused', async () => {
  addInstance('nodes-us-central1-a-reus', 'nodes-us-central1-a');
  const m = await vm('nodes-us-central1-a-reus', '5550001');
  expect(await refusal(await tokenOf(m))).toEqual({ status: 403, reason: expect.stringContaining('now has id') });
});

test('an instance of another cluster is refused', async () => {
  const id = addInstance('nodes-other-1', 'nodes-us-central1-a', { labels: { 'k8s-io-cluster-name': 'other-example-com' }, metadata: { 'cluster-name': 'other.example.com' } });
  const m = await vm('nodes-other-1', id);
  expect(await refusal(await tokenOf(m))).toEqual({ status: 403, reason: expect.stringContaining(`not labelled with cluster ${CLUSTER}`) });
  // Metadata alone saying this cluster is not enough: the label must too.
  const id2 = addInstance('nodes-other-2', 'nodes-us-central1-a', { labels: { 'k8s-io-cluster-name': 'other-example-com' } });
  expect(await refusal(await tokenOf(await vm('nodes-other-2', id2)))).toEqual({ status: 403, reason: expect.stringContaining('not labelled with cluster') });
});

test('a control-plane instance is refused', async () => {
  const group = [...templates.keys()].find((g) => g.startsWith('control-plane'))!;
  const id = addInstance('control-plane-us-central1-a-cp01', group);
  const m = await vm('control-plane-us-central1-a-cp01', id);
  expect(await refusal(await tokenOf(m))).toEqual({ status: 403, reason: expect.stringContaining('is a control-plane instance') });
});

test('an instance whose group is not a worker group of the cluster, or whose label and metadata disagree, is refused', async () => {
  const id = addInstance('nodes-ghost-1', 'nodes-us-central1-a', { labels: { 'k8s-io-instance-group': 'ghost' }, metadata: { 'kops-k8s-io-instance-group-name': 'ghost' } });
  expect(await refusal(await tokenOf(await vm('nodes-ghost-1', id)))).toEqual({ status: 403, reason: expect.stringContaining('is in group ghost, not a worker group') });
  const id2 = addInstance('nodes-ghost-2', 'nodes-us-central1-a', { metadata: { 'kops-k8s-io-instance-group-name': 'ghost' } });
  expect(await refusal(await tokenOf(await vm('nodes-ghost-2', id2)))).toEqual({ status: 403, reason: expect.stringContaining('do not name one group') });
});

test('no token, another scheme, and a token that is not a JWT are refused', async () => {
  expect((await refusal(undefined)).reason).toContain('no GCE identity token');
  expect((await refusal('Bearer abc')).reason).toContain('no GCE identity token');
  expect((await refusal(`${GCE_TOKEN_PREFIX}not-a-jwt`)).reason).toContain('not a JWT');
});

test("Google's keys or Compute out of reach is the service's failure (503: the node may retry), not a refusal of the node", async () => {
  const id = addInstance('nodes-us-central1-a-503a', 'nodes-us-central1-a');
  const token = await tokenOf(await vm('nodes-us-central1-a-503a', id));
  const options = { clusterName: CLUSTER, project: PROJECT, audience: AUDIENCE, workerGroups: ['nodes-us-central1-a'] };
  // A closed port for the JWKS.
  const noKeys = new GceIdentityVerifier({ ...options, jwksUrl: 'http://127.0.0.1:9/oauth2/v3/certs', getInstance: () => Promise.resolve(undefined) });
  await expect(noKeys.verify(token)).rejects.toMatchObject({ status: 503, reason: expect.stringContaining("Google's keys could not be read") });
  // A Compute API that cannot be reached.
  const noCompute = new GceIdentityVerifier({ ...options, jwksUrl: jwks.url, getInstance: gceInstanceFacts(PROJECT, { GCE_METADATA_HOST: controlPlaneMetadata.host, CLOUDSDK_API_ENDPOINT_OVERRIDES_COMPUTE: 'http://127.0.0.1:9/compute/v1/' }) });
  await expect(noCompute.verify(token)).rejects.toMatchObject({ status: 503, reason: expect.stringContaining('instances.get failed') });
});
