import type { Cluster, InstanceGroup } from '../api/types';
import { isControlPlane, normalizedRole } from '../expand/expand-context';
import { KOPS_CONTROLLER_PORT } from '../node-identity/kops-controller-port';
import { nodeIdentityMode } from '../validate/check-node-identity';
import { regionOfZone } from '../validate/validate-spec';

/** The keyset whose certificate pins the node-identity service (kops's kops-controller-ca). */
export const KOPS_CONTROLLER_CA_KEYSET = 'kops-controller-ca';

/**
 * Whether a cluster's workers get their nodeup config, nodeup bundle and certificates from the node-identity
 * service (kops's ConfigServer) and have no access to the state store: AWS clusters with DNS (the service's
 * name `kops-controller.internal.<cluster>` must resolve before nodeup runs, from user-data). The same answer
 * drives the nodeup configs, user-data and the node roles' IAM, so they cannot disagree. Without DNS
 * (`.k8s.local`, `dns: None`) workers keep reading the store (docs/node-identity.md, "Not done yet").
 */
export function usesConfigServer(cluster: Cluster): boolean {
  if (cluster.spec.cloudProvider !== 'aws') return false;
  // In Approval mode no cloud proof is sent, so the service serves no nodeup config: workers read theirs from the
  // store (approval-config-server.ts) and only their certificates wait for an operator.
  if (nodeIdentityMode(cluster) === 'Approval') return false;
  const dns = cluster.spec.topology?.dns?.type ?? (cluster.metadata.name.endsWith('.k8s.local') ? 'None' : 'Public');
  return dns !== 'None';
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
