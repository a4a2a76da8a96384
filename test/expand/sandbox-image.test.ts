import { populateCluster } from '../../src/expand/populate-cluster';
import { GOLDEN_CASES } from '../helpers/golden-cases';

/** containerd runs the pause image; before 1.35 kubelet's --pod-infra-container-image must name the same one. */
describe('sandbox (pause) image', () => {
  const { cluster, instanceGroups } = GOLDEN_CASES.find((c) => c.name === 'mirrors-kubenet')!.load();
  const at = (version: string, extra: object = {}) =>
    populateCluster({ ...cluster, spec: { ...cluster.spec, kubernetesVersion: version, ...extra } }, instanceGroups, 'memfs://sandbox').spec;

  it('is containerd.sandboxImage, mirrored like every image, and kubelet gets no flag from 1.35', () => {
    const spec = at('1.35.7');
    expect(spec.containerd?.sandboxImage).toBe('registry.internal.example.com:5000/k8s/pause:3.10.1');
    expect(spec.kubelet?.podInfraContainerImage).toBeUndefined();
    expect(spec.masterKubelet?.podInfraContainerImage).toBeUndefined();
  });

  it('is the same image for kubelet and containerd before 1.35', () => {
    const spec = at('1.34.10');
    expect(spec.kubelet?.podInfraContainerImage).toBe(spec.containerd?.sandboxImage);
    expect(spec.masterKubelet?.podInfraContainerImage).toBe(spec.containerd?.sandboxImage);
  });

  it('follows a pause image the user gave kubelet before 1.35', () => {
    const spec = at('1.34.10', { kubelet: { podInfraContainerImage: 'example.com/pause:9' } });
    expect(spec.containerd?.sandboxImage).toBe('registry.internal.example.com:5000/k8s/pause:9');
    expect(spec.kubelet?.podInfraContainerImage).toBe(spec.containerd?.sandboxImage);
  });
});
