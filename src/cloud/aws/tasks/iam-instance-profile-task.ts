import { diffFields } from '../../../tasks/diff-fields';
import { SharedResourceError } from '../../../errors/shared-resource-error';
import type { HclExpression } from '../../../tasks/terraform-target';
import type { Change } from '../../../tasks/task';
import { TaskOutput } from '../../../tasks/task-output';
import type { AwsCloud } from '../aws-cloud';
import { classifyAwsError } from '../aws-errors';
import { tagList, tagMap, TagMap } from '../aws-tags';
import { AwsTask } from './aws-task';
import { hclLiteral, SharedTerraformValue } from './shared-resource';

/** The actual state of an instance profile (its role is an IAMInstanceProfileRole task). */
export interface IamInstanceProfileActual {
  arn: string;
  tags: TagMap;
}

/**
 * An instance profile, the container launch templates name to give instances a role; named like its role.
 * With `shared` it is an existing profile (an instance group's `spec.iam.profile` ARN, named by the ARN's
 * last part): found and checked, never created, modified, tagged or deleted.
 */
export class IamInstanceProfileTask extends AwsTask<IamInstanceProfileActual> implements SharedTerraformValue {
  readonly kind = 'IAMInstanceProfile';
  /** The profile's ARN, once it exists. */
  readonly arn = new TaskOutput<string>(`IAMInstanceProfile/${this.name} arn`);

  constructor(
    name: string,
    readonly desired: { tags: TagMap; shared?: { arn: string; field: string } },
  ) {
    super(name);
  }

  terraformValue(attribute: string): HclExpression | undefined {
    const shared = this.desired.shared;
    if (!shared) return undefined;
    return hclLiteral(attribute === 'arn' ? shared.arn : this.name);
  }

  /** Nothing: the profile is rendered by its IAMInstanceProfileRole task, whose role is the resource's `role` (kops does the same). */
  renderTerraform(): void {}

  async find(cloud: AwsCloud): Promise<IamInstanceProfileActual | undefined> {
    const profile = await cloud.inventory.instanceProfile(this.name);
    const shared = this.desired.shared;
    if (shared) {
      if (profile?.Arn !== shared.arn) throw new SharedResourceError(shared.field, `instance profile ${shared.arn} does not exist${profile?.Arn ? ` (the profile named ${this.name} is ${profile.Arn})` : ''}`);
      this.arn.set(profile.Arn);
      return { arn: profile.Arn, tags: tagMap(profile.Tags) };
    }
    if (!profile?.Arn) return undefined;
    this.arn.set(profile.Arn);
    return { arn: profile.Arn, tags: tagMap(profile.Tags) };
  }

  diff(actual: IamInstanceProfileActual | undefined): Change[] {
    // A shared profile is used as it is.
    if (this.desired.shared) return [];
    return diffFields(actual as unknown as Record<string, unknown>, { tags: this.desired.tags });
  }

  async apply(cloud: AwsCloud, actual: IamInstanceProfileActual | undefined, changes: readonly Change[]): Promise<void> {
    if (this.desired.shared) return;
    const { sdk, client } = await cloud.iam();
    if (!actual) {
      try {
        const out = await client.send(new sdk.CreateInstanceProfileCommand({ InstanceProfileName: this.name, Path: '/', Tags: tagList(this.desired.tags) }));
        if (!out.InstanceProfile?.Arn) throw new Error('CreateInstanceProfile returned no Arn');
        this.arn.set(out.InstanceProfile.Arn);
        return;
      } catch (e) {
        // Made a moment ago and not readable yet at find (IAM is eventually consistent): take it as it is.
        if (classifyAwsError(e) !== 'already-exists') throw e;
      }
      const existing = await client.send(new sdk.GetInstanceProfileCommand({ InstanceProfileName: this.name }));
      if (existing.InstanceProfile?.Arn) this.arn.set(existing.InstanceProfile.Arn);
      await client.send(new sdk.TagInstanceProfileCommand({ InstanceProfileName: this.name, Tags: tagList(this.desired.tags) }));
      return;
    }
    const tags: TagMap = {};
    for (const c of changes) if (c.field.startsWith('tags.')) tags[c.field.slice(5)] = String(c.to);
    if (Object.keys(tags).length > 0) await client.send(new sdk.TagInstanceProfileCommand({ InstanceProfileName: this.name, Tags: tagList(tags) }));
  }
}
