import { instanceGroupKubelet } from '../../expand/components/kubelet';
import type { Addon, AddonBuilder, KubeObject } from './addon';

/** The shared bootstrap identity's group (the `kubelet-bootstrap` keyset's O, src/pki/cluster-pki.ts). */
const BOOTSTRAPPERS = 'system:bootstrappers';

function binding(name: string, role: string, group: string): KubeObject {
  return {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRoleBinding',
    metadata: { name },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: role },
    subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: group }],
  };
}

/**
 * The RBAC kforge's worker TLS bootstrapping needs (docs/nodeup.md, "TLS bootstrapping"): the bootstrap identity
 * (group `system:bootstrappers`) may create CSRs, which kube-controller-manager's csrapproving controller then
 * approves, and nodes (`system:nodes`) may renew their own client certificates. kops has no such addon (its nodes
 * get their certificates from kops-controller); kforge renders it while any worker group's kubelet has a
 * `bootstrapKubeconfig`, and drops it (pruned) once none does (the node-identity service of issue 19).
 */
export const nodeBootstrapRbacAddon: AddonBuilder = ({ cluster, instanceGroups }): Addon[] => {
  const bootstrapping = instanceGroups.some((ig) => ig.spec.role === 'Node' && instanceGroupKubelet(cluster.spec, ig).bootstrapKubeconfig);
  if (!bootstrapping) return [];
  return [
    {
      name: 'node-bootstrap.rbac.addons.kforge.io',
      id: 'k8s-1.33',
      prune: true,
      objects: [
        binding('kforge:node-bootstrapper', 'system:node-bootstrapper', BOOTSTRAPPERS),
        binding('kforge:node-autoapprove-bootstrap', 'system:certificates.k8s.io:certificatesigningrequests:nodeclient', BOOTSTRAPPERS),
        binding('kforge:node-autoapprove-certificate-rotation', 'system:certificates.k8s.io:certificatesigningrequests:selfnodeclient', 'system:nodes'),
      ],
    },
  ];
};
