import type { Cluster, InstanceGroup } from '../../api/types';
import type { AnyTask } from '../../tasks/task';
import { GceAddressTask } from '../../cloud/gce/tasks/gce-address-task';
import { GceInstanceTemplateTask } from '../../cloud/gce/tasks/gce-instance-template-task';
import { buildGceApiLoadBalancerTasks, gceWorkerApiAddressNames } from './api-load-balancer-model-builder';
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
  // Workers' boot scripts name the internal API addresses (kops's BootConfig.APIServerIPs), known once they exist.
  const workerAddresses = new Set(gceWorkerApiAddressNames(cluster, instanceGroups));
  const addresses = loadBalancer.filter((t): t is GceAddressTask => t instanceof GceAddressTask && workerAddresses.has(t.name));
  const workers = new Set(instanceGroups.filter((ig) => ig.spec.role === 'Node').map((ig) => ig.metadata.name));
  for (const t of groups) if (t instanceof GceInstanceTemplateTask && workers.has(t.desired.metadata['kops-k8s-io-instance-group-name'] ?? '')) t.apiAddresses.push(...addresses);
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
