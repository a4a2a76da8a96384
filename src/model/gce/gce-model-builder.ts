import type { Cluster, InstanceGroup } from '../../api/types';
import type { AnyTask } from '../../tasks/task';
import { buildGceApiLoadBalancerTasks } from './api-load-balancer-model-builder';
import { buildGceDnsTasks } from './dns-model-builder';
import { buildGceEtcdDiskTasks } from './etcd-disk-model-builder';
import { buildGceFirewallTasks } from './firewall-model-builder';
import { buildGceInstanceGroupTasks, GceInstanceGroupInputs } from './instance-group-model-builder';
import { buildGceNetworkTasks } from './network-model-builder';

/**
 * The GCE tasks of a completed cluster, as kops's gcemodel builders make them: the network, subnetworks and
 * Cloud NAT, the firewall rules, the etcd disks, and the service accounts, and per instance group a template and zonal MIGs, the API load balancer, and the Cloud DNS records of a cluster with DNS. Pure: the same spec
 * gives the same tasks.
 */
export function buildGceTasks(cluster: Cluster, instanceGroups: readonly InstanceGroup[], inputs: GceInstanceGroupInputs = {}): AnyTask[] {
  const { network, subnetworks, router } = buildGceNetworkTasks(cluster);
  const groups = buildGceInstanceGroupTasks(cluster, instanceGroups, network, subnetworks, inputs);
  const loadBalancer = buildGceApiLoadBalancerTasks(cluster, instanceGroups, network, subnetworks, groups);
  return [
    network,
    ...subnetworks,
    ...(router ? [router] : []),
    ...buildGceFirewallTasks(cluster, instanceGroups, network),
    ...buildGceEtcdDiskTasks(cluster, instanceGroups),
    ...groups,
    ...loadBalancer,
    ...buildGceDnsTasks(cluster, loadBalancer),
  ];
}
