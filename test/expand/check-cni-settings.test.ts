import type { Cluster } from '../../src/api/types';
import { newCluster } from '../../src/create/new-cluster';
import { checkCniSettings } from '../../src/validate/check-cni-settings';

/** Settings of a rendered CNI that its addon does not render are refused with their path, never ignored. */
function errors(networking: string, settings: Record<string, unknown>, edit: (c: Cluster) => void = () => {}): string[] {
  const { cluster } = newCluster({ name: 'cni.example.com', zones: ['us-east-1a'], networking, cloud: 'aws' });
  const key = Object.keys(cluster.spec.networking ?? {})[0];
  (cluster.spec.networking as Record<string, unknown>)[key] = settings;
  edit(cluster);
  return checkCniSettings(cluster).map((e) => `${e.path}: ${e.message}`);
}

describe('checkCniSettings', () => {
  it('accepts the settings each addon renders', () => {
    expect(errors('cilium', { version: 'v1.18.3', ipam: 'eni', tunnel: 'disabled', clusterName: 'c1', agentPodAnnotations: { a: 'b' } })).toEqual([]);
    expect(errors('calico', { registry: 'r.example.com', version: 'v3.31.6', awsSrcDstCheck: 'DoNothing', majorVersion: 'v3', encapsulationMode: 'ipip' })).toEqual([]);
    expect(errors('flannel', { backend: 'vxlan', iptablesResyncSeconds: 10 })).toEqual([]);
    expect(errors('amazonvpc', { imageName: 'i:1', env: [{ name: 'WARM_IP_TARGET', value: '2' }] })).toEqual([]);
  });

  it('refuses a setting the addon does not render, naming its path', () => {
    expect(errors('cilium', { enableNodePort: true, hubble: { enabled: true } })).toEqual([
      "spec.networking.cilium.enableNodePort: is not supported yet: kforge renders kops's cilium addon with kops's default for this setting",
      "spec.networking.cilium.hubble: is not supported yet: kforge renders kops's cilium addon with kops's default for this setting",
    ]);
    expect(errors('calico', { encapsulationMode: 'vxlan' })).toEqual([
      "spec.networking.calico.encapsulationMode: is not supported yet: kforge renders kops's calico addon with kops's default for this setting",
    ]);
    expect(errors('flannel', { disableTxChecksumOffloading: true })).toHaveLength(1);
  });

  it('refuses Cilium values kops\'s template is not rendered with here', () => {
    expect(errors('cilium', { version: 'v1.17.4' })).toEqual(['spec.networking.cilium.version: is not supported yet: "v1.17.4"; kforge renders Cilium v1.18.x (kops\'s template for it)']);
    expect(errors('cilium', { ipam: 'crd' })).toEqual(['spec.networking.cilium.ipam: is not supported yet: "crd"; kforge renders kubernetes or eni IPAM']);
    expect(errors('cilium', { tunnel: 'geneve' })).toEqual(['spec.networking.cilium.tunnel: is not supported yet: "geneve"; with kubernetes IPAM kforge renders kops\'s default, "vxlan"']);
    expect(errors('cilium', { ipam: 'eni' }, (c) => (c.spec.cloudProvider = 'gce'))).toEqual(['spec.networking.cilium.ipam: eni IPAM needs cloudProvider aws']);
  });
});
