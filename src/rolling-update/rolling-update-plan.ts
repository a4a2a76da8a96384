import type { Cluster, InstanceGroup } from '../api/types';
import type { CloudInstance, CloudInstanceGroup } from '../cloud/aws/cloud-instance-groups';
import { normalizedRole } from '../expand/expand-context';
import type { RollingUpdateNode } from './rolling-update-kube';
import { ResolvedRollingUpdate, resolveRollingUpdate } from './rolling-update-settings';

/** One instance with its Node, if it registered one. */
export interface PlannedInstance extends CloudInstance {
  node?: RollingUpdateNode;
}

/** One instance group's row of the plan and what a rolling update of it would replace. */
export interface GroupPlan {
  /** The instance group's name. */
  name: string;
  /** kops's roles: `Bastion`, `ControlPlane`, `Node`, `APIServer`. */
  role: string;
  /** The Auto Scaling group, absent when the cloud has none yet (run `update cluster --yes`). */
  cloud?: CloudInstanceGroup;
  /** Instances to replace, in kops's order: members first, then detached ones. */
  needUpdate: PlannedInstance[];
  /** Instances already on the group's current version. */
  ready: PlannedInstance[];
  settings: ResolvedRollingUpdate;
}

/** What `rolling-update cluster` selects. */
export interface GroupSelection {
  /** `--instance-group`: only these groups (by name). */
  instanceGroups?: readonly string[];
  /** `--instance-group-roles`: only groups of these roles (`Master` means `ControlPlane`). */
  roles?: readonly string[];
  /** `--force`: every instance needs an update. */
  force?: boolean;
}

// kops's order: bastions, then the control plane, then the API servers and nodes.
const ROLE_ORDER: Record<string, number> = { Bastion: 0, ControlPlane: 1, APIServer: 2, Node: 3 };

/** The role with `Master` read as `ControlPlane`. */
export function groupRole(ig: InstanceGroup): string {
  return normalizedRole(ig);
}

/**
 * The plan of a rolling update: per selected group, in update order (then by name), the instances that need
 * replacing (an older launch template version, a detached surge instance, a Node annotated
 * `kops.k8s.io/needs-update`, or any with `force`) and those that do not. Pure: cloud groups and nodes in.
 */
export function planRollingUpdate(cluster: Cluster, instanceGroups: readonly InstanceGroup[], cloud: Map<string, CloudInstanceGroup>, nodes: readonly RollingUpdateNode[], sel: GroupSelection = {}): GroupPlan[] {
  const byInstance = new Map(nodes.flatMap((n) => (n.instanceId ? [[n.instanceId, n] as const] : [])));
  const roles = sel.roles?.map((r) => (r === 'Master' ? 'ControlPlane' : r));
  const selected = instanceGroups.filter((ig) => (!sel.instanceGroups || sel.instanceGroups.includes(ig.metadata.name)) && (!roles || roles.includes(groupRole(ig))));
  const plans = selected.map((ig): GroupPlan => {
    const group = cloud.get(`${ig.metadata.name}.${cluster.metadata.name}`);
    const instances = (group?.instances ?? []).map((i): PlannedInstance => {
      const node = byInstance.get(i.id);
      return { ...i, node, needsUpdate: i.needsUpdate || node?.needsUpdate === true || sel.force === true };
    });
    const needUpdate = [...instances.filter((i) => i.needsUpdate && !i.detached), ...instances.filter((i) => i.needsUpdate && i.detached)];
    const ready = instances.filter((i) => !i.needsUpdate);
    return { name: ig.metadata.name, role: groupRole(ig), cloud: group, needUpdate, ready, settings: resolveRollingUpdate(cluster, ig, needUpdate.length + ready.length) };
  });
  return plans.sort((a, b) => (ROLE_ORDER[a.role] ?? 9) - (ROLE_ORDER[b.role] ?? 9) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
