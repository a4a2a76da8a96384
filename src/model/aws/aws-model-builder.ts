import type { Cluster, InstanceGroup } from '../../api/types';
import type { AnyTask } from '../../tasks/task';
import { buildApiEndpointTasks } from './api-endpoint-model-builder';
import { buildIamTasks } from './iam-model-builder';
import { buildNetworkTasks } from './network-model-builder';
import { buildSecurityGroupTasks } from './security-group-model-builder';

/**
 * Every AWS task of a completed cluster spec, from the model builders in order (network, security groups,
 * IAM). `instanceGroups` scope the nodes' IAM policy to their nodeup configs. Pure: no SDK, no I/O; the
 * same spec gives equal tasks.
 */
export function buildAwsTasks(cluster: Cluster, instanceGroups: readonly InstanceGroup[] = []): AnyTask[] {
  const network = buildNetworkTasks(cluster);
  const groups = buildSecurityGroupTasks(cluster, network.vpc);
  // The API load balancer and DNS records; endpoint.controlPlaneTargetGroups are for the control-plane ASGs.
  const endpoint = buildApiEndpointTasks(cluster, network, groups);
  const iam = buildIamTasks(cluster, instanceGroups);
  return [...network.tasks, ...groups.tasks, ...endpoint.tasks, ...iam.tasks];
}
