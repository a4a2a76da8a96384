import { KforgeError } from '../errors/kforge-error';

/** A task was asked to render Terraform, which kforge does not support yet (a later issue adds it). */
export class TerraformNotSupportedError extends KforgeError {
  constructor(kind: string) {
    super('NOT_SUPPORTED', `rendering ${kind} as Terraform is not supported yet; use the direct target`);
  }
}
