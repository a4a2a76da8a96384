import type { Addon, AddonBuilder } from './addon';

/**
 * kops's `storage-gce.addons.k8s.io` v1.7.0 (upup/models/cloudup/resources/addons/storage-gce.addons.k8s.io/v1.7.0.yaml.template):
 * the `standard` StorageClass (`kubernetes.io/gce-pd`, `pd-standard`). It is the cluster's default only when the
 * PD CSI driver is off (`cloudConfig.gcpPDCSIDriver.enabled: false`); with the driver on (kops's default) the
 * driver's addon marks its own class default (`balanced-csi`). From Kubernetes 1.28 the in-tree provisioner is gone
 * and `kubernetes.io/gce-pd` volumes are migrated to the PD CSI driver, so `standard` provisions only with the
 * driver (docs/gce.md). Rendered on GCE unless `cloudConfig.manageStorageClasses` is false.
 */
export const storageGceAddon: AddonBuilder = ({ cluster }): Addon[] => {
  if (cluster.spec.cloudProvider !== 'gce' || cluster.spec.cloudConfig?.manageStorageClasses === false) return [];
  const driverOn = cluster.spec.cloudConfig?.gcpPDCSIDriver?.enabled === true;
  return [
    {
      name: 'storage-gce.addons.k8s.io',
      id: 'v1.7.0',
      objects: [
        {
          apiVersion: 'storage.k8s.io/v1',
          kind: 'StorageClass',
          metadata: {
            ...(driverOn ? {} : { annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' } }),
            labels: { 'addonmanager.kubernetes.io/mode': 'EnsureExists', 'kubernetes.io/cluster-service': 'true' },
            name: 'standard',
          },
          parameters: { type: 'pd-standard' },
          provisioner: 'kubernetes.io/gce-pd',
        },
      ],
    },
  ];
};
