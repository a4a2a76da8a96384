import type { Cluster, InstanceGroup } from '../api/types';
import { isControlPlane, normalizedRole } from '../expand/expand-context';
import { KOPS_CONTROLLER_PORT } from '../node-identity/kops-controller-port';
import type { ClusterCertificates } from '../pki/cluster-certificates';
import { nodeIdentityMode } from '../validate/check-node-identity';
import { regionOfZone } from '../validate/validate-spec';
import type { NodeupConfig } from './nodeup-config-builder';

/**
 * With spec.nodeIdentity.mode Approval, a worker's ConfigServer: the node-identity service at kops's name and
 * port, pinned to kops-controller-ca, with `Approval` set so nodeup sends no cloud proof and waits for
 * `kforge approve node-request` (also on a machine with no cloud at all, through `kforge get nodeup-config`).
 * Undefined in Automatic mode, for the control plane and bastions, and before the PKI exists.
 */
export function approvalConfigServer(completed: Cluster, ig: InstanceGroup, certificates: ClusterCertificates | undefined): NodeupConfig['ConfigServer'] {
  const ca = certificates?.bundles['kops-controller-ca'];
  if (nodeIdentityMode(completed) !== 'Approval' || isControlPlane(ig) || normalizedRole(ig) === 'Bastion' || !ca) return undefined;
  const subnets = completed.spec.subnets ?? [];
  const zone = subnets.find((s) => s.zone)?.zone;
  const region = subnets.find((s) => s.region)?.region ?? (zone ? regionOfZone(zone, 'aws') : '');
  return { Servers: [`https://kops-controller.internal.${completed.metadata.name}:${KOPS_CONTROLLER_PORT}`], CACertificates: ca, Region: region, Approval: true };
}
