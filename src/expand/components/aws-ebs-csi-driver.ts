import type { ClusterSpec } from '../../api/types';
import images from '../assets/addon-images/aws-ebs-csi-driver.json';

const DRIVER = images.images['aws-ebs-csi-driver'];

/**
 * kops's AWSEBSCSIDriverOptionsBuilder (pkg/model/components/awsebscsidriver.go): on AWS the driver is always
 * there (`enabled: true` when the block is absent; kops refuses false) and its version defaults to the image
 * table's tag. Not on GCE, where kops refuses the block.
 */
export function expandAwsEbsCsiDriver(spec: ClusterSpec): void {
  if (spec.cloudProvider !== 'aws') return;
  const cloudConfig = (spec.cloudConfig ??= {});
  const driver = (cloudConfig.awsEBSCSIDriver ??= { enabled: true });
  driver.version ??= DRIVER.tag;
}
