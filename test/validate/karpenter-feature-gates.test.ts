import { newCluster } from '../../src/create/new-cluster';
import { validateAgainstSchema } from '../../src/validate/schema-validator';

// Issue 22 §4: kops's KarpenterConfig.FeatureGates is a string (`StaticCapacity=true`, kops's karpenter case);
// kforge takes that form as well as its name-to-boolean map, and refuses a string that is neither.

const withGates = (featureGates: unknown) => {
  const { cluster } = newCluster({ name: 'k.example.com', zones: ['us-east-1a'], cloud: 'aws', dns: 'none' });
  return validateAgainstSchema('Cluster', { ...cluster, spec: { ...cluster.spec, karpenter: { enabled: true, featureGates } } });
};

describe('spec.karpenter.featureGates', () => {
  it("accepts kops's string form", () => {
    expect(withGates('StaticCapacity=true')).toEqual([]);
    expect(withGates('StaticCapacity=true,SpotToSpotConsolidation=false')).toEqual([]);
  });
  it('accepts the map form', () => expect(withGates({ StaticCapacity: true })).toEqual([]));
  it('refuses a string that is not name=true|false pairs, naming the field', () => {
    const errors = withGates('StaticCapacity');
    expect(errors.map((e) => e.path)).toContain('spec.karpenter.featureGates');
  });
});
