import type { InstanceGroup } from '../api/types';
import { controlPlaneIamName, nodeGroupIamName } from '../model/aws/iam-names';

/**
 * Each instance role kforge makes for the cluster and the instance groups that run with it (the IAM model's
 * names: `nodes-<group>.<cluster>` per node group, `masters.<cluster>` for every control-plane group). A
 * group with `spec.iam.profile` runs with a role kforge did not make and is left out: its nodes are refused.
 * Bastions are not nodes.
 */
export function kopsControllerRoles(cluster: string, instanceGroups: readonly InstanceGroup[]): Map<string, string[]> {
  const roles = new Map<string, string[]>();
  for (const ig of [...instanceGroups].sort((a, b) => a.metadata.name.localeCompare(b.metadata.name))) {
    // APIServer groups are refused by the AWS model, so they have no role to accept.
    if (ig.spec.iam?.profile || ig.spec.role === 'Bastion' || ig.spec.role === 'APIServer') continue;
    const role = ['ControlPlane', 'Master'].includes(ig.spec.role ?? '') ? controlPlaneIamName(cluster) : nodeGroupIamName(ig.metadata.name, cluster);
    roles.set(role, [...(roles.get(role) ?? []), ig.metadata.name]);
  }
  return roles;
}
