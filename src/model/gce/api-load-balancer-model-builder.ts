import type { Cluster, InstanceGroup } from '../../api/types';
import { GceAddressTask } from '../../cloud/gce/tasks/gce-address-task';
import { GceBackendServiceTask } from '../../cloud/gce/tasks/gce-backend-service-task';
import { GceForwardingRuleTask } from '../../cloud/gce/tasks/gce-forwarding-rule-task';
import { GceHealthCheckTask } from '../../cloud/gce/tasks/gce-health-check-task';
import { GceInstanceGroupManagerTask } from '../../cloud/gce/tasks/gce-instance-group-manager-task';
import type { GceNetworkTask } from '../../cloud/gce/tasks/gce-network-task';
import type { GceSubnetworkTask } from '../../cloud/gce/tasks/gce-subnetwork-task';
import { GceTargetPoolTask } from '../../cloud/gce/tasks/gce-target-pool-task';
import type { AnyTask } from '../../tasks/task';
import { isControlPlane } from '../../expand/expand-context';
import { GceNames } from './gce-names';

/** kops's ports: the API, kops-controller, and kube-apiserver-healthcheck (the public pool's HTTP check). */
const API_PORT = 443;
const KOPS_CONTROLLER_PORT = 3988;
const API_HEALTHCHECK_PORT = 3990;

/**
 * The internal API addresses a worker's boot config names (kops's BootConfig.APIServerIPs: with no DNS the
 * workers' /etc/hosts maps the API's internal name to them), by address name: one per subnet of the control
 * plane, when the cluster has the API load balancer and no DNS. Empty otherwise. Pure.
 */
export function gceWorkerApiAddressNames(cluster: Cluster, instanceGroups: readonly InstanceGroup[]): string[] {
  if (!cluster.spec.api?.loadBalancer || cluster.spec.topology?.dns?.type !== 'None') return [];
  const apiGroups = instanceGroups.filter((ig) => isControlPlane(ig) || ig.spec.role === 'APIServer');
  return (cluster.spec.subnets ?? []).filter((sn) => apiGroups.some((ig) => (ig.spec.subnets ?? []).includes(sn.name))).map((sn) => GceNames.clusterSuffixed(`api-${sn.name}`, cluster.metadata.name));
}

/**
 * The API load balancer, as kops's APILoadBalancerBuilder, when `api.loadBalancer` is set. Always an internal
 * one (a regional TCP health check, a backend service over the control plane's MIGs, and per subnet of the
 * control plane an internal address shared by forwarding rules for 443, and 3988 when the API has no DNS);
 * with `type: Public` also an external address, a target pool with an HTTP check on 3990 that the control
 * plane's MIGs join, and a forwarding rule for 443. Pure.
 */
export function buildGceApiLoadBalancerTasks(cluster: Cluster, instanceGroups: readonly InstanceGroup[], network: GceNetworkTask, subnetworks: readonly GceSubnetworkTask[], migs: readonly AnyTask[]): AnyTask[] {
  const lb = cluster.spec.api?.loadBalancer;
  if (!lb) return [];
  const name = cluster.metadata.name;
  const n = (id: string): string => GceNames.clusterSuffixed(id, name);
  const clusterLabel = { 'k8s-io-cluster-name': GceNames.safeClusterName(name) };
  const apiGroups = instanceGroups.filter((ig) => isControlPlane(ig) || ig.spec.role === 'APIServer');
  const apiMigs = migs.filter((m): m is GceInstanceGroupManagerTask => m instanceof GceInstanceGroupManagerTask && apiGroups.some((ig) => m.desired.baseInstanceName === ig.metadata.name));
  const tasks: AnyTask[] = [];
  if (lb.type === 'Public') {
    const check = new GceHealthCheckTask(n('api'), { kind: 'http', port: API_HEALTHCHECK_PORT, requestPath: '/healthz' });
    const pool = new GceTargetPoolTask(n('api'), check);
    const address = new GceAddressTask(n('api'), { addressType: undefined, purpose: undefined });
    for (const m of apiMigs) if (instanceGroups.some((ig) => isControlPlane(ig) && ig.metadata.name === m.desired.baseInstanceName)) m.targetPools.push(pool);
    tasks.push(check, pool, address, new GceForwardingRuleTask(n('api'), { loadBalancingScheme: 'EXTERNAL', portRange: `${API_PORT}-${API_PORT}`, ports: undefined, labels: { ...clusterLabel, name: 'api' } }, address, { pool }));
  }
  const check = new GceHealthCheckTask(n('api'), { kind: 'region-tcp', port: API_PORT, requestPath: undefined });
  const backend = new GceBackendServiceTask(n('api'), { protocol: 'TCP', loadBalancingScheme: 'INTERNAL' }, check, apiMigs);
  tasks.push(check, backend);
  const noDns = cluster.spec.topology?.dns?.type === 'None';
  (cluster.spec.subnets ?? []).forEach((sn, i) => {
    if (!apiGroups.some((ig) => (ig.spec.subnets ?? []).includes(sn.name))) return;
    const subnetwork = subnetworks[i];
    const address = new GceAddressTask(n(`api-${sn.name}`), { addressType: 'INTERNAL', purpose: 'SHARED_LOADBALANCER_VIP' }, subnetwork);
    const internal = { backend, network, subnetwork };
    tasks.push(address, new GceForwardingRuleTask(n(`api-${sn.name}`), { loadBalancingScheme: 'INTERNAL', portRange: undefined, ports: [String(API_PORT)], labels: { ...clusterLabel, name: `api-${sn.name}` } }, address, internal));
    // Nodes reach kops-controller through the load balancer when the API has no DNS name.
    if (noDns) tasks.push(new GceForwardingRuleTask(n(`kops-controller-${sn.name}`), { loadBalancingScheme: 'INTERNAL', portRange: undefined, ports: [String(KOPS_CONTROLLER_PORT)], labels: { ...clusterLabel, name: `kops-controller-${sn.name}` } }, address, internal));
  });
  return tasks;
}
