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
// DaemonSet and the default StorageClass are in the cluster, and a second pass writes nothing.

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
