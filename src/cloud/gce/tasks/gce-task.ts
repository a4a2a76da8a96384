import { NotSupportedError } from '../../../errors/not-supported-error';
import { ChangeRefusedError } from '../../../tasks/change-refused-error';
import { Change, Task, taskKey } from '../../../tasks/task';
import type { TerraformTarget } from '../../../tasks/terraform-target';
import type { GceCloud } from '../gce-cloud';
import type { GceCollection, GceResource } from '../gce-compute';
import { classifyGceError } from '../gce-errors';

/** The URL GCE stores references as: `https://www.googleapis.com/compute/v1/projects/p/<path>`. */
export function gceUrl(cloud: GceCloud, path: string): string {
  return `https://www.googleapis.com/compute/v1/projects/${cloud.project}/${path}`;
}

/** The last segment of a resource URL (its name), or undefined. */
export function lastSegment(url: unknown): string | undefined {
  return typeof url === 'string' ? url.split('/').pop() : undefined;
}

/** A desired field's value: what GCE resources hold (scalars, lists, maps of labels). */
export type GceValue = string | number | boolean | readonly string[] | Readonly<Record<string, string>> | undefined;

/**
 * The common part of the GCE tasks: the desired state as a flat record, a field-by-field diff (an unset
 * desired field means "don't care"), refusals of immutable fields, and direct apply: find reads the run's
 * inventory (a list per collection), apply inserts (409: found, go on) or updates in place.
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

  /** Reads the resource from the inventory (one list per collection and scope per run); undefined when absent. */
  async find(cloud: GceCloud): Promise<D | undefined> {
    const r = await this.read(cloud);
    return r === undefined ? undefined : this.actualOf(r, cloud);
  }

  /** The resource as GCE has it; tasks without direct apply refuse. */
  protected read(cloud: GceCloud): Promise<GceResource | undefined> {
    void cloud;
    return Promise.reject(new NotSupportedError(`${this.kind}/${this.name}: direct apply on GCE is not built for this resource yet; use --target terraform`));
  }

  /** The desired-state view of what GCE returned. */
  protected actualOf(r: GceResource, cloud: GceCloud): D {
    void r;
    void cloud;
    return this.desired;
  }

  /**
   * Inserts, and on 409 (the name is taken: an earlier attempt whose answer was lost, or a racing run) finds
   * it and goes on; the inventory is dropped so that dependants see it.
   */
  protected async insert(cloud: GceCloud, collection: GceCollection, where: string | undefined, body: GceResource): Promise<void> {
    try {
      await cloud.compute.insert(collection, where, body);
    } catch (e) {
      if (classifyGceError(e) !== 'already-exists') throw e;
      // Taken: made by an earlier attempt (maybe a killed run, its operation still running). Find it before
      // going on, so that what depends on it is not inserted before it exists.
      for (let i = 0; ; i++) {
        cloud.inventory.invalidate();
        if ((await this.read(cloud)) !== undefined) break;
        if (i >= 7) throw e;
        await new Promise((r) => setTimeout(r, 250 * 2 ** i));
      }
    }
    cloud.inventory.invalidate();
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

  /** Creates the resource, or changes it in place (`update`); tasks without direct apply refuse. */
  async apply(cloud: GceCloud, actual: D | undefined, changes: readonly Change[]): Promise<void> {
    if (actual === undefined) await this.create(cloud);
    else await this.update(cloud, changes);
    cloud.inventory.invalidate();
  }

  /** Makes the resource. */
  protected create(cloud: GceCloud): Promise<void> {
    void cloud;
    return Promise.reject(new NotSupportedError(`${this.kind}/${this.name}: direct apply on GCE is not built for this resource yet; use --target terraform`));
  }

  /** Changes an existing resource; by default nothing is changeable in place. */
  protected update(cloud: GceCloud, changes: readonly Change[]): Promise<void> {
    void cloud;
    return Promise.reject(new ChangeRefusedError(taskKey(this), changes[0], 'kforge does not change it in place on GCE'));
  }
}
