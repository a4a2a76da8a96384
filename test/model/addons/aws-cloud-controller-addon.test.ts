import * as fs from 'node:fs';
import * as path from 'node:path';
import { loadManifests } from '../../../src/api/load-manifests';
import type { Cluster } from '../../../src/api/types';
import { awsCloudControllerAddon } from '../../../src/model/addons/aws-cloud-controller-addon';
import { completeCluster } from '../../../src/ops/expand-cluster';

const IN = path.join(__dirname, '..', '..', 'fixtures', 'kops-addons', 'minimal-1.33', 'in-v1alpha2.yaml');

function argsOf(edit: (spec: Cluster['spec']) => void): string[] {
  const set = loadManifests(fs.readFileSync(IN, 'utf8'), 'in-v1alpha2.yaml');
  const cluster = set.clusters[0];
  cluster.spec.kubernetesVersion = '1.33.13';
  edit(cluster.spec);
  const completed = completeCluster(cluster, set.instanceGroups, 's3://clusters.example.com');
  const [addon] = awsCloudControllerAddon({ cluster: completed, instanceGroups: set.instanceGroups });
  const ds = addon.objects.find((o) => o.kind === 'DaemonSet') as unknown as { spec: { template: { spec: { containers: Array<{ args: string[] }> } } } };
  return ds.spec.template.spec.containers[0].args;
}

describe('aws-cloud-controller addon', () => {
  it("renders kops's flags from the completed spec, then kops's additions", () => {
    expect(argsOf(() => undefined)).toEqual([
      '--allocate-node-cidrs=true',
      '--cluster-cidr=100.96.0.0/11',
      '--cluster-name=minimal.example.com',
      '--configure-cloud-routes=false',
      '--leader-elect=true',
      '--v=2',
      '--cloud-provider=aws',
      '--use-service-account-credentials=true',
    ]);
  });

  it('routes pods through the cloud with kubenet, and takes the settings the spec gives', () => {
    const args = argsOf((spec) => {
      spec.networking = { kubenet: {} };
      spec.cloudControllerManager = { logLevel: 4, concurrentNodeSyncs: 5, useServiceAccountCredentials: false };
    });
    expect(args).toEqual(expect.arrayContaining(['--configure-cloud-routes=true', '--v=4', '--concurrent-node-syncs=5', '--use-service-account-credentials=false']));
    expect(args).not.toContain('--v=2');
    expect(args.filter((a) => a.startsWith('--use-service-account-credentials'))).toHaveLength(1);
  });

  it('is not rendered on GCE', () => {
    const set = loadManifests(fs.readFileSync(IN, 'utf8'), 'in-v1alpha2.yaml');
    const gce = { ...set.clusters[0], spec: { ...set.clusters[0].spec, cloudProvider: 'gce' } } as Cluster;
    expect(awsCloudControllerAddon({ cluster: gce, instanceGroups: [] })).toEqual([]);
  });
});
