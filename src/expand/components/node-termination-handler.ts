import type { Cluster, ClusterSpec } from '../../api/types';

/** The node-termination-handler version kops defaults to (pkg/model/components/nodeterminationhandler.go at 268927e). */
export const NTH_DEFAULT_VERSION = 'v1.25.5';

/** The ASG tag NTH acts on, kops's default `managedASGTag`. */
export const NTH_DEFAULT_MANAGED_TAG = 'aws-node-termination-handler/managed';

/**
 * kops's NodeTerminationHandlerOptionsBuilder: on AWS, unless Karpenter runs (it handles interruptions itself),
 * the node-termination-handler is enabled by default, in queue-processor mode (kops's `IsQueueMode`: an unset
 * `enableSQSTerminationDraining` means true), with kops's defaults. User values win.
 */
export function expandNodeTerminationHandler(spec: ClusterSpec): void {
  if (spec.cloudProvider !== 'aws' || spec.karpenter?.enabled === true) return;
  const nth = (spec.nodeTerminationHandler ??= {});
  nth.enabled ??= true;
  if (!nth.enabled) return;
  nth.enableSpotInterruptionDraining ??= true;
  nth.enableScheduledEventDraining ??= true;
  nth.enableRebalanceMonitoring ??= false;
  nth.enableRebalanceDraining ??= false;
  nth.prometheusEnable ??= false;
  nth.excludeFromLoadBalancers ??= true;
  nth.managedASGTag ??= NTH_DEFAULT_MANAGED_TAG;
  nth.cpuRequest ??= '50m';
  nth.memoryRequest ??= '64Mi';
  nth.version ??= NTH_DEFAULT_VERSION;
}

/** Whether the completed cluster runs the node-termination-handler in queue-processor mode (kops's `IsQueueMode`). */
export function nthQueueMode(cluster: Cluster): boolean {
  const nth = cluster.spec.nodeTerminationHandler;
  return cluster.spec.cloudProvider === 'aws' && nth?.enabled === true && nth.enableSQSTerminationDraining !== false;
}
