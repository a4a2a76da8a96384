import images from '../../expand/assets/addon-images/gcp-pd-csi-driver.json';
import type { Addon, AddonBuilder } from './addon';
import data from './data/gcp-pd-csi-driver.json';
import { type AddonImage, imageValues, renderAddonData } from './render-addon-data';

const DRIVER_IMAGE = 'gcp-compute-persistent-disk-csi-driver';

/**
 * kops's `gcp-pd-csi-driver.addons.k8s.io` k8s-1.23 (upup/models/cloudup/resources/addons/gcp-pd-csi-driver.addons.k8s.io/k8s-1.23.yaml.template,
 * the driver's deploy/kubernetes/overlays/noauth): the PD CSI controller Deployment on the control plane (it calls
 * the Compute API with the instance's service account, whose `compute` and `cloud-platform` scopes every kops
 * instance has), the node DaemonSet on every node, their RBAC, priority classes, the `pd.csi.storage.gke.io`
 * CSIDriver and, unless `cloudConfig.manageStorageClasses` is false, four StorageClasses of which
 * `defaultStorageClassName` (balanced-csi) is the cluster's default. This is what provisions PVCs on GCE since
 * Kubernetes 1.28 migrated the in-tree `kubernetes.io/gce-pd` plugin to CSI. Rendered on GCE while
 * `cloudConfig.gcpPDCSIDriver.enabled` (defaults: src/expand/components/gcp-pd-csi-driver.ts).
 */
export const gcpPdCsiDriverAddon: AddonBuilder = ({ cluster }): Addon[] => {
  const spec = cluster.spec;
  const driver = spec.cloudConfig?.gcpPDCSIDriver;
  if (spec.cloudProvider !== 'gce' || driver?.enabled !== true) return [];
  const table = images.images as Record<string, AddonImage>;
  const version = driver.version ?? table[DRIVER_IMAGE].tag;
  const values = {
    // kops's `replace ClusterName "." "-"`: the label the driver puts on the disks it creates.
    clusterLabel: cluster.metadata.name.replace(/\./g, '-'),
    ...imageValues(table, { [DRIVER_IMAGE]: `${table[DRIVER_IMAGE].image}:${version}` }),
  };
  const manageStorageClasses = spec.cloudConfig?.manageStorageClasses !== false;
  const objects = renderAddonData(data, values).filter((o) => o.kind !== 'StorageClass' || manageStorageClasses);
  // kops's template marks `defaultStorageClassName` default: balanced-csi or balanced-storage (the schema's enum);
  // standard-csi says "false" and ssd-csi nothing whatever the setting.
  const defaultClass = driver.defaultStorageClassName ?? 'balanced-csi';
  for (const o of objects) {
    if (o.kind === 'StorageClass' && o.metadata.name === defaultClass) {
      o.metadata = { annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' }, ...o.metadata };
    }
  }
  return [{ name: 'gcp-pd-csi-driver.addons.k8s.io', id: 'k8s-1.23', objects }];
};
