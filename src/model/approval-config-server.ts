import type { Cluster, InstanceGroup } from '../api/types';
import { isControlPlane, normalizedRole } from '../expand/expand-context';
import type { ClusterCertificates } from '../pki/cluster-certificates';
import { nodeIdentityMode } from '../validate/check-node-identity';
import { clusterRegion, configServerUrl } from './config-server';
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
  return { Servers: [configServerUrl(completed.metadata.name)], CACertificates: ca, Region: clusterRegion(completed) ?? '', Approval: true };
}
