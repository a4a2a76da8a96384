import type { Cluster } from '../../api/types';
import type { AnyTask } from '../../tasks/task';
import { buildNetworkTasks } from './network-model-builder';
import { buildSecurityGroupTasks } from './security-group-model-builder';

/**
 * Every AWS task of a completed cluster spec, from the model builders in order (network, then security
 * groups). Pure: no SDK, no I/O; the same spec gives equal tasks.
 */
export function buildAwsTasks(cluster: Cluster): AnyTask[] {
  const network = buildNetworkTasks(cluster);
  const groups = buildSecurityGroupTasks(cluster, network.vpc);
  return [...network.tasks, ...groups.tasks];
}
