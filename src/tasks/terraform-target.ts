/**
 * The slot a later Terraform target fills: tasks will add resource blocks to it. Nothing implements it
 * yet; it exists so that the Task interface does not have to be reshaped when Terraform output arrives.
 */
export interface TerraformTarget {
  /** Adds one resource block, e.g. `aws_vpc` named `example-com`. */
  addResource(type: string, name: string, body: Record<string, unknown>): void;
}
