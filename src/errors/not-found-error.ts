import { KforgeError } from './kforge-error';

/** The named resource (cluster, instance group, object in the store) does not exist. */
export class NotFoundError extends KforgeError {
  constructor(message: string) {
    super('NOT_FOUND', message);
  }
}
