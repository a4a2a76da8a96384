import type { Cluster, InstanceGroup } from '../../api/types';
import { GceDiskTask } from '../../cloud/gce/tasks/gce-disk-task';
import { GceNames } from './gce-names';

const DEFAULT_SIZE_GB = 20;
const DEFAULT_TYPE = 'pd-ssd';

/**
 * One persistent disk per etcd member, in the zone of the member's instance group, as kops's
 * MasterVolumeBuilder.addGCEVolume: named `<member>-etcd-<cluster>-<cluster name>` and labelled with the
 * cluster, `k8s-io-role-master` and `k8s-io-etcd-<etcd cluster>` = the encoded `<member>/<member>`. Pure.
 */
export function buildGceEtcdDiskTasks(cluster: Cluster, instanceGroups: readonly InstanceGroup[]): GceDiskTask[] {
  const name = cluster.metadata.name;
  const zoneOf = new Map(instanceGroups.map((ig) => [ig.metadata.name, ig.spec.zones?.[0] ?? '']));
  return (cluster.spec.etcdClusters ?? []).flatMap((etcd) =>
    (etcd.etcdMembers ?? []).map((m) => {
      let prefix = `${m.name}.etcd-${etcd.name}`.replace(/\./g, '-');
      // A GCE name cannot start with a digit or a dash.
      if (/^[0-9-]/.test(prefix)) prefix = `d${prefix}`;
      const labels = {
        'k8s-io-cluster-name': GceNames.safeClusterName(name),
        'k8s-io-role-master': 'master',
        [`k8s-io-etcd-${etcd.name}`]: GceNames.encodeLabel(`${m.name}/${m.name}`),
      };
      const member = m as { volumeSize?: number; volumeType?: string; volumeIOPS?: number; volumeThroughput?: number };
      return new GceDiskTask(GceNames.clusterSuffixed(prefix, name), {
        zone: zoneOf.get(m.instanceGroup ?? '') ?? '',
        sizeGb: member.volumeSize ?? DEFAULT_SIZE_GB,
        type: member.volumeType ?? DEFAULT_TYPE,
        labels,
        provisionedIops: member.volumeIOPS || undefined,
        provisionedThroughput: member.volumeThroughput || undefined,
      });
    }),
  );
}
