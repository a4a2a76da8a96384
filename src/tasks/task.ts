import type { TerraformTarget } from './terraform-target';

/** One field of a resource that differs between the actual and the desired state. */
export interface Change {
  /** Field name, e.g. `cidr` or `tags.Name`. */
  field: string;
  /** The actual value; undefined when the resource does not exist or the field is unset. */
  from: unknown;
  /** The desired value. */
  to: unknown;
}

/**
 * One cloud resource instance the model wants to exist, kops's find → diff → check → apply contract.
 * `C` is the cloud handle the task talks to, `A` the actual state it finds. A task never calls another
 * task's SDK code: it reads the outputs (ids) of the tasks it depends on, which are set once they exist.
 */
export interface Task<C = unknown, A = unknown> {
  /** Resource type, e.g. `Vpc`; with `name` it identifies the task. */
  readonly kind: string;
  /** Resource name, unique per kind, e.g. `us-east-1a.example.com`. */
  readonly name: string;
  /** The tasks that must exist before this one (a subnet needs its VPC). */
  dependencies(): readonly Task<C>[];
  /** Reads the actual resource, undefined when it does not exist; sets this task's outputs when it does. */
  find(cloud: C): Promise<A | undefined>;
  /** Field-by-field differences from `actual` to the desired state; a desired field left unset means "don't care". */
  diff(actual: A | undefined): Change[];
  /** Throws a ChangeRefusedError for changes that cannot be applied (an immutable field). */
  check(actual: A | undefined, changes: readonly Change[]): void;
  /** Creates or updates the resource so that `changes` disappear; sets this task's outputs. */
  apply(cloud: C, actual: A | undefined, changes: readonly Change[]): Promise<void>;
  /** Adds the task's resources to the Terraform output (`update cluster --target terraform`); a task without a Terraform form throws TerraformNotSupportedError. */
  renderTerraform(target: TerraformTarget): void;
}

/** A task with any cloud and actual-state type, as graphs and executors hold them. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyTask<C = any> = Task<C, any>;

/** The identity of a task in messages and maps: `Kind/name`. */
export function taskKey(task: { kind: string; name: string }): string {
  return `${task.kind}/${task.name}`;
}
