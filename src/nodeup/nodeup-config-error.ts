import { KforgeError } from '../errors/kforge-error';

/** A nodeup config that cannot be read, parsed or rendered: names the file and what is wrong with it. */
export class NodeupConfigError extends KforgeError {
  constructor(message: string) {
    super('INVALID_NODEUP_CONFIG', message);
  }
}
