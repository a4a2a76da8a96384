import type { InstanceGroup } from '../api/types';
import type { CloudGroup, CloudInstance, ClusterInstances } from '../cloud/aws/cluster-instances';
import type { ValidationFailure } from './validation-result';

/** The minimal node facts the cloud checks need: which instance each registered node is. */
export interface RegisteredNode {
  name: string;
  instanceId?: string;
}

/** The instance id in a node's providerID (`aws:///us-east-1a/i-0123…`), or on GCE the instance's name (`gce://<project>/<zone>/<name>`). */
export function instanceIdOf(providerId: string | undefined): string | undefined {
  return /\/(i-[0-9a-f]+)$/.exec(providerId ?? '')?.[1] ?? /^gce:\/\/[^/]+\/[^/]+\/([a-z0-9-]+)$/.exec(providerId ?? '')?.[1];
}

/** Check 2: each instance group has its cloud group, at the spec's sizes, with every member InService. */
export function checkInstanceGroups(igs: InstanceGroup[], cloud: ClusterInstances): ValidationFailure[] {
  const out: ValidationFailure[] = [];
  for (const ig of igs) {
    const name = ig.metadata.name;
    const group = cloud.groups.find((g) => g.instanceGroup === name);
    const kind = cloud.groupKind ?? 'Auto Scaling group';
    if (!group) {
      out.push({ kind: 'InstanceGroup', name, instanceGroup: name, message: `instance group "${name}" has no ${kind}`, cause: 'not created yet: run "kforge update cluster --yes"' });
      continue;
    }
    const min = ig.spec.minSize;
    const max = cloud.targetSizeOnly ? undefined : (ig.spec.maxSize ?? min);
    if ((min !== undefined && group.min !== min) || (max !== undefined && group.max !== max)) {
      const sizes = cloud.targetSizeOnly ? `size ${min}, its ${kind} ${group.name} has ${group.min}` : `sizes ${min}..${max}, its ${kind} ${group.name} has ${group.min}..${group.max}`;
      out.push({ kind: 'InstanceGroup', name, instanceGroup: name, message: `instance group "${name}" wants ${sizes}`, cause: 'the spec changed since the last "kforge update cluster --yes"' });
    }
    const inService = group.members.filter((m) => m.lifecycleState === 'InService');
    if (inService.length !== group.desired) {
      const others = group.members.filter((m) => m.lifecycleState !== 'InService').map((m) => `${m.instanceId} ${m.lifecycleState}`);
      out.push({
        kind: 'InstanceGroup',
        name,
        instanceGroup: name,
        message: `instance group "${name}" has ${inService.length} of ${group.desired} instances InService`,
        ...(others.length > 0 ? { cause: others.join(', ') } : { cause: 'instances not launched yet' }),
      });
    }
  }
  return out;
}

/** A machine that has no Node, with what can be learnt about why. */
export interface UnregisteredMachine {
  instance: CloudInstance;
  group?: CloudGroup;
}

/** Check 3, first half: the cluster's instances (bastions aside) that no Node names in its providerID or as its name. */
export function unregisteredMachines(cloud: ClusterInstances, nodes: RegisteredNode[]): UnregisteredMachine[] {
  const ids = new Set(nodes.map((n) => n.instanceId).filter((x) => x !== undefined));
  const names = new Set(nodes.map((n) => n.name));
  const out: UnregisteredMachine[] = [];
  for (const instance of cloud.instances) {
    const group = cloud.groups.find((g) => g.name === instance.group);
    if (group?.role === 'bastion') continue;
    if (ids.has(instance.instanceId) || (instance.privateDnsName && names.has(instance.privateDnsName))) continue;
    out.push({ instance, group });
  }
  return out;
}
