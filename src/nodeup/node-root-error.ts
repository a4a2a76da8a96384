import { KforgeError } from '../errors/kforge-error';

/** A file of the node cannot be written under the root (a directory in the way, permission denied, ...). */
export class NodeRootError extends KforgeError {
  constructor(message: string) {
    super('NODE_ROOT_WRITE_FAILED', message);
  }
}
