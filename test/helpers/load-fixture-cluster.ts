import * as fs from 'node:fs';
import * as path from 'node:path';
import { loadManifests } from '../../src/api/load-manifests';
import type { Cluster, InstanceGroup } from '../../src/api/types';

/**
 * The first Cluster and the InstanceGroups of a manifest under test/fixtures (e.g. a kops case's
 * `in-v1alpha2.yaml`), moved to Kubernetes 1.34.10 (kforge supports 1.33+) and then edited.
 */
export function loadFixtureCluster(file: string, edit: (c: Cluster) => void = () => undefined): { cluster: Cluster; igs: InstanceGroup[] } {
  const set = loadManifests(fs.readFileSync(path.join(__dirname, '..', 'fixtures', file), 'utf8'), file);
  const cluster = set.clusters[0];
  cluster.spec.kubernetesVersion = '1.34.10';
  edit(cluster);
  return { cluster, igs: set.instanceGroups };
}
