import * as fs from 'node:fs';
import * as path from 'node:path';
import * as yaml from 'js-yaml';
import type { Cluster } from '../../../src/api/types';
import { knownKubernetesVersions } from '../../../src/expand/assets/asset-catalog';
import { flagVerdict } from '../../../src/flags/flag-support';
import type { KubeObject } from '../../../src/model/addons/addon';
import { assembleAddons, type ChannelEntry, renderAddons } from '../../../src/model/addons/addon-channel';
import { buildNodeupConfig } from '../../../src/model/nodeup-config-builder';
import { completeKopsCase, KOPS_ADDONS } from '../../helpers/kops-addon-case';

/**
 * The GCE addons against kops's minimal_gce (test/fixtures/kops-addons/minimal_gce, kops commit in SOURCE.md):
 * the gcp-cloud-controller and storage-gce manifests object for object and field for field, as kops's channel
 * builder wrote them (labels included), the channel's entries, the cloud fields of the completed spec and the
 * cloud-config options of the nodeup configs. Nothing is normalised: kforge's image pin is kops's.
 */
const CASE = 'minimal_gce';
const dir = path.join(KOPS_ADDONS, CASE);
const read = (file: string): string => fs.readFileSync(path.join(dir, file), 'utf8');
const objects = (text: string): KubeObject[] => yaml.loadAll(text).filter((o): o is KubeObject => typeof o === 'object' && o !== null);

function render(edit?: (c: Cluster) => void) {
  const { cluster, instanceGroups } = completeKopsCase(CASE, edit);
  return { cluster, instanceGroups, assembled: assembleAddons(renderAddons({ cluster, instanceGroups })) };
}

function ccmArgs(assembled: ReturnType<typeof assembleAddons>): string[] {
  const ds = objects(assembled.files.get('gcp-cloud-controller.addons.k8s.io/k8s-1.23.yaml') as string).find((o) => o.kind === 'DaemonSet') as unknown as {
    spec: { template: { spec: { containers: Array<{ args: string[] }> } } };
  };
  return ds.spec.template.spec.containers[0].args;
}

describe("the GCE addons against kops's minimal_gce", () => {
  const { cluster, instanceGroups, assembled } = render();

  it.each([
    ['gcp-cloud-controller.addons.k8s.io/k8s-1.23.yaml', 'gcp-cloud-controller.addons.k8s.io-k8s-1.23_content'],
    ['storage-gce.addons.k8s.io/v1.7.0.yaml', 'storage-gce.addons.k8s.io-v1.7.0_content'],
  ])('%s equals kops\'s manifest, object for object', (file, kops) => {
    expect(objects(assembled.files.get(file) as string)).toEqual(objects(read(kops)));
  });

  it("lists kops's GCE addons in kops's order, with kops's entries (without kops-controller and dns-controller, by design)", () => {
    const kops = (yaml.load(read('bootstrap_content')) as { spec: { addons: ChannelEntry[] } }).spec.addons;
    const fields = (e: ChannelEntry) => ({ ...e, manifestHash: undefined });
    const ours = assembled.channel.spec.addons.filter((e) => e.name !== 'node-bootstrap.rbac.addons.kforge.io');
    const theirs = kops.filter((e) => e.name !== 'kops-controller.addons.k8s.io' && e.name !== 'dns-controller.addons.k8s.io');
    expect(ours.map(fields)).toEqual(theirs.map(fields));
    expect(ours.map((e) => e.name)).toEqual(['coredns.addons.k8s.io', 'kubelet-api.rbac.addons.k8s.io', 'limit-range.addons.k8s.io', 'storage-gce.addons.k8s.io', 'gcp-cloud-controller.addons.k8s.io']);
  });

  it("derives kops's cloud fields of the completed spec", () => {
    const kops = (yaml.load(read('aws_s3_object_cluster-completed.spec_content')) as Cluster).spec;
    const pick = (s: Cluster['spec']) => ({
      cloudControllerManager: s.cloudControllerManager,
      cloudConfig: s.cloudConfig,
      kcm: { cloudProvider: s.kubeControllerManager?.cloudProvider, configureCloudRoutes: s.kubeControllerManager?.configureCloudRoutes, allocateNodeCIDRs: s.kubeControllerManager?.allocateNodeCIDRs },
      kubelet: s.kubelet?.cloudProvider,
      masterKubelet: s.masterKubelet?.cloudProvider,
    });
    expect(JSON.parse(JSON.stringify(pick(cluster.spec)))).toEqual(JSON.parse(JSON.stringify(pick(kops))));
  });

  it.each([
    ['master-us-test1-a', 'aws_s3_object_nodeupconfig-master-us-test1-a_content'],
    ['nodes', 'aws_s3_object_nodeupconfig-nodes_content'],
  ])("gives the %s nodeup config kops's cloud-config options", (group, kops) => {
    const theirs = yaml.load(read(kops)) as Record<string, unknown>;
    const ig = instanceGroups.find((g) => g.metadata.name === group);
    const ours = buildNodeupConfig(cluster, ig!) as unknown as Record<string, unknown>;
    const options = (c: Record<string, unknown>) => ({ multizone: c.multizone, nodeTags: c.nodeTags, nodeInstancePrefix: c.nodeInstancePrefix });
    expect(options(ours)).toEqual(options(theirs));
    expect(options(ours)).toEqual({ multizone: true, nodeTags: 'minimal-gce-example-com-k8s-io-role-node', nodeInstancePrefix: undefined });
  });

  it.each(knownKubernetesVersions())('renders only flags the cloud-controller-manager accepts at Kubernetes %s', (version) => {
    const args = ccmArgs(render((c) => (c.spec.kubernetesVersion = version)).assembled);
    expect(args.map((a) => flagVerdict('cloud-controller-manager', a, version)).filter((v) => !v.accepted)).toEqual([]);
  });
});

describe("the GCE addons against kops's ha_gce (three control planes, kops's PD CSI driver on by default)", () => {
  const { cluster, instanceGroups } = completeKopsCase('ha_gce');
  const { files } = assembleAddons(renderAddons({ cluster, instanceGroups }));
  const kops = (file: string) => objects(fs.readFileSync(path.join(KOPS_ADDONS, 'ha_gce', file), 'utf8'));

  it("renders kops's gcp-cloud-controller manifest, object for object", () => {
    expect(objects(files.get('gcp-cloud-controller.addons.k8s.io/k8s-1.23.yaml') as string)).toEqual(kops('gcp-cloud-controller.addons.k8s.io-k8s-1.23_content'));
  });

  it("renders kops's storage-gce manifest: standard is not the default class, the PD CSI driver's balanced-csi is", () => {
    expect(objects(files.get('storage-gce.addons.k8s.io/v1.7.0.yaml') as string)).toEqual(kops('storage-gce.addons.k8s.io-v1.7.0_content'));
  });
});

describe('gcp-cloud-controller and storage-gce settings', () => {
  it('takes the settings the spec gives, and leaves cloud routes to the CCM with a CNI (kops sets them only for IP aliases)', () => {
    const { assembled } = render((c) => {
      c.spec.cloudControllerManager = { logLevel: 4, concurrentNodeSyncs: 5, useServiceAccountCredentials: false, controllers: ['*', '-route-controller'] };
      c.spec.networking = { cilium: {} };
    });
    const args = ccmArgs(assembled);
    expect(args).toEqual(expect.arrayContaining(['--v=4', '--concurrent-node-syncs=5', '--use-service-account-credentials=false', '--controllers=*,-route-controller']));
    expect(args.filter((a) => a.startsWith('--configure-cloud-routes'))).toEqual([]);
    expect(args).not.toContain('--v=2');
    expect(args.filter((a) => a.startsWith('--use-service-account-credentials'))).toHaveLength(1);
  });

  it('keeps the storage class out with manageStorageClasses: false', () => {
    const { assembled } = render((c) => (c.spec.cloudConfig = { ...c.spec.cloudConfig, manageStorageClasses: false }));
    expect(assembled.channel.spec.addons.map((e) => e.name)).not.toContain('storage-gce.addons.k8s.io');
    expect(assembled.channel.spec.addons.map((e) => e.name)).toContain('gcp-cloud-controller.addons.k8s.io');
  });

  it('keeps the multizone and nodeTags the user sets', () => {
    const { cluster } = render((c) => (c.spec.cloudConfig = { ...c.spec.cloudConfig, multizone: false, nodeTags: 'my-workers', nodeInstancePrefix: 'gke-x' }));
    expect(cluster.spec.cloudConfig).toMatchObject({ multizone: false, nodeTags: 'my-workers', nodeInstancePrefix: 'gke-x' });
  });
});
