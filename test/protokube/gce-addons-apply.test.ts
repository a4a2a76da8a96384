import * as yaml from 'js-yaml';
import { assembleAddons, renderAddons } from '../../src/model/addons/addon-channel';
import { nodeKubeconfig } from '../../src/nodeup/node-kubeconfig';
import { parseAddonChannel } from '../../src/protokube/addons/addon-channel';
import { applyAddonChannel } from '../../src/protokube/addons/apply-addon-channel';
import { KubeApiClient } from '../../src/protokube/addons/kube-api-client';
import { FakeKubeApi, startFakeKubeApi } from '../fakes/kube/fake-kube-api-server';
import { KubeTestPki, makeKubeTestPki } from '../fakes/kube/kube-test-pki';
import { completeKopsCase } from '../helpers/kops-addon-case';

// kforge's own GCE bootstrap channel (kops's minimal_gce input, rendered and assembled as `update cluster` writes it)
// applied by protokube's applier to the stateful fake API server: every addon applies, the cloud-controller-manager
// DaemonSet and the default StorageClass are in the cluster, and a second pass writes nothing. The same for ha_gce,
// whose channel carries the GCP PD CSI driver (on by default, as kops).

const CHANNEL = 'gs://bucket/minimal-gce.example.com/addons/bootstrap-channel.yaml';
let pki: KubeTestPki;
let api: FakeKubeApi;

beforeAll(async () => {
  pki = await makeKubeTestPki();
  api = await startFakeKubeApi({ ca: pki.ca, serving: pki.serving });
});
afterAll(() => api.stop());

test("kforge's minimal_gce channel applies: the GCP CCM on the control plane with its cloud config, the standard StorageClass the default", async () => {
  const { cluster, instanceGroups } = completeKopsCase('minimal_gce');
  const { files } = assembleAddons(renderAddons({ cluster, instanceGroups }));
  const addons = parseAddonChannel(files.get('bootstrap-channel.yaml') as string, 'bootstrap-channel.yaml');
  const client = () => KubeApiClient.fromKubeconfig(nodeKubeconfig('kforge', `https://localhost:${api.port}`, pki.ca.certificatePem, pki.admin), { deadline: Date.now() + 10_000, firstDelayMs: 50 });
  const run = async () => applyAddonChannel({ client: await client(), channel: CHANNEL, addons, readManifest: async (a) => files.get(a.manifest) as string, establishPollMs: 50 });

  const first = await run();
  expect(first.map((o) => [o.name, o.action, o.error])).toEqual(addons.map((a) => [a.name, 'applied', undefined]));
  const objects = addons.flatMap((a) => yaml.loadAll(files.get(a.manifest) as string).filter(Boolean));
  expect(first.reduce((n, o) => n + (o.created ?? 0), 0)).toBe(objects.length);

  const ds = api.store.get('daemonsets', 'cloud-controller-manager', 'kube-system');
  const container = ds.spec.template.spec.containers[0];
  expect(container.image).toBe('registry.k8s.io/cloud-provider-gcp/cloud-controller-manager:v35.0.0');
  expect(container.args).toEqual(expect.arrayContaining(['--cloud-provider=gce', '--cloud-config=/etc/kubernetes/cloud.config', '--cluster-name=minimal-gce-example-com']));
  expect(ds.spec.template.spec.volumes).toEqual([{ hostPath: { path: '/etc/kubernetes/cloud.config', type: '' }, name: 'cloudconfig' }]);
  const sc = api.store.get('storageclasses', 'standard');
  expect([sc.provisioner, sc.metadata.annotations['storageclass.kubernetes.io/is-default-class']]).toEqual(['kubernetes.io/gce-pd', 'true']);
  expect(api.store.get('clusterrolebindings', 'system:controller:cloud-node-controller').subjects).toEqual([{ kind: 'ServiceAccount', name: 'cloud-node-controller', namespace: 'kube-system' }]);

  api.resetRequests();
  const second = await run();
  expect(second.every((o) => o.action === 'unchanged')).toBe(true);
  expect(api.requests.filter((r) => r.method !== 'GET')).toEqual([]);
});

test("kforge's ha_gce channel applies with the PD CSI driver (kops's default): its namespace, controller, node plugin and CSIDriver, balanced-csi the default class", async () => {
  // A cluster of its own: a fresh API server.
  const own = await startFakeKubeApi({ ca: pki.ca, serving: pki.serving });
  try {
    await applyHaGce(own);
  } finally {
    await own.stop();
  }
});

/** Applies kforge's ha_gce channel to `server` twice and checks what the first pass created and that the second writes nothing. */
async function applyHaGce(server: FakeKubeApi): Promise<void> {
  const { cluster, instanceGroups } = completeKopsCase('ha_gce');
  const { files } = assembleAddons(renderAddons({ cluster, instanceGroups }));
  const addons = parseAddonChannel(files.get('bootstrap-channel.yaml') as string, 'bootstrap-channel.yaml');
  expect(addons.map((a) => a.name)).toContain('gcp-pd-csi-driver.addons.k8s.io');
  const client = () => KubeApiClient.fromKubeconfig(nodeKubeconfig('kforge', `https://localhost:${server.port}`, pki.ca.certificatePem, pki.admin), { deadline: Date.now() + 10_000, firstDelayMs: 50 });
  const run = async () => applyAddonChannel({ client: await client(), channel: CHANNEL.replace('minimal-gce', 'ha-gce'), addons, readManifest: async (a) => files.get(a.manifest) as string, establishPollMs: 50 });

  const first = await run();
  expect(first.map((o) => [o.name, o.action, o.error])).toEqual(addons.map((a) => [a.name, 'applied', undefined]));
  expect(server.store.get('namespaces', 'gce-pd-csi-driver').metadata.name).toBe('gce-pd-csi-driver');
  const controller = server.store.get('deployments', 'csi-gce-pd-controller', 'gce-pd-csi-driver');
  expect(controller.spec.template.spec.containers.map((c: { name: string }) => c.name)).toEqual(['csi-provisioner', 'csi-attacher', 'csi-resizer', 'csi-snapshotter', 'gce-pd-driver']);
  expect(server.store.get('daemonsets', 'csi-gce-pd-node', 'gce-pd-csi-driver').spec.template.spec.priorityClassName).toBe('csi-gce-pd-node');
  expect(server.store.get('csidrivers', 'pd.csi.storage.gke.io').spec).toEqual({ attachRequired: true, podInfoOnMount: false });
  const isDefault = (name: string) => server.store.get('storageclasses', name).metadata.annotations?.['storageclass.kubernetes.io/is-default-class'];
  expect([isDefault('balanced-csi'), server.store.get('storageclasses', 'balanced-csi').provisioner]).toEqual(['true', 'pd.csi.storage.gke.io']);
  expect(isDefault('standard')).toBeUndefined();

  server.resetRequests();
  const second = await run();
  expect(second.every((o) => o.action === 'unchanged')).toBe(true);
  expect(server.requests.filter((r) => r.method !== 'GET')).toEqual([]);
}
