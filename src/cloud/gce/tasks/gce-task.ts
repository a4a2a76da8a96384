import { NotSupportedError } from '../../../errors/not-supported-error';
import { ChangeRefusedError } from '../../../tasks/change-refused-error';
import { Change, Task, taskKey } from '../../../tasks/task';
import type { TerraformTarget } from '../../../tasks/terraform-target';
import type { GceCloud } from '../gce-cloud';

/** A desired field's value: what GCE resources hold (scalars, lists, maps of labels). */
export type GceValue = string | number | boolean | readonly string[] | Readonly<Record<string, string>> | undefined;

/**
 * The common part of the GCE tasks: the desired state as a flat record, a field-by-field diff (an unset
 * desired field means "don't care"), and refusals of immutable fields. Direct apply through the Compute API
 * is not built yet: find and apply say so, and `--target terraform` (which needs neither) renders the task.
 */
export abstract class GceTask<D extends Record<string, GceValue>> implements Task<GceCloud, D> {
  abstract readonly kind: string;
  /** Fields GCE cannot change in place (a network's mode, a subnetwork's region). */
  protected readonly immutable: readonly (keyof D & string)[] = [];

  constructor(
    readonly name: string,
    readonly desired: D,
  ) {}

  /** The tasks this one needs. */
  abstract dependencies(): readonly Task<GceCloud>[];
  /** Adds the task's `google_*` resource. */
  abstract renderTerraform(t: TerraformTarget): void;

  /** Not built yet: the direct target on GCE needs the Compute client (issue 21, step 4). */
  async find(): Promise<D | undefined> {
    throw new NotSupportedError(`${this.kind}/${this.name}: direct apply on GCE is not built yet; use --target terraform`);
  }

  /** Field-by-field differences; a desired field left undefined is not compared; lists and maps compare whole. */
  diff(actual: D | undefined): Change[] {
    const changes: Change[] = [];
    for (const field of Object.keys(this.desired).sort()) {
      const to = this.desired[field];
      if (to === undefined) continue;
      const from = actual?.[field];
      if (JSON.stringify(from) !== JSON.stringify(to)) changes.push({ field, from, to });
    }
    return changes;
  }

  /** Refuses changes of immutable fields of an existing resource. */
  check(actual: D | undefined, changes: readonly Change[]): void {
    if (!actual) return;
    const refused = changes.find((c) => (this.immutable as readonly string[]).includes(c.field));
    if (refused) throw new ChangeRefusedError(taskKey(this), refused, 'GCE cannot change it in place');
  }

  /** Not built yet, as find. */
  async apply(): Promise<void> {
    throw new NotSupportedError(`${this.kind}/${this.name}: direct apply on GCE is not built yet; use --target terraform`);
  }
}
