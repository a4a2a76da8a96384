import type { Cluster, InstanceGroup } from '../../api/types';
import type { AnyTask } from '../../tasks/task';
import { buildGceEtcdDiskTasks } from './etcd-disk-model-builder';
import { buildGceFirewallTasks } from './firewall-model-builder';
import { buildGceInstanceGroupTasks, GceInstanceGroupInputs } from './instance-group-model-builder';
import { buildGceNetworkTasks } from './network-model-builder';

/**
 * The GCE tasks of a completed cluster, as kops's gcemodel builders make them: the network, subnetworks and
 * Cloud NAT, the firewall rules, the etcd disks, and the service accounts, and per instance group a template and zonal MIGs. Pure: the same spec
 * gives the same tasks. The API load balancer is not built yet (docs/differences-from-kops.md).
 */
export function buildGceTasks(cluster: Cluster, instanceGroups: readonly InstanceGroup[], inputs: GceInstanceGroupInputs = {}): AnyTask[] {
  const { network, subnetworks, router } = buildGceNetworkTasks(cluster);
  return [
    network,
    ...subnetworks,
    ...(router ? [router] : []),
    ...buildGceFirewallTasks(cluster, instanceGroups, network),
    ...buildGceEtcdDiskTasks(cluster, instanceGroups),
    ...buildGceInstanceGroupTasks(cluster, instanceGroups, network, subnetworks, inputs),
  ];
}
