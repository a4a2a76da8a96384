import type { ClusterSpec, InstanceGroup } from '../../src/api/types';
import { BOOTSTRAP_KUBECONFIG, instanceGroupKubelet } from '../../src/expand/components/kubelet';
import { isControlPlane } from '../../src/expand/expand-context';
import { populateCluster } from '../../src/expand/populate-cluster';
import { nodeCommands } from '../../src/flags/component-argv';
import { GOLDEN_CASES } from '../helpers/golden-cases';

/**
 * Worker kubelets use TLS bootstrapping by default (--bootstrap-kubeconfig, --rotate-certificates); the
 * control-plane kubelet does not (nodeup issues its certificate); a value the user set anywhere wins.
 */
describe("kubelet's TLS bootstrap defaults", () => {
  const { cluster, instanceGroups } = GOLDEN_CASES.find((c) => c.name === 'kops-minimal')!.load();
  const cp = instanceGroups.find(isControlPlane) as InstanceGroup;
  const node = instanceGroups.find((ig) => ig.spec.role === 'Node') as InstanceGroup;
  const complete = (spec: Partial<ClusterSpec> = {}) => populateCluster({ ...cluster, spec: { ...cluster.spec, ...spec } }, instanceGroups, 'memfs://bootstrap').spec;
  const settings = (spec: ClusterSpec, ig: InstanceGroup) => {
    const k = instanceGroupKubelet(spec, ig);
    return { bootstrapKubeconfig: k.bootstrapKubeconfig, rotateCertificates: k.rotateCertificates };
  };
  const kubeletArgv = (spec: ClusterSpec, ig: InstanceGroup) => nodeCommands(spec, instanceGroupKubelet(spec, ig)).find((c) => c.component === 'kubelet')?.argv ?? [];

  it('a worker group gets both, and its kubelet argv carries them; the control plane gets neither', () => {
    const spec = complete();
    expect(settings(spec, node)).toEqual({ bootstrapKubeconfig: BOOTSTRAP_KUBECONFIG, rotateCertificates: true });
    expect(kubeletArgv(spec, node)).toEqual(expect.arrayContaining([`--bootstrap-kubeconfig=${BOOTSTRAP_KUBECONFIG}`, '--rotate-certificates=true', '--kubeconfig=/var/lib/kubelet/kubeconfig']));
    expect(settings(spec, cp)).toEqual({ bootstrapKubeconfig: undefined, rotateCertificates: undefined });
    expect(kubeletArgv(spec, cp).filter((a) => /^--(bootstrap-kubeconfig|rotate-certificates)=/.test(a))).toEqual([]);
    // The cluster-wide settings stay as the user wrote them: the default is the worker group's.
    expect([spec.kubelet?.bootstrapKubeconfig, spec.masterKubelet?.bootstrapKubeconfig]).toEqual([undefined, undefined]);
  });

  it('keeps values the user set in kubelet (inherited by the control plane, as every kubelet setting is)', () => {
    const spec = complete({ kubelet: { bootstrapKubeconfig: '/etc/kubelet/bootstrap.conf', rotateCertificates: false } });
    expect(settings(spec, node)).toEqual({ bootstrapKubeconfig: '/etc/kubelet/bootstrap.conf', rotateCertificates: false });
    expect(settings(spec, cp)).toEqual({ bootstrapKubeconfig: '/etc/kubelet/bootstrap.conf', rotateCertificates: false });
  });

  it('keeps values the user set in masterKubelet or controlPlaneKubelet', () => {
    expect(settings(complete({ masterKubelet: { bootstrapKubeconfig: '/a' } }), cp)).toEqual({ bootstrapKubeconfig: '/a', rotateCertificates: undefined });
    expect(settings(complete({ controlPlaneKubelet: { rotateCertificates: true } }), cp)).toEqual({ bootstrapKubeconfig: undefined, rotateCertificates: true });
  });

  it("keeps values the user set in an instance group's kubelet", () => {
    const spec = complete();
    const own = { ...node, spec: { ...node.spec, kubelet: { bootstrapKubeconfig: '/b', rotateCertificates: false } } };
    expect(settings(spec, own)).toEqual({ bootstrapKubeconfig: '/b', rotateCertificates: false });
  });
});
