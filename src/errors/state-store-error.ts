import { KforgeError } from './kforge-error';

/** The state store could not be read or written. */
export class StateStoreError extends KforgeError {
  constructor(message: string) {
    super('STATE_STORE', message);
  }
}
