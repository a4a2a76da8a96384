import { KforgeError } from './kforge-error';

/** The cloud cannot be used at all: no credentials, credentials it refuses, or an endpoint it cannot reach. */
export class CloudAccessError extends KforgeError {
  constructor(message: string) {
    super('CLOUD_ACCESS', message);
  }
}
