import type { Cluster, InstanceGroup } from '../../api/types';
import { clusterTags, TagMap } from '../../cloud/aws/aws-tags';
import { EbsVolumeTask } from '../../cloud/aws/tasks/ebs-volume-task';
import { UnsupportedModelError } from './unsupported-model-error';

// kops's defaults for etcd volumes (pkg/model/master_volumes.go): 20 GiB of gp3.
const DEFAULT_ETCD_VOLUME_SIZE_GIB = 20;
const DEFAULT_ETCD_VOLUME_TYPE = 'gp3';

/**
 * kops's MasterVolumeBuilder for AWS, pure: one encrypted EBS volume per etcd member, in the zone of the
 * member's control-plane instance group, named `<member>.etcd-<etcd>.<cluster>` and tagged
 * `k8s.io/etcd/<etcd>=<member>/<all members>` so that protokube (etcd-manager) on that group's instance
 * finds and attaches it.
 */
export function buildEtcdVolumeTasks(cluster: Cluster, instanceGroups: readonly InstanceGroup[]): EbsVolumeTask[] {
  const c = cluster.metadata.name;
  const spec = cluster.spec;
  const labels: TagMap = { ...(spec.cloudLabels ?? {}) };
  const zoneOf = new Map((spec.subnets ?? []).map((s) => [s.name, s.zone]));
  const tasks: EbsVolumeTask[] = [];
  (spec.etcdClusters ?? []).forEach((etcd, i) => {
    const members = etcd.etcdMembers ?? [];
    const all = members.map((m) => m.name).join(',');
    members.forEach((m, j) => {
      const field = `spec.etcdClusters[${i}].etcdMembers[${j}]`;
      if (m.kmsKeyId) throw new UnsupportedModelError(`${field}.kmsKeyId`, 'a KMS key of an etcd volume');
      const ig = instanceGroups.find((g) => g.metadata.name === m.instanceGroup);
      // A member names its instance group, whose (single) subnet gives the zone (validation checked both).
      const zone = ig?.spec.zones?.[0] ?? zoneOf.get(ig?.spec.subnets?.[0] ?? '');
      if (!zone) throw new UnsupportedModelError(`${field}.instanceGroup`, `an etcd member whose instance group (${m.instanceGroup ?? 'none'}) has no zone`);
      const name = `${m.name}.etcd-${etcd.name}.${c}`;
      tasks.push(
        new EbsVolumeTask(name, {
          zone,
          size: m.volumeSize ?? DEFAULT_ETCD_VOLUME_SIZE_GIB,
          volumeType: m.volumeType ?? DEFAULT_ETCD_VOLUME_TYPE,
          // Always encrypted (with the account's default EBS key): etcd holds the cluster's secrets.
          encrypted: m.encryptedVolume ?? true,
          iops: m.volumeIops,
          throughput: m.volumeThroughput,
          tags: clusterTags(c, name, labels, {
            [`k8s.io/etcd/${etcd.name}`]: `${m.name}/${all}`,
            'k8s.io/role/control-plane': '1',
            'k8s.io/role/master': '1',
          }),
        }),
      );
    });
  });
  return tasks;
}
