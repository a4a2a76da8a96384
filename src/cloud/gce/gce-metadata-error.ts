import { KforgeError } from '../../errors/kforge-error';

/** GCE's metadata server could not be read, or did not describe this instance as kforge made it. */
export class GceMetadataError extends KforgeError {
  constructor(message: string) {
    super('GCE_METADATA_ERROR', message);
  }
}
