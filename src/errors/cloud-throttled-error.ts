import { KforgeError } from './kforge-error';

/** The cloud throttled a call that has no later chance in the run (the credentials check) until its retries ran out. */
export class CloudThrottledError extends KforgeError {
  constructor(message: string) {
    super('CLOUD_THROTTLED', message);
  }
}
