import type { ClusterSpec } from '../../api/types';
import images from '../assets/addon-images/gcp-pd-csi-driver.json';

const DRIVER = images.images['gcp-compute-persistent-disk-csi-driver'];

/**
 * kops's GCPPDCSIDriverOptionsBuilder (pkg/model/components/gcppdcsidriver.go): on GCE the PD CSI driver is on
 * unless the spec turns it off (`enabled: true`), its default StorageClass is `balanced-csi` and its version the
 * image table's tag. Since Kubernetes 1.28 the in-tree `kubernetes.io/gce-pd` provisioner is migrated to this
 * driver, so without it no PVC binds. Not off GCE, where validation refuses the block.
 */
export function expandGcpPdCsiDriver(spec: ClusterSpec): void {
  if (spec.cloudProvider !== 'gce') return;
  const cloudConfig = (spec.cloudConfig ??= {});
  const driver = (cloudConfig.gcpPDCSIDriver ??= {});
  driver.enabled ??= true;
  driver.defaultStorageClassName ??= 'balanced-csi';
  driver.version ??= DRIVER.tag;
}
