import type { Cluster } from '../api/types';
import type { FieldError } from '../errors/field-error';

/**
 * kops's check of `cloudConfig.gcpPDCSIDriver` (the v1alpha2 conversion: "PD CSI driver supports only GCE"): the
 * block configures the GCP PD CSI driver addon, which kforge renders on GCE only. Its fields' shapes (the version
 * tag, the default class name) are the JSON Schema's.
 */
export function checkGcpPdCsiDriver(cluster: Cluster): FieldError[] {
  if (!cluster.spec.cloudConfig?.gcpPDCSIDriver || cluster.spec.cloudProvider === 'gce') return [];
  return [
    {
      object: `Cluster/${cluster.metadata.name}`,
      path: 'spec.cloudConfig.gcpPDCSIDriver',
      message: `the GCP PD CSI driver runs on GCE only, and the cloud provider is ${String(cluster.spec.cloudProvider)}; remove the block`,
    },
  ];
}
