import type { Cluster } from '../api/types';
import type { FieldError } from '../errors/field-error';

/**
 * The node-termination-handler: kforge renders kops's queue-processor mode only; kops's IMDS mode (a DaemonSet
 * on every node, `enableSQSTerminationDraining: false`) is refused as not supported yet. In queue mode kops
 * refuses turning spot interruption draining off, and rebalance monitoring without draining (validation.go).
 */
export function checkNodeTerminationHandler(cluster: Cluster): FieldError[] {
  const nth = cluster.spec.nodeTerminationHandler;
  if (!nth || nth.enabled === false || cluster.spec.cloudProvider !== 'aws') return [];
  const object = `Cluster/${cluster.metadata.name}`;
  const path = 'spec.nodeTerminationHandler';
  if (nth.enableSQSTerminationDraining === false) {
    return [{ object, path: `${path}.enableSQSTerminationDraining`, message: 'is not supported yet: only the queue-processor mode (true, kops\'s default) is rendered' }];
  }
  const errors: FieldError[] = [];
  if (nth.enableSpotInterruptionDraining === false) errors.push({ object, path: `${path}.enableSpotInterruptionDraining`, message: 'spot interruption draining cannot be disabled in queue-processor mode' });
  if (nth.enableRebalanceMonitoring === true && nth.enableRebalanceDraining !== true) errors.push({ object, path: `${path}.enableRebalanceMonitoring`, message: 'rebalance events can only drain in queue-processor mode (set enableRebalanceDraining)' });
  return errors;
}
