import type { Addon, AddonBuilder, KubeObject } from './addon';

const STORAGE = 'storage.k8s.io/v1';

/** A StorageClass of kops's template; `isDefault` undefined leaves the annotation out (kops's `default` class). */
function storageClass(name: string, provisioner: string, parameters: Record<string, string>, isDefault?: boolean, fields: Record<string, unknown> = {}): KubeObject {
  return {
    apiVersion: STORAGE,
    kind: 'StorageClass',
    metadata: { name, ...(isDefault === undefined ? {} : { annotations: { 'storageclass.kubernetes.io/is-default-class': String(isDefault) } }) },
    provisioner,
    parameters,
    ...fields,
  };
}

/**
 * kops's `storage-aws.addons.k8s.io` v1.15.0 (upup/models/cloudup/resources/addons/storage-aws.addons.k8s.io/v1.15.0.yaml.template):
 * the in-tree gp2 classes kops has always created, the encrypted gp3 EBS CSI class `kops-csi-1-21` as the default,
 * and the RBAC of the legacy `aws-cloud-provider` service account. Rendered on AWS unless
 * `cloudConfig.manageStorageClasses` is false.
 */
export const storageAwsAddon: AddonBuilder = ({ cluster }): Addon[] => {
  if (cluster.spec.cloudProvider !== 'aws' || cluster.spec.cloudConfig?.manageStorageClasses === false) return [];
  const lateBinding = { allowVolumeExpansion: true, volumeBindingMode: 'WaitForFirstConsumer' };
  return [
    {
      name: 'storage-aws.addons.k8s.io',
      id: 'v1.15.0',
      objects: [
        storageClass('default', 'kubernetes.io/aws-ebs', { type: 'gp2' }),
        storageClass('gp2', 'kubernetes.io/aws-ebs', { type: 'gp2' }, false),
        storageClass('kops-ssd-1-17', 'kubernetes.io/aws-ebs', { type: 'gp2', encrypted: 'true' }, false, lateBinding),
        storageClass('kops-csi-1-21', 'ebs.csi.aws.com', { type: 'gp3', encrypted: 'true' }, true, lateBinding),
        {
          apiVersion: 'rbac.authorization.k8s.io/v1',
          kind: 'ClusterRole',
          metadata: { name: 'system:aws-cloud-provider' },
          rules: [
            { apiGroups: [''], resources: ['nodes'], verbs: ['get', 'list', 'patch'] },
            { apiGroups: [''], resources: ['events'], verbs: ['create', 'patch', 'update'] },
          ],
        },
        {
          apiVersion: 'rbac.authorization.k8s.io/v1',
          kind: 'ClusterRoleBinding',
          metadata: { name: 'system:aws-cloud-provider' },
          roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'system:aws-cloud-provider' },
          subjects: [{ kind: 'ServiceAccount', name: 'aws-cloud-provider', namespace: 'kube-system' }],
        },
      ],
    },
  ];
};
