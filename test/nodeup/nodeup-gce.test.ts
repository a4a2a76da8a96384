import * as fs from 'node:fs';
import * as path from 'node:path';
import { newCluster } from '../../src/create/new-cluster';
import { saveCluster } from '../../src/ops/save-cluster';
import { planManagedFiles, writeManagedFiles } from '../../src/ops/plan-managed-files';
import { GcsVfs } from '../../src/state/vfs/gcs-vfs';
import { listFiles, runCliAsync, tempDir } from '../helpers/cli';
import { FakeGcs, startFakeGcs } from '../fakes/fake-gcs-server';
import { FakeGceMetadata, startFakeGceMetadata } from '../fakes/gce/fake-gce-metadata';
import { splitStages, STATUS_FILE } from './stage-lines';

// nodeup on GCE, the real command: the boot script's kube_env.yaml says CloudProvider gce; nodeup reads the
// instance's identity from the (fake) metadata server, checks that the instance template's attributes name
// the boot config's cluster and group, and reads the group's config and keysets from the (fake) GCS state
// store with the service account's token from the metadata server: the fake GCS refuses any other bearer.
// The CLI runs asynchronously: the fakes answer from this process.

const BUCKET = 'kforge-nodeup-gce';
const NAME = 'gcenode.example.com';
const PROJECT = 'kforge-test';
let gcs: FakeGcs;
let metadata: FakeGceMetadata;
let hashes: Record<string, string>;
let work: string;

beforeAll(async () => {
  gcs = await startFakeGcs();
  metadata = await startFakeGceMetadata(
    {
      id: '4242424242424242424',
      name: 'nodes-us-central1-a-x7k2',
      zone: 'us-central1-a',
      internalIp: '10.0.16.7',
      attributes: { 'cluster-name': NAME, 'kops-k8s-io-instance-group-name': 'nodes-us-central1-a' },
      serviceAccountEmail: `node-gcenode-example-com@${PROJECT}.iam.gserviceaccount.com`,
      scopes: ['https://www.googleapis.com/auth/devstorage.read_only'],
    },
    { id: PROJECT, numericId: '123456789012' },
  );
  const vfs = new GcsVfs(`gs://${BUCKET}`, { STORAGE_EMULATOR_HOST: gcs.endpoint, GOOGLE_CLOUD_PROJECT: PROJECT });
  await vfs.createStore();
  const planned = newCluster({ name: NAME, zones: ['us-central1-a'], cloud: 'gce' });
  planned.cluster.spec.project = PROJECT;
  // No DNS and no API load balancer: the workers have no way to the node-identity service and keep reading the
  // store (src/model/config-server.ts); the ConfigServer path is test/node-identity/gce-nodeup-node-identity.test.ts.
  delete (planned.cluster.spec.api as Record<string, unknown>).loadBalancer;
  await saveCluster(vfs, { cluster: planned.cluster, instanceGroups: planned.instanceGroups });
  const plan = await planManagedFiles(vfs, NAME);
  await writeManagedFiles(vfs, plan);
  hashes = plan.nodeupConfigHashes;
  // From here on, as on GCE: only tokens the metadata server issued are accepted.
  gcs.requireBearer((t) => metadata.issued(t));
  work = tempDir('kforge-nodeup-gce-');
});

afterAll(async () => {
  await metadata?.stop();
  await gcs?.stop();
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

// METADATA_SERVER_DETECTION empty, as on a node (this process's GcsVfs set it to bios-only).
const env = (): NodeJS.ProcessEnv => ({ GCE_METADATA_HOST: metadata.host, STORAGE_EMULATOR_HOST: gcs.endpoint, METADATA_SERVER_DETECTION: '' });

/** A kube_env.yaml as the GCE boot script writes it. */
function bootConfig(group: string, role: string, hash: string): string {
  const file = path.join(work, `${group}-${hash.slice(0, 8)}.yaml`);
  fs.writeFileSync(file, [`CloudProvider: gce`, `ClusterName: ${NAME}`, `ConfigBase: gs://${BUCKET}/${NAME}`, `InstanceGroupName: ${group}`, `InstanceGroupRole: ${role}`, `NodeupConfigHash: ${hash}`, ''].join('\n'));
  return file;
}

it('serves the metadata paths as GCE does: the flavor header, redirects, 404s', async () => {
  const base = `${metadata.endpoint}/computeMetadata/v1`;
  expect((await fetch(`${base}/instance/name`)).status).toBe(403);
  expect((await fetch(`${base}/instance/name`, { headers: { 'Metadata-Flavor': 'Google', 'X-Forwarded-For': '1.2.3.4' } })).status).toBe(403);
  const name = await fetch(`${base}/instance/name`, { headers: { 'Metadata-Flavor': 'Google' } });
  expect([name.status, name.headers.get('metadata-flavor'), await name.text()]).toEqual([200, 'Google', 'nodes-us-central1-a-x7k2']);
  expect(await (await fetch(`${base}/instance/zone`, { headers: { 'Metadata-Flavor': 'Google' } })).text()).toBe('projects/123456789012/zones/us-central1-a');
  const dir = await fetch(`${base}/instance/attributes`, { headers: { 'Metadata-Flavor': 'Google' }, redirect: 'manual' });
  expect([dir.status, dir.headers.get('location')]).toEqual([301, '/computeMetadata/v1/instance/attributes/']);
  expect(await (await fetch(`${base}/instance/attributes/`, { headers: { 'Metadata-Flavor': 'Google' } })).text()).toBe('cluster-name\nkops-k8s-io-instance-group-name\n');
  expect((await fetch(`${base}/instance/attributes/startup-script`, { headers: { 'Metadata-Flavor': 'Google' } })).status).toBe(404);
  const token = (await (await fetch(`${base}/instance/service-accounts/default/token`, { headers: { 'Metadata-Flavor': 'Google' } })).json()) as Record<string, unknown>;
  expect(token).toEqual({ access_token: expect.stringMatching(/^ya29\./), expires_in: 3599, token_type: 'Bearer' });
  expect(metadata.issued(token.access_token as string)).toBe(true);
});

it('reads the identity from the metadata server and the store with its token, and writes the node', async () => {
  const root = path.join(work, 'node-root');
  const r = await runCliAsync(['nodeup', '--conf', bootConfig('nodes-us-central1-a', 'Node', hashes['nodes-us-central1-a']), '--root', root, '-o', 'json'], env());
  expect(splitStages(r).stderr).toBe('');
  expect(r.status).toBe(0);
  const summary = JSON.parse(r.stdout) as { node: unknown; created: number };
  // The node name kops uses on GCE: the hostname, i.e. the instance name.
  expect(summary.node).toEqual({ name: 'nodes-us-central1-a-x7k2', zone: 'us-central1-a', project: PROJECT, internalIp: '10.0.16.7' });
  expect(summary.created).toBeGreaterThan(0);
  expect(listFiles(root)).toEqual(expect.arrayContaining(['etc/systemd/system/kubelet.service']));
  // Only the control plane runs the cloud-controller-manager, which reads the cloud config (kops writes it there only).
  expect(listFiles(root)).not.toContain('etc/kubernetes/cloud.config');
  expect(metadata.requests).toContain('GET /computeMetadata/v1/instance/service-accounts/default/token');
  expect(metadata.requests).toContain('GET /computeMetadata/v1/instance/attributes/kops-k8s-io-instance-group-name');
});

it('refuses a boot config for another group than the instance template says, and installs nothing', async () => {
  const root = path.join(work, 'other-root');
  const r = await runCliAsync(['nodeup', '--conf', bootConfig('control-plane-us-central1-a', 'ControlPlane', hashes['control-plane-us-central1-a']), '--root', root], env());
  expect(r.status).not.toBe(0);
  expect(splitStages(r).stages).toEqual(['failed: INVALID_NODEUP_CONFIG']);
  expect(r.stderr).toMatch(/belongs to instance group nodes-us-central1-a of cluster gcenode\.example\.com/);
  expect(listFiles(root)).toEqual([STATUS_FILE]);
});

it('says the metadata server cannot be reached off GCE, and installs nothing', async () => {
  const root = path.join(work, 'offgce-root');
  const r = await runCliAsync(['nodeup', '--conf', bootConfig('nodes-us-central1-a', 'Node', hashes['nodes-us-central1-a']), '--root', root], { ...env(), GCE_METADATA_HOST: '127.0.0.1:1' });
  expect(r.status).not.toBe(0);
  expect(splitStages(r).stages).toEqual(['failed: GCE_METADATA_ERROR']);
  expect(r.stderr).toMatch(/cannot reach the GCE metadata server at http:\/\/127\.0\.0\.1:1/);
  expect(r.stderr).not.toMatch(/\n\s+at /);
  expect(listFiles(root)).toEqual([STATUS_FILE]);
});

it("writes kops's /etc/kubernetes/cloud.config on a control-plane machine, for the GCP cloud-controller-manager", async () => {
  const cpMetadata = await startFakeGceMetadata(
    {
      id: '4242424242424242425',
      name: 'control-plane-us-central1-a-9wq4',
      zone: 'us-central1-a',
      internalIp: '10.0.16.2',
      attributes: { 'cluster-name': NAME, 'kops-k8s-io-instance-group-name': 'control-plane-us-central1-a' },
      serviceAccountEmail: `control-plane-gcenode-example-com@${PROJECT}.iam.gserviceaccount.com`,
      scopes: ['https://www.googleapis.com/auth/devstorage.read_write'],
    },
    { id: PROJECT, numericId: '123456789012' },
  );
  gcs.requireBearer((t) => metadata.issued(t) || cpMetadata.issued(t));
  try {
    const root = path.join(work, 'cp-root');
    const r = await runCliAsync(['nodeup', '--conf', bootConfig('control-plane-us-central1-a', 'ControlPlane', hashes['control-plane-us-central1-a']), '--root', root], {
      ...env(),
      GCE_METADATA_HOST: cpMetadata.host,
    });
    expect(splitStages(r).stderr).toBe('');
    expect(r.status).toBe(0);
    expect(fs.readFileSync(path.join(root, 'etc/kubernetes/cloud.config'), 'utf8')).toBe('[global]\nnode-tags = gcenode-example-com-k8s-io-role-node\nmultizone = true\n');
  } finally {
    await cpMetadata.stop();
  }
});
