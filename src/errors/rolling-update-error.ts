import { KforgeError } from './kforge-error';

/** Why a rolling update stopped; each is a stable `code` in docs/errors.md. */
export type RollingUpdateErrorCode = 'DRAIN_FAILED' | 'VALIDATION_FAILED' | 'REPLACEMENT_TIMEOUT' | 'KUBERNETES_API';

/**
 * A rolling update stopped: a node could not be drained (names the pod and the PodDisruptionBudget that
 * blocked it), the cluster did not validate in time, the cloud did not replace an instance in time, or the
 * Kubernetes API could not be used to list the Nodes.
 * What was already replaced stays replaced; a re-run picks up the instances still on old versions.
 */
export class RollingUpdateError extends KforgeError {
  constructor(code: RollingUpdateErrorCode, message: string) {
    super(code, message);
  }
}
