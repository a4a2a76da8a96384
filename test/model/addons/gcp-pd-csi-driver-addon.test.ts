import * as fs from 'node:fs';
import * as path from 'node:path';
import * as yaml from 'js-yaml';
import type { Cluster } from '../../../src/api/types';
import type { KubeObject } from '../../../src/model/addons/addon';
import { assembleAddons, type ChannelEntry, renderAddons } from '../../../src/model/addons/addon-channel';
import { completeKopsCase, KOPS_ADDONS } from '../../helpers/kops-addon-case';

/**
 * The GCP PD CSI driver against kops (test/fixtures/kops-addons, kops commit in SOURCE.md): kops renders
 * `gcp-pd-csi-driver.addons.k8s.io` k8s-1.23 on GCE by default (ha_gce, many-addons-gce) and not with
 * `cloudConfig.gcpPDCSIDriver.enabled: false` (minimal_gce). The manifests are compared object for object and field
 * for field, labels included; nothing is normalised (kforge's image pins are kops's).
 */
const FILE = 'gcp-pd-csi-driver.addons.k8s.io/k8s-1.23.yaml';
const KOPS_FILE = 'gcp-pd-csi-driver.addons.k8s.io-k8s-1.23_content';
const PD_CSI = 'pd.csi.storage.gke.io';
const objects = (text: string): KubeObject[] => yaml.loadAll(text).filter((o): o is KubeObject => typeof o === 'object' && o !== null);
const kopsFile = (c: string, file: string): string => fs.readFileSync(path.join(KOPS_ADDONS, c, file), 'utf8');

function render(c: string, edit?: (cluster: Cluster) => void) {
  const { cluster, instanceGroups } = completeKopsCase(c, edit);
  return assembleAddons(renderAddons({ cluster, instanceGroups }));
}

/** Every StorageClass of every manifest of a channel, by name, with its provisioner and default annotation. */
function storageClasses(files: Map<string, string>): Record<string, { provisioner: unknown; isDefault: string | undefined }> {
  const all = [...files.entries()].filter(([f]) => f.endsWith('.yaml') && !f.startsWith('bootstrap')).flatMap(([, text]) => objects(text));
  return Object.fromEntries(
    all.filter((o) => o.kind === 'StorageClass').map((o) => [o.metadata.name, { provisioner: o.provisioner, isDefault: o.metadata.annotations?.['storageclass.kubernetes.io/is-default-class'] }]),
  );
}

/** The driver's image in a workload's gce-pd-driver container. */
function driverImages(manifest: string): string[] {
  return objects(manifest)
    .filter((o) => o.kind === 'Deployment' || o.kind === 'DaemonSet')
    .map((o) => (o.spec as { template: { spec: { containers: Array<{ name: string; image: string }> } } }).template.spec.containers.find((c) => c.name === 'gce-pd-driver')?.image ?? '');
}

describe.each(['ha_gce', 'many-addons-gce'])("the PD CSI driver against kops's %s", (c) => {
  const { channel, files } = render(c);

  it("renders kops's manifest, object for object", () => {
    expect(objects(files.get(FILE) as string)).toEqual(objects(kopsFile(c, KOPS_FILE)));
  });

  it("has kops's channel entry, between storage-gce and gcp-cloud-controller", () => {
    const kops = (yaml.load(kopsFile(c, 'bootstrap_content')) as { spec: { addons: ChannelEntry[] } }).spec.addons;
    const fields = (e: ChannelEntry) => ({ ...e, manifestHash: typeof e.manifestHash });
    expect(fields(channel.spec.addons.find((e) => e.name === 'gcp-pd-csi-driver.addons.k8s.io')!)).toEqual(fields(kops.find((e) => e.name === 'gcp-pd-csi-driver.addons.k8s.io')!));
    const order = (entries: ChannelEntry[]) => entries.map((e) => e.name).filter((n) => n.startsWith('storage-gce') || n.startsWith('gcp-'));
    expect(order(channel.spec.addons)).toEqual(order(kops));
    expect(order(channel.spec.addons)).toEqual(['storage-gce.addons.k8s.io', 'gcp-pd-csi-driver.addons.k8s.io', 'gcp-cloud-controller.addons.k8s.io']);
  });

  it('makes the CSI balanced-csi the default class, and keeps the in-tree standard one not default', () => {
    expect(storageClasses(files)).toEqual({
      'balanced-csi': { provisioner: PD_CSI, isDefault: 'true' },
      'balanced-storage': { provisioner: PD_CSI, isDefault: undefined },
      'ssd-csi': { provisioner: PD_CSI, isDefault: undefined },
      'standard-csi': { provisioner: PD_CSI, isDefault: 'false' },
      standard: { provisioner: 'kubernetes.io/gce-pd', isDefault: undefined },
    });
  });
});

describe('PD CSI driver settings', () => {
  it("renders neither the driver nor a CSI StorageClass with enabled: false (kops's minimal_gce), and standard is the default class", () => {
    const { channel, files } = render('minimal_gce');
    expect(channel.spec.addons.map((e) => e.name)).not.toContain('gcp-pd-csi-driver.addons.k8s.io');
    expect(files.has(FILE)).toBe(false);
    expect(storageClasses(files)).toEqual({ standard: { provisioner: 'kubernetes.io/gce-pd', isDefault: 'true' } });
  });

  it('renders the same with enabled: false on a cluster that had the driver', () => {
    const { channel, files } = render('ha_gce', (cl) => (cl.spec.cloudConfig = { ...cl.spec.cloudConfig, gcpPDCSIDriver: { enabled: false } }));
    expect(channel.spec.addons.map((e) => e.name)).not.toContain('gcp-pd-csi-driver.addons.k8s.io');
    expect(storageClasses(files)).toEqual({ standard: { provisioner: 'kubernetes.io/gce-pd', isDefault: 'true' } });
  });

  it("marks balanced-storage default with defaultStorageClassName: balanced-storage, as kops's minimal_gce_plb", () => {
    const { files } = render('ha_gce', (cl) => (cl.spec.cloudConfig = { ...cl.spec.cloudConfig, gcpPDCSIDriver: { defaultStorageClassName: 'balanced-storage' } }));
    // kops's minimal_gce_plb manifest (test/fixtures/kops-gce/minimal_gce_plb), its cluster's disk label made ha_gce's.
    const plb = fs.readFileSync(path.join(KOPS_ADDONS, '..', 'kops-gce', 'minimal_gce_plb', KOPS_FILE), 'utf8');
    expect(objects(files.get(FILE) as string)).toEqual(objects(plb.replace('k8s-io-cluster-name=minimal-gce-plb-example-com', 'k8s-io-cluster-name=ha-gce-example-com')));
    expect(storageClasses(files)['balanced-storage'].isDefault).toBe('true');
    expect(storageClasses(files)['balanced-csi'].isDefault).toBeUndefined();
  });

  it('renders the driver without StorageClasses, and no storage-gce, with manageStorageClasses: false', () => {
    const { channel, files } = render('ha_gce', (cl) => (cl.spec.cloudConfig = { ...cl.spec.cloudConfig, manageStorageClasses: false }));
    expect(channel.spec.addons.map((e) => e.name)).toContain('gcp-pd-csi-driver.addons.k8s.io');
    expect(channel.spec.addons.map((e) => e.name)).not.toContain('storage-gce.addons.k8s.io');
    expect(storageClasses(files)).toEqual({});
    expect(objects(files.get(FILE) as string).map((o) => o.kind)).toContain('CSIDriver');
  });

  it("runs the version the spec gives in the controller and the node plugin", () => {
    const { files } = render('ha_gce', (cl) => (cl.spec.cloudConfig = { ...cl.spec.cloudConfig, gcpPDCSIDriver: { version: 'v1.20.0' } }));
    expect(driverImages(files.get(FILE) as string)).toEqual([
      'registry.k8s.io/cloud-provider-gcp/gcp-compute-persistent-disk-csi-driver:v1.20.0',
      'registry.k8s.io/cloud-provider-gcp/gcp-compute-persistent-disk-csi-driver:v1.20.0',
    ]);
  });

  it('is not rendered on AWS', () => {
    const { channel } = render('minimal-1.33');
    expect(channel.spec.addons.map((e) => e.name).filter((n) => n.startsWith('gcp-') || n.startsWith('storage-gce'))).toEqual([]);
  });
});
