import { newCluster } from '../../src/create/new-cluster';
import { completeCluster } from '../../src/ops/expand-cluster';

/** kops's CCM route controller: on for kubenet (pod routes in the VPC route tables), off for every CNI. */
function ccm(networking: string): unknown {
  const { cluster, instanceGroups } = newCluster({ name: 'routes.example.com', zones: ['us-east-1a'], networking, cloud: 'aws' });
  return completeCluster(cluster, instanceGroups, 'memfs://store').spec.cloudControllerManager?.configureCloudRoutes;
}

describe('cloudControllerManager.configureCloudRoutes follows the network mode, as kops', () => {
  it('is on for kubenet', () => expect(ccm('kubenet')).toBe(true));
  it.each(['cilium', 'calico', 'flannel', 'amazonvpc'])('is off for %s', (n) => expect(ccm(n)).toBe(false));
  it('the controller manager programs routes for kubenet too (kops: kube-controller-manager)', () => {
    const { cluster, instanceGroups } = newCluster({ name: 'routes.example.com', zones: ['us-east-1a'], networking: 'kubenet', cloud: 'aws' });
    expect(completeCluster(cluster, instanceGroups, 'memfs://store').spec.kubeControllerManager?.configureCloudRoutes).toBe(true);
  });
});
