import { ChangeRefusedError } from '../../../tasks/change-refused-error';
import { AnyTask, Change, Task, taskKey } from '../../../tasks/task';
import type { TerraformTarget } from '../../../tasks/terraform-target';
import type { AwsCloud } from '../aws-cloud';
import { tagList, TagMap } from '../aws-tags';

/**
 * What every AWS task shares: identity, refusal of changes to immutable fields, tag updates, and the
 * Terraform rendering every task implements.
 */
export abstract class AwsTask<A> implements Task<AwsCloud, A> {
  abstract readonly kind: string;
  /** Fields the cloud cannot change in place, with the reason shown when a change is refused. */
  protected readonly immutable: Readonly<Record<string, string>> = {};

  constructor(readonly name: string) {}

  dependencies(): readonly AnyTask<AwsCloud>[] {
    return [];
  }

  abstract find(cloud: AwsCloud): Promise<A | undefined>;
  abstract diff(actual: A | undefined): Change[];
  abstract apply(cloud: AwsCloud, actual: A | undefined, changes: readonly Change[]): Promise<void>;

  check(actual: A | undefined, changes: readonly Change[]): void {
    if (actual === undefined) return;
    for (const c of changes) {
      const reason = this.immutable[c.field];
      if (reason !== undefined && c.from !== undefined) throw new ChangeRefusedError(taskKey(this), c, reason);
    }
  }

  /** Adds this task's resource to the Terraform output (or nothing, where kops folds it into another resource). */
  abstract renderTerraform(target: TerraformTarget): void;

  /** Sets the tags that changed (CreateTags overwrites values; tags the model does not know are kept). */
  protected async updateTags(cloud: AwsCloud, id: string, changes: readonly Change[]): Promise<void> {
    const tags: TagMap = {};
    for (const c of changes) if (c.field.startsWith('tags.')) tags[c.field.slice(5)] = String(c.to);
    if (Object.keys(tags).length === 0) return;
    const { sdk, client } = await cloud.ec2();
    await client.send(new sdk.CreateTagsCommand({ Resources: [id], Tags: tagList(tags) }));
  }

  /**
   * The task's resource among `items`: the one whose Name tag is the task's name; with duplicates the one
   * with the lowest id, so that every run picks the same one. Every resource that has the name goes to the
   * run's inventory, so that the plan lists duplicates instead of silently using one of them.
   */
  protected pickOwn<T extends Tagged>(cloud: AwsCloud, items: readonly T[], id: (t: T) => string | undefined): T | undefined {
    const matches = namedMatches(items, this.name, id);
    cloud.inventory.recordNameMatches(this.kind, this.name, matches.map((m) => id(m) ?? ''));
    return matches[0];
  }

  /** TagSpecifications for a create, so the resource is tagged (and findable) from its first moment. */
  protected tagSpec<R extends string>(resourceType: R, tags: TagMap): { ResourceType: R; Tags: { Key: string; Value: string }[] }[] {
    return [{ ResourceType: resourceType, Tags: tagList(tags) }];
  }
}

/** A resource as EC2 describes it: with its tags. */
type Tagged = { Tags?: { Key?: string; Value?: string }[] };

/** Every resource among `items` whose Name tag is `name`, lowest id first. */
function namedMatches<T extends Tagged>(items: readonly T[], name: string, id: (t: T) => string | undefined): T[] {
  return items.filter((i) => i.Tags?.some((t) => t.Key === 'Name' && t.Value === name)).sort((a, b) => ((id(a) ?? '') < (id(b) ?? '') ? -1 : 1));
}
