import { KforgeError } from '../../errors/kforge-error';

/**
 * protokube could not apply the bootstrap channel: the channel or a manifest in the state store is not
 * kops's format, or the API server refused an object (a field-manager conflict, an invalid object, a kind it
 * does not serve). The message names the addon, the object (kind, namespace/name) and the API server's reason.
 */
export class AddonApplyError extends KforgeError {
  constructor(message: string) {
    super('ADDON_APPLY_FAILED', message);
  }
}
