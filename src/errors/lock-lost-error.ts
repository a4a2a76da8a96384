import { KforgeError } from './kforge-error';

/** The command's cluster lock was taken by another command (or expired unrenewed) while it ran: it stopped changing things. */
export class LockLostError extends KforgeError {
  constructor(message: string) {
    super('LOCK_LOST', message);
  }
}
