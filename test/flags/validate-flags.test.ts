import type { Cluster, InstanceGroup } from '../../src/api/types';
import { validateFlagSupport } from '../../src/validate/validate-flags';

function cluster(version: string, spec: Cluster['spec'] = {}): Cluster {
  return { apiVersion: 'kops.k8s.io/v1alpha2', kind: 'Cluster', metadata: { name: 'x.example.com' }, spec: { kubernetesVersion: version, ...spec } };
}

const ig = (name: string, kubelet: InstanceGroup['spec']['kubelet']): InstanceGroup => ({
  apiVersion: 'kops.k8s.io/v1alpha2',
  kind: 'InstanceGroup',
  metadata: { name },
  spec: { role: 'Node', kubelet },
});

describe('validateFlagSupport', () => {
  it('names the field, the removal and the version of every unsupported setting', () => {
    const errors = validateFlagSupport(
      cluster('1.35.7', { kubeAPIServer: { cloudProvider: 'aws' }, kubeControllerManager: { podEvictionTimeout: '5m' }, masterKubelet: { networkPluginName: 'kubenet' } }),
      [ig('nodes', { podInfraContainerImage: 'registry.k8s.io/pause:3.10.1' })],
    );
    expect(errors.map((e) => `${e.object}: ${e.path}: ${e.message}`)).toEqual([
      'Cluster/x.example.com: spec.kubeAPIServer.cloudProvider: --cloud-provider was removed from kube-apiserver in Kubernetes 1.33 (this cluster runs 1.35.7); remove spec.kubeAPIServer.cloudProvider (the cloud controller manager owns cloud integration)',
      'Cluster/x.example.com: spec.kubeControllerManager.podEvictionTimeout: --pod-eviction-timeout was removed from kube-controller-manager in Kubernetes 1.27 (this cluster runs 1.35.7); use the pod tolerations node.kubernetes.io/not-ready and unreachable (tolerationSeconds)',
      'Cluster/x.example.com: spec.masterKubelet.networkPluginName: --network-plugin was removed from kubelet in Kubernetes 1.24 (this cluster runs 1.35.7); remove it (the container runtime owns networking and image pulls)',
      'InstanceGroup/nodes: spec.kubelet.podInfraContainerImage: --pod-infra-container-image was removed from kubelet in Kubernetes 1.35 (this cluster runs 1.35.7); set spec.containerd.sandboxImage instead',
    ]);
  });

  it('accepts a setting the version still has', () => {
    expect(validateFlagSupport(cluster('1.34.10', { kubelet: { podInfraContainerImage: 'registry.k8s.io/pause:3.10.1' } }), [])).toEqual([]);
  });

  it('ignores a disabled kube-proxy and an invalid version (reported elsewhere)', () => {
    expect(validateFlagSupport(cluster('1.35.7', { kubeProxy: { enabled: false, featureGates: {} } }), [])).toEqual([]);
    expect(validateFlagSupport(cluster('1.99.0', { kubeAPIServer: { cloudProvider: 'aws' } }), [])).toEqual([]);
  });
});
