import type { Cluster, InstanceGroup } from '../../../src/api/types';
import { nodeBootstrapRbacAddon } from '../../../src/model/addons/node-bootstrap-rbac-addon';

const cluster = { apiVersion: 'kops.k8s.io/v1alpha2', kind: 'Cluster', metadata: { name: 'c.example.com' }, spec: { cloudProvider: 'aws', kubelet: {} } } as unknown as Cluster;
const ig = (name: string, role: string, kubelet?: Record<string, unknown>) => ({ apiVersion: 'kops.k8s.io/v1alpha2', kind: 'InstanceGroup', metadata: { name }, spec: { role, ...(kubelet ? { kubelet } : {}) } }) as unknown as InstanceGroup;

describe('node-bootstrap RBAC', () => {
  it("binds the bootstrap group to CSR creation and auto-approval, and nodes to renewals, while workers bootstrap", () => {
    const [addon] = nodeBootstrapRbacAddon({ cluster, instanceGroups: [ig('cp', 'ControlPlane'), ig('nodes', 'Node')] });
    expect(addon.prune).toBe(true);
    expect(addon.objects.map((o) => [o.metadata.name, (o.roleRef as { name: string }).name, (o.subjects as Array<{ kind: string; name: string }>)[0]])).toEqual([
      ['kforge:node-bootstrapper', 'system:node-bootstrapper', { apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: 'system:bootstrappers' }],
      ['kforge:node-autoapprove-bootstrap', 'system:certificates.k8s.io:certificatesigningrequests:nodeclient', { apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: 'system:bootstrappers' }],
      ['kforge:node-autoapprove-certificate-rotation', 'system:certificates.k8s.io:certificatesigningrequests:selfnodeclient', { apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: 'system:nodes' }],
    ]);
  });

  it('is not rendered without workers, nor when no worker kubelet bootstraps', () => {
    expect(nodeBootstrapRbacAddon({ cluster, instanceGroups: [ig('cp', 'ControlPlane'), ig('b', 'Bastion')] })).toEqual([]);
    expect(nodeBootstrapRbacAddon({ cluster, instanceGroups: [ig('cp', 'ControlPlane'), ig('nodes', 'Node', { bootstrapKubeconfig: '' })] })).toEqual([]);
  });
});
