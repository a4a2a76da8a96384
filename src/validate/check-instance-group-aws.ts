import type { Cluster, InstanceGroup } from '../api/types';
import type { FieldError } from '../errors/field-error';
import { goDurationNs } from '../util/go-duration';

// AWS's bounds on an Auto Scaling group's MaxInstanceLifetime: 0 (none), or one day to one year, in seconds.
const LIFETIME_MIN_S = 86_400;
const LIFETIME_MAX_S = 31_536_000;

// The processes SuspendProcesses takes (Auto Scaling API reference, ProcessType).
const PROCESSES = ['Launch', 'Terminate', 'AddToLoadBalancer', 'AlarmNotification', 'AZRebalance', 'HealthCheck', 'InstanceRefresh', 'ReplaceUnhealthy', 'ScheduledActions'];

/**
 * The instance-group settings AWS refuses at CreateAutoScalingGroup, caught before any change:
 * `maxInstanceLifetime` out of AWS's range, unknown `suspendProcesses`, a malformed `additionalSecurityGroups` id;
 * and the APIServer role and Karpenter-managed groups, which the AWS model does not build.
 */
export function checkInstanceGroupAws(cluster: Cluster, igs: readonly InstanceGroup[]): FieldError[] {
  if ((cluster.spec.cloudProvider ?? 'aws') !== 'aws') return [];
  const errors: FieldError[] = [];
  for (const ig of igs) {
    const object = `InstanceGroup/${ig.metadata.name}`;
    // kops's APIServerNodes: API servers outside the control plane need their own nodeup role, security-group rules,
    // IAM role and load-balancer membership; kforge's AWS model builds none of them (the GCE model does).
    if (ig.spec.role === 'APIServer') {
      errors.push({ object, path: 'spec.role', message: 'is not supported yet: APIServer instance groups (API servers outside the control plane) need their own node role, security-group rules, IAM role and load-balancer membership, which the AWS model does not build; use a ControlPlane group' });
    }
    if (ig.spec.manager === 'Karpenter') {
      errors.push({ object, path: 'spec.manager', message: 'is not supported yet: Karpenter-managed groups need the karpenter addon, which kforge does not render; use CloudGroup (the default)' });
    }
    // An existing subnet may come without its zone, but the control plane's etcd volumes are made in its zone.
    if ((ig.spec.role === 'ControlPlane' || ig.spec.role === 'Master') && !(ig.spec.zones ?? []).length) {
      (ig.spec.subnets ?? []).forEach((name, j) => {
        const i = (cluster.spec.subnets ?? []).findIndex((s) => s.name === name);
        if (i >= 0 && !(cluster.spec.subnets ?? [])[i].zone) {
          errors.push({ object, path: `spec.subnets[${j}]`, message: `subnet "${name}" has no zone (Cluster spec.subnets[${i}].zone): the control plane's etcd volumes are made in its subnet's zone, so give it` });
        }
      });
    }
    const mixed = ig.spec.mixedInstancesPolicy;
    if (mixed && !mixed.instanceRequirements && (mixed.instances ?? []).length === 0) {
      errors.push({ object, path: 'spec.mixedInstancesPolicy.instances', message: 'names no instance type; a mixed instances policy needs at least one' });
    }
    const life = ig.spec.maxInstanceLifetime;
    if (life !== undefined) {
      const ns = goDurationNs(life);
      const s = ns === undefined ? undefined : Math.round(ns / 1e9);
      if (s !== undefined && s !== 0 && (s < LIFETIME_MIN_S || s > LIFETIME_MAX_S)) {
        errors.push({ object, path: 'spec.maxInstanceLifetime', message: `${life} is ${s} s; AWS takes 0 (no limit) or 24h to 8760h (one day to one year)` });
      }
    }
    (ig.spec.suspendProcesses ?? []).forEach((p, i) => {
      if (!PROCESSES.includes(p)) errors.push({ object, path: `spec.suspendProcesses[${i}]`, message: `"${p}" is not an Auto Scaling process; use one of ${PROCESSES.join(', ')}` });
    });
    (ig.spec.additionalSecurityGroups ?? []).forEach((id, i) => {
      if (!/^sg-[0-9A-Za-z]+$/.test(id)) errors.push({ object, path: `spec.additionalSecurityGroups[${i}]`, message: `"${id}" is not a security group id (sg-…)` });
    });
  }
  return errors;
}
