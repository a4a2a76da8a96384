import type { Cluster } from '../api/types';
import type { FieldError } from '../errors/field-error';

/**
 * kops's checks of `cloudConfig.awsEBSCSIDriver` (pkg/apis/kops/validation/aws.go awsValidateEBSCSIDriver, and
 * the v1alpha2 conversion): the driver is part of every AWS cluster, so `enabled` can only be true, and the block
 * means nothing off AWS.
 */
export function checkAwsEbsCsiDriver(cluster: Cluster): FieldError[] {
  const driver = cluster.spec.cloudConfig?.awsEBSCSIDriver;
  if (!driver) return [];
  const object = `Cluster/${cluster.metadata.name}`;
  if (cluster.spec.cloudProvider !== 'aws') {
    return [{ object, path: 'spec.cloudConfig.awsEBSCSIDriver', message: `the EBS CSI driver runs on AWS only, and the cloud provider is ${String(cluster.spec.cloudProvider)}; remove the block` }];
  }
  if (driver.enabled === false) {
    return [{ object, path: 'spec.cloudConfig.awsEBSCSIDriver.enabled', message: 'can only be true: the EBS CSI driver provisions the default StorageClass of every AWS cluster (as in kops); remove the field' }];
  }
  return [];
}
