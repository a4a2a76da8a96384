import { KforgeError } from '../errors/kforge-error';

/** An asset could not be downloaded, or its sha256 is not the nodeup config's: nothing was installed. */
export class AssetError extends KforgeError {
  constructor(message: string) {
    super('ASSET_FAILED', message);
  }
}
