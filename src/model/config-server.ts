import type { Cluster, InstanceGroup } from '../api/types';
import { isControlPlane, normalizedRole } from '../expand/expand-context';
import { KOPS_CONTROLLER_PORT } from '../node-identity/kops-controller-port';
import { nodeIdentityMode } from '../validate/check-node-identity';
import { regionOfZone } from '../validate/validate-spec';

/** The keyset whose certificate pins the node-identity service (kops's kops-controller-ca). */
export const KOPS_CONTROLLER_CA_KEYSET = 'kops-controller-ca';

/**
 * Whether a cluster's workers get their nodeup config, nodeup bundle and certificates from the node-identity
 * service (kops's ConfigServer) and have no access to the state store: AWS and GCE clusters with DNS (the service's
 * name `kops-controller.internal.<cluster>` resolves from user-data on), and AWS and GCE clusters without DNS
 * (`.k8s.local`, `dns: None`) that have the API load balancer, whose 3988 listener reaches the service: their
 * workers dial the load balancer's DNS name and still check the service's certificate for its name
 * (configServerVia). The same answer drives the nodeup configs, user-data and the node roles' IAM, so they
 * cannot disagree.
 */
export function usesConfigServer(cluster: Cluster): boolean {
  // GCE as AWS: Google's instance identity token is the proof (docs/node-identity.md); without DNS the service is
  // reached through the internal API load balancer's 3988 forwarding rule, at the addresses of APIServerIPs.
  if (cluster.spec.cloudProvider !== 'aws' && cluster.spec.cloudProvider !== 'gce') return false;
  // In Approval mode no cloud proof is sent, so the service serves no nodeup config: workers read theirs from the
  // store (approval-config-server.ts) and only their certificates wait for an operator.
  if (nodeIdentityMode(cluster) === 'Approval') return false;
  return !usesNoneDns(cluster) || cluster.spec.api?.loadBalancer !== undefined;
}

/**
 * Whether workers reach the service through the API load balancer's DNS name rather than through
 * `kops-controller.internal.<cluster>`: a ConfigServer cluster without DNS (kops's UsesLoadBalancerForKopsController).
 */
export function configServerViaLoadBalancer(cluster: Cluster): boolean {
  return usesConfigServer(cluster) && usesNoneDns(cluster);
}

/** kops's UsesNoneDNS: `spec.topology.dns.type: None`, which `.k8s.local` names default to. */
function usesNoneDns(cluster: Cluster): boolean {
  return (cluster.spec.topology?.dns?.type ?? (cluster.metadata.name.endsWith('.k8s.local') ? 'None' : 'Public')) === 'None';
}

/** Whether this group's machines use the ConfigServer: workers (not the control plane, not a bastion) of such a cluster. */
export function groupUsesConfigServer(cluster: Cluster, ig: InstanceGroup): boolean {
  return usesConfigServer(cluster) && !isControlPlane(ig) && normalizedRole(ig) !== 'Bastion';
}

/** The service's URL as workers reach it (kops's `https://kops-controller.internal.<cluster>:3988`). */
export function configServerUrl(cluster: string): string {
  return `https://kops-controller.internal.${cluster}:${KOPS_CONTROLLER_PORT}`;
}

/** The cluster's region (its subnets'), the STS region a worker signs its proof for. */
export function clusterRegion(cluster: Cluster): string | undefined {
  const subnets = cluster.spec.subnets ?? [];
  const zone = subnets.find((s) => s.zone)?.zone;
  return subnets.find((s) => s.region)?.region ?? (zone ? regionOfZone(zone, cluster.spec.cloudProvider) : undefined);
}
