import { KforgeError } from './kforge-error';

/** Flags or arguments are missing, contradictory or malformed. */
export class UsageError extends KforgeError {
  constructor(message: string) {
    super('USAGE', message);
  }
}
