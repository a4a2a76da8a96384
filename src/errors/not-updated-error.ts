import { KforgeError } from './kforge-error';

/**
 * The cluster lacks what its first `update cluster --yes` creates (its PKI, its completed spec): as in
 * kops, create and edit write only the user's objects. The message says which command to run.
 */
export class NotUpdatedError extends KforgeError {
  constructor(message: string) {
    super('NOT_UPDATED', message);
  }
}
