import { KforgeError } from './kforge-error';

/** Another command holds the cluster's lock. */
export class LockedError extends KforgeError {
  constructor(message: string) {
    super('LOCKED', message);
  }
}
