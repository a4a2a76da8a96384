import { KforgeError } from './kforge-error';

/** A command asked for something this version does not do (e.g. reading instances on a cloud other than AWS and GCE, a surge on GCE). */
export class NotSupportedError extends KforgeError {
  constructor(message: string) {
    super('NOT_SUPPORTED', message);
  }
}
