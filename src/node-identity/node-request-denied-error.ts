import { KforgeError } from '../errors/kforge-error';

/**
 * `kforge nodeup` in Approval mode: an operator denied this node's request (`kforge deny node-request`), so
 * the node-identity service will never issue its certificates. The message names the request and server.
 */
export class NodeRequestDeniedError extends KforgeError {
  constructor(message: string) {
    super('NODE_REQUEST_DENIED', message);
  }
}
