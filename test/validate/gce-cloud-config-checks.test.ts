import type { Cluster } from '../../src/api/types';
import { checkGceCloudConfig } from '../../src/validate/check-gce-cloud-config';
import { completeKopsCase } from '../helpers/kops-addon-case';

const cluster = (cloudProvider: string, cloudConfig: Record<string, unknown>): Cluster =>
  ({ apiVersion: 'kops.k8s.io/v1alpha2', kind: 'Cluster', metadata: { name: 'c.example.com' }, spec: { cloudProvider, cloudConfig } }) as unknown as Cluster;

describe("the GCE cloud-config options' checks", () => {
  it('refuses them off GCE, each at its path (kops: "supports only GCE")', () => {
    expect(checkGceCloudConfig(cluster('aws', { multizone: true, nodeTags: 'x', nodeInstancePrefix: 'y' })).map((e) => e.path)).toEqual([
      'spec.cloudConfig.multizone',
      'spec.cloudConfig.nodeTags',
      'spec.cloudConfig.nodeInstancePrefix',
    ]);
  });

  it('refuses a nodeTags or nodeInstancePrefix that is not a GCE name', () => {
    const errors = checkGceCloudConfig(cluster('gce', { nodeTags: 'Tag With Spaces', nodeInstancePrefix: 'x\ny' }));
    expect(errors.map((e) => e.path)).toEqual(['spec.cloudConfig.nodeTags', 'spec.cloudConfig.nodeInstancePrefix']);
    expect(errors[0].message).toMatch(/is not a GCE network tag/);
  });

  it('accepts GCE names on GCE, and the completed spec of a GCE case passes', () => {
    expect(checkGceCloudConfig(cluster('gce', { multizone: false, nodeTags: 'my-nodes', nodeInstancePrefix: 'nodes-' }))).toEqual([]);
    expect(checkGceCloudConfig(completeKopsCase('minimal_gce').cluster)).toEqual([]);
  });
});
