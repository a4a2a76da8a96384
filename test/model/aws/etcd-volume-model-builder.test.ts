import { newCluster } from '../../../src/create/new-cluster';
import { buildEtcdVolumeTasks } from '../../../src/model/aws/etcd-volume-model-builder';
import { completeCluster } from '../../../src/ops/expand-cluster';

const NAME = 'etcd.example.com';

describe('etcd volume model builder', () => {
  it('makes one volume per member in its group’s zone, named and tagged as kops does', () => {
    const { cluster, instanceGroups } = newCluster({ name: NAME, zones: ['us-east-1a', 'us-east-1b', 'us-east-1c'], controlPlaneCount: 3 });
    const completed = completeCluster(cluster, instanceGroups, 'memfs://store');
    const main = completed.spec.etcdClusters?.find((e) => e.name === 'main');
    const b = main?.etcdMembers?.find((m) => m.name === 'b');
    if (b) Object.assign(b, { volumeSize: 50, volumeType: 'io2', volumeIops: 4000 });
    const volumes = buildEtcdVolumeTasks(completed, instanceGroups);
    expect(volumes.map((v) => `${v.name} ${v.desired.zone} ${v.desired.size} ${v.desired.volumeType} ${v.desired.encrypted} ${v.desired.iops ?? '-'}`).sort()).toEqual([
      `a.etcd-events.${NAME} us-east-1a 20 gp3 true -`,
      `a.etcd-main.${NAME} us-east-1a 20 gp3 true -`,
      `b.etcd-events.${NAME} us-east-1b 20 gp3 true -`,
      `b.etcd-main.${NAME} us-east-1b 50 io2 true 4000`,
      `c.etcd-events.${NAME} us-east-1c 20 gp3 true -`,
      `c.etcd-main.${NAME} us-east-1c 20 gp3 true -`,
    ]);
    const tags = volumes.find((v) => v.name === `b.etcd-main.${NAME}`)?.desired.tags;
    expect(tags).toMatchObject({ 'k8s.io/etcd/main': 'b/a,b,c', 'k8s.io/role/control-plane': '1', 'k8s.io/role/master': '1', Name: `b.etcd-main.${NAME}`, KubernetesCluster: NAME });
  });

  it('refuses a KMS key it has no IAM permissions for yet, naming the field', () => {
    const { cluster, instanceGroups } = newCluster({ name: NAME, zones: ['us-east-1a'] });
    const completed = completeCluster(cluster, instanceGroups, 'memfs://store');
    const member = completed.spec.etcdClusters?.[0]?.etcdMembers?.[0];
    if (member) member.kmsKeyId = 'arn:aws:kms:us-east-1:123456789012:key/x';
    expect(() => buildEtcdVolumeTasks(completed, instanceGroups)).toThrow(/^spec\.etcdClusters\[0\]\.etcdMembers\[0\]\.kmsKeyId: a KMS key of an etcd volume is not supported/);
  });
});
