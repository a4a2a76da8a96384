import { newCluster } from '../../src/create/new-cluster';
import { completeCluster } from '../../src/ops/expand-cluster';

// Issue 22 §4: kops accepts `spec.api.loadBalancer` without `type` and makes it Public (populate_cluster_spec.go);
// so does kforge, instead of refusing the manifest at update.

describe('an API load balancer without a type', () => {
  const complete = (type: 'Public' | 'Internal' | undefined) => {
    const { cluster, instanceGroups } = newCluster({ name: 'lb.example.com', zones: ['us-east-1a'], cloud: 'aws', dns: 'none' });
    cluster.spec.api = { loadBalancer: { class: 'Network', ...(type ? { type } : {}) } };
    return completeCluster(cluster, instanceGroups, 'memfs://store').spec.api?.loadBalancer?.type;
  };

  it('is Public, as in kops', () => expect(complete(undefined)).toBe('Public'));
  it('keeps a type that is given', () => expect(complete('Internal')).toBe('Internal'));
});
