import { KforgeError } from '../errors/kforge-error';

/** nodeup cannot get a keyset it needs from the state store (missing, unreadable, access denied, or without the key the config names). */
export class NodeupPkiError extends KforgeError {
  constructor(message: string) {
    super('NODEUP_PKI_FAILED', message);
  }
}
