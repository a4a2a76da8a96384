import type { Addon, AddonBuilder } from './addon';

/**
 * kops's `kubelet-api.rbac.addons.k8s.io`: binds kube-apiserver's kubelet client (user `kubelet-api`, the CN of
 * its client certificate) to `system:kubelet-api-admin`, which webhook authorization on the kubelet requires
 * for logs, exec and port-forward. Always rendered, as in kops.
 */
export const kubeletApiRbacAddon: AddonBuilder = (): Addon[] => [
  {
    name: 'kubelet-api.rbac.addons.k8s.io',
    id: 'k8s-1.9',
    objects: [
      {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'ClusterRoleBinding',
        metadata: { name: 'kops:system:kubelet-api-admin' },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'system:kubelet-api-admin' },
        subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'kubelet-api' }],
      },
    ],
  },
];
