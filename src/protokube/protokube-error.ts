import { KforgeError } from '../errors/kforge-error';

/**
 * protokube could not finish a pass on a control-plane machine: the state store or the cloud refused, a
 * claimed volume's device never appeared, a format or mount failed. The message names the volume, device
 * or file, and what to check.
 */
export class ProtokubeError extends KforgeError {
  constructor(message: string) {
    super('PROTOKUBE_FAILED', message);
  }
}
