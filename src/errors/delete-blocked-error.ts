import { KforgeError } from './kforge-error';

/** A resource `delete cluster` could not delete, with the last error it met. */
export interface BlockedResource {
  type: string;
  name: string;
  id: string;
  /** The last error (or the resources still blocking it); undefined if it was never tried. */
  lastError?: string;
}

/**
 * Deleting a cluster's cloud resources stopped without progress (or hit its round or time limit): the
 * message lists every resource left and why, and the cluster's state is kept so the delete can be re-run.
 */
export class DeleteBlockedError extends KforgeError {
  constructor(
    readonly remaining: BlockedResource[],
    reason: string,
  ) {
    const lines = remaining.map((r) => `  ${r.type} ${r.name} ${r.id}${r.lastError ? `: ${r.lastError}` : ''}`);
    super('DELETE_BLOCKED', `${reason}; ${remaining.length} resources remain (the cluster's state is kept; re-run the delete once they can go):\n${lines.join('\n')}`);
  }
}
