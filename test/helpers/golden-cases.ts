import * as fs from 'node:fs';
import * as path from 'node:path';
import { loadManifests } from '../../src/api/load-manifests';
import type { Cluster, InstanceGroup } from '../../src/api/types';
import { newCluster } from '../../src/create/new-cluster';

/** test/fixtures. */
export const FIXTURES = path.join(__dirname, '..', 'fixtures');

/** One golden expansion case: a name (its folder under test/golden/expand) and how to build its input. */
export interface GoldenCase {
  name: string;
  load: () => { cluster: Cluster; instanceGroups: InstanceGroup[] };
}

function fromFile(rel: string): GoldenCase['load'] {
  return () => {
    const set = loadManifests(fs.readFileSync(path.join(FIXTURES, rel), 'utf8'), rel);
    return { cluster: set.clusters[0], instanceGroups: set.instanceGroups };
  };
}

/** The golden expansion cases (test/expand/expand-golden.test.ts); test/flags renders them at every version. */
export const GOLDEN_CASES: GoldenCase[] = [
  { name: 'kops-minimal', load: fromFile('kops/minimal.yaml') },
  { name: 'kops-ha', load: fromFile('kops/ha.yaml') },
  { name: 'kops-private-bastion', load: fromFile('kops/private-bastion.yaml') },
  { name: 'mirrors-kubenet', load: fromFile('expand/mirrors-kubenet.yaml') },
  {
    name: 'create-three-zones',
    load: () => newCluster({ name: 'x.example.com', zones: ['us-east-1a', 'us-east-1b', 'us-east-1c'], controlPlaneZones: ['us-east-1a', 'us-east-1b', 'us-east-1c'], kubernetesVersion: '1.36.4' }),
  },
  {
    name: 'create-private-bastion',
    load: () => newCluster({ name: 'p.example.com', zones: ['us-east-1a', 'us-east-1b'], topology: 'private', bastion: true, networking: 'calico', nodeCount: 3, dnsZone: 'example.com', kubernetesVersion: '1.34.10' }),
  },
];
