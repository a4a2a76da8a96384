import type { Cluster, InstanceGroup } from '../../api/types';
import type { AnyTask } from '../../tasks/task';
import { isControlPlane } from '../../expand/expand-context';
import type { AwsModelInputs } from './aws-model-inputs';
import { buildBastionLoadBalancerTasks } from './bastion-load-balancer-builder';
import { buildApiEndpointTasks } from './api-endpoint-model-builder';
import { buildEtcdVolumeTasks } from './etcd-volume-model-builder';
import { buildIamTasks } from './iam-model-builder';
import { buildInstanceGroupTasks, InstanceGroupModelDeps } from './instance-group-model-builder';
import { buildNetworkTasks } from './network-model-builder';
import { buildNodeTerminationHandlerTasks } from './node-termination-handler-model-builder';
import { buildSecurityGroupTasks } from './security-group-model-builder';
import { markExtraRulesForRemoval } from './remove-extra-rules';

/**
 * Every AWS task of a completed cluster spec, from the model builders in order (network, security groups,
 * IAM, etcd volumes, instance groups: key pair, launch templates, Auto Scaling groups). `instanceGroups`
 * scope the nodes' IAM policy and get a launch template and an ASG each, for which `inputs` must hold
 * their nodeup config hashes. `targetGroups` (by instance group name) are the load balancer target groups
 * a group's ASG registers with; by default the control-plane groups register with the API load balancer's. Without instance groups, only the network, security groups and IAM. Pure: no SDK, no I/O; the same spec gives equal tasks.
 */
export function buildAwsTasks(
  cluster: Cluster,
  instanceGroups: readonly InstanceGroup[] = [],
  inputs: AwsModelInputs = { nodeupConfigHashes: {} },
  targetGroups?: InstanceGroupModelDeps['targetGroups'],
): AnyTask[] {
  const network = buildNetworkTasks(cluster);
  const groups = buildSecurityGroupTasks(cluster, network.vpc, { bastion: instanceGroups.some((ig) => ig.spec.role === 'Bastion') });
  // The API load balancer and DNS records; endpoint.controlPlaneTargetGroups are for the control-plane ASGs.
  const endpoint = buildApiEndpointTasks(cluster, network, groups);
  const iam = buildIamTasks(cluster, instanceGroups, { stateStoreKmsKey: inputs.stateStoreKmsKey });
  // Without instance groups there is nothing to run and no zone for the etcd members: infrastructure only.
  const volumes = instanceGroups.length > 0 ? buildEtcdVolumeTasks(cluster, instanceGroups) : [];
  // The control-plane ASGs register with the API load balancer's target groups (none with DNS only).
  // With a bastion, SSH reaches it through a load balancer of its own, whose target group the bastion ASGs join.
  const bastionLb = groups.bastion ? buildBastionLoadBalancerTasks(cluster, network, groups.bastion) : undefined;
  const registered = targetGroups ?? {
    ...Object.fromEntries(instanceGroups.filter((ig) => isControlPlane(ig)).map((ig) => [ig.metadata.name, endpoint.controlPlaneTargetGroups])),
    ...(bastionLb ? Object.fromEntries(instanceGroups.filter((ig) => ig.spec.role === 'Bastion').map((ig) => [ig.metadata.name, [bastionLb.targetGroup]])) : {}),
  };
  const compute = buildInstanceGroupTasks(cluster, instanceGroups, { subnets: network.subnets, securityGroups: groups, iam, targetGroups: registered, apiLoadBalancer: endpoint.loadBalancer }, inputs);
  // The node-termination-handler's queue, rules and targets, and a lifecycle hook on each group (queue mode);
  // like the volumes, only with machines to run (infrastructure only: none).
  const nth = instanceGroups.length > 0 ? buildNodeTerminationHandlerTasks(cluster, compute.autoScalingGroups) : [];
  const tasks = [...network.tasks, ...groups.tasks, ...endpoint.tasks, ...(bastionLb?.tasks ?? []), ...iam.tasks, ...volumes, ...compute.tasks, ...nth];
  markExtraRulesForRemoval(cluster, tasks);
  return tasks;
}
