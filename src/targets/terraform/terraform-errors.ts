import { KforgeError } from '../../errors/kforge-error';

/** A task referred to another task that rendered no Terraform resource: a model or rendering bug. */
export class TerraformReferenceError extends KforgeError {
  constructor(from: string, to: string) {
    super('TERRAFORM_REFERENCE', `Terraform output: ${from} refers to ${to}, which renders no resource`);
  }
}

/** Two tasks would render resources (or data files) of the same Terraform address with different content. */
export class TerraformNameCollisionError extends KforgeError {
  constructor(address: string) {
    super('TERRAFORM_NAME_COLLISION', `Terraform output: two resources are named ${address}; rename one of the objects they come from`);
  }
}
