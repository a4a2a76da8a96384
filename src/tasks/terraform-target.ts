/**
 * A raw HCL expression (`aws_vpc.x.id`, `file("${path.module}/data/f")`), written as is. A function lets a
 * reference be resolved when the file is written, after every task has rendered (tasks render in any order).
 */
export class HclExpression {
  constructor(private readonly text: string | (() => string)) {}

  /** The expression's HCL text. */
  toString(): string {
    return typeof this.text === 'string' ? this.text : this.text();
  }
}

/** A nested block (`launch_template { … }`), as opposed to an object-valued attribute (`tags = { … }`). */
export class HclBlock {
  constructor(readonly body: HclBody) {}
}

/** A value of an attribute; undefined attributes are left out. A plain object is an HCL object (tags). */
export type HclValue = string | number | boolean | HclExpression | readonly HclValue[] | { readonly [key: string]: HclValue | undefined };

/** The body of a resource or block: attributes and nested blocks (an array of blocks repeats the block). */
export type HclBody = { readonly [key: string]: HclValue | HclBlock | readonly HclBlock[] | undefined };

/** Whatever identifies the task a resource is rendered for: references to the task resolve to that resource. */
export interface TerraformOwner {
  kind: string;
  name: string;
}

/** Where tasks render themselves for `update cluster --target terraform` (src/targets/terraform/). */
export interface TerraformTarget {
  /**
   * Adds the resource block `type` for `owner`, named after `name` (default the owner's name, dots to dashes),
   * and records it as the owner's resource for references.
   */
  addResource(owner: TerraformOwner, type: string, body: HclBody, name?: string): void;
  /** An expression for an attribute of the resource another task renders (`aws_vpc.x.id`), resolved when written. */
  reference(task: TerraformOwner, attribute: string): HclExpression;
  /**
   * Puts `content` in `data/<type>_<name>_<key>` (kops's file naming) and returns the expression reading it:
   * `file(...)`, or `filebase64(...)` for user-data.
   */
  addFile(type: string, name: string, key: string, content: string, encoding?: 'text' | 'base64'): HclExpression;
  /** Adds a data source block (`data "aws_route53_zone" "x"`) and returns its `id` expression. */
  addDataSource(type: string, name: string, body: HclBody): HclExpression;
}
