import type { Cluster } from '../../api/types';
import { GceAddressTask } from '../../cloud/gce/tasks/gce-address-task';
import { GceDnsRecordTask } from '../../cloud/gce/tasks/gce-dns-record-task';
import type { AnyTask } from '../../tasks/task';

/**
 * The Cloud DNS records `update` makes, as kops's buildPrecreateDNSHostnames on a cluster with DNS
 * (`topology.dns.type` Public or Private, not `.k8s.local`): placeholders for `api.<cluster>` (without an API
 * load balancer), `api.internal.<cluster>` (unless the load balancer serves the internal API) and
 * `kops-controller.internal.<cluster>`; protokube then writes the control plane's addresses. With an API load
 * balancer `api.<cluster>` points at its address (kops's dns-controller does that in the cluster). Pure.
 */
export function buildGceDnsTasks(cluster: Cluster, loadBalancerTasks: readonly AnyTask[]): GceDnsRecordTask[] {
  const spec = cluster.spec;
  const c = cluster.metadata.name;
  const dnsType = spec.topology?.dns?.type ?? 'None';
  if ((dnsType !== 'Public' && dnsType !== 'Private') || c.endsWith('.k8s.local')) return [];
  const base = { dnsZone: spec.dnsZone, clusterName: c, privateZone: dnsType === 'Private' };
  const lb = spec.api?.loadBalancer;
  const addresses = loadBalancerTasks.filter((t): t is GceAddressTask => t instanceof GceAddressTask);
  // The public load balancer's external address, else the internal one of the first control-plane subnet.
  const address = lb ? (addresses.find((a) => a.desired.addressType === undefined) ?? addresses[0]) : undefined;
  const tasks: GceDnsRecordTask[] = [];
  const publicName = spec.api?.publicName ?? spec.masterPublicName ?? `api.${c}`;
  if (!lb) tasks.push(new GceDnsRecordTask(publicName, { ...base, target: { placeholder: true } }));
  else if (address) tasks.push(new GceDnsRecordTask(publicName, { ...base, target: { address } }));
  if (lb?.useForInternalApi !== true) tasks.push(new GceDnsRecordTask(spec.masterInternalName ?? `api.internal.${c}`, { ...base, target: { placeholder: true } }));
  tasks.push(new GceDnsRecordTask(`kops-controller.internal.${c}`, { ...base, target: { placeholder: true } }));
  return tasks;
}
