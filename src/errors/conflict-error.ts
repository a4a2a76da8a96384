import { KforgeError } from './kforge-error';

/** An object in the store changed between read and write (lost-update protection). */
export class ConflictError extends KforgeError {
  constructor(message: string) {
    super('CONFLICT', message);
  }
}
