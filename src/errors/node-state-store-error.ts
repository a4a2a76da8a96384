import { KforgeError } from './kforge-error';

/** `update cluster --yes` on a cloud whose nodes could not read the cluster's state store (a local `file://` or `memfs://` store). */
export class NodeStateStoreError extends KforgeError {
  constructor(message: string) {
    super('STATE_STORE_NOT_FOR_NODES', message);
  }
}
