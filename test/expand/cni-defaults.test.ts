import { newCluster } from '../../src/create/new-cluster';
import type { Cluster } from '../../src/api/types';
import { completeCluster } from '../../src/ops/expand-cluster';

/** kops's CNI option defaults, for the settings kforge renders (pkg/model/components/cilium.go, calico.go). */
function completed(networking: string, edit: (c: Cluster) => void = () => {}): Cluster {
  const { cluster, instanceGroups } = newCluster({ name: 'cni.example.com', zones: ['us-east-1a'], networking, cloud: 'aws' });
  edit(cluster);
  return completeCluster(cluster, instanceGroups, 'memfs://store');
}

describe('CNI defaults', () => {
  it('cilium: kops\'s version, kubernetes IPAM, vxlan, cluster name default', () => {
    expect(completed('cilium').spec.networking?.cilium).toEqual({ version: 'v1.18.12', ipam: 'kubernetes', tunnel: 'vxlan', clusterName: 'default' });
  });

  it('cilium with ENI IPAM: no tunnel', () => {
    expect(completed('cilium', (c) => (c.spec.networking = { cilium: { ipam: 'eni' } })).spec.networking?.cilium?.tunnel).toBe('disabled');
  });

  it('calico on AWS: ipip', () => {
    expect(completed('calico').spec.networking?.calico).toEqual({ encapsulationMode: 'ipip' });
  });

  it('the user\'s values win', () => {
    expect(completed('cilium', (c) => (c.spec.networking = { cilium: { version: 'v1.18.3', clusterName: 'blue' } })).spec.networking?.cilium).toMatchObject({ version: 'v1.18.3', clusterName: 'blue' });
  });
});
