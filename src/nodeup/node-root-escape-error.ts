import { KforgeError } from '../errors/kforge-error';

/**
 * A path nodeup or protokube would write (or read) under the root passes through a symlink that leads
 * outside it; names the symlink and where it leads. Nothing is written through it.
 */
export class NodeRootEscapeError extends KforgeError {
  constructor(message: string) {
    super('NODE_ROOT_ESCAPE', message);
  }
}
