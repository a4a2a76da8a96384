import { KforgeError } from '../errors/kforge-error';

/**
 * The node-identity service (`nodeup kops-controller`) cannot start or nodeup cannot obtain its certificates
 * from it: a keyset missing from the state store, the port taken, the service unreachable or refusing the
 * node. The message names the file, address or answer.
 */
export class NodeIdentityError extends KforgeError {
  constructor(message: string) {
    super('NODE_IDENTITY_FAILED', message);
  }
}
