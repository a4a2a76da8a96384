import type { TerraformTarget } from '../../../tasks/terraform-target';
import { diffFields } from '../../../tasks/diff-fields';
import type { AnyTask, Change } from '../../../tasks/task';
import type { AwsCloud } from '../aws-cloud';
import { classifyAwsError } from '../aws-errors';
import { AwsTask } from './aws-task';
import type { IamInstanceProfileTask } from './iam-instance-profile-task';
import type { IamRoleTask } from './iam-role-task';

/** The role an instance profile holds (a profile holds at most one). */
export interface IamInstanceProfileRoleActual {
  roleName?: string;
}

/**
 * The role attached to an instance profile. Read from the profile's GetInstanceProfile answer (no extra
 * call); a profile holding another role has it removed first, because a profile holds only one.
 */
export class IamInstanceProfileRoleTask extends AwsTask<IamInstanceProfileRoleActual> {
  readonly kind = 'IAMInstanceProfileRole';

  constructor(
    name: string,
    readonly desired: { profile: IamInstanceProfileTask; role: IamRoleTask },
  ) {
    super(name);
  }

  override dependencies(): readonly AnyTask<AwsCloud>[] {
    return [this.desired.profile, this.desired.role];
  }

  renderTerraform(t: TerraformTarget): void {
    // aws_iam_instance_profile holds its role as an attribute: this task renders the profile's resource,
    // owned by the profile task so that launch templates' references to the profile resolve to it.
    const profile = this.desired.profile;
    t.addResource(profile, 'aws_iam_instance_profile', { name: profile.name, role: t.reference(this.desired.role, 'name'), tags: profile.desired.tags });
  }

  async find(cloud: AwsCloud): Promise<IamInstanceProfileRoleActual | undefined> {
    if (this.desired.profile.arn.peek() === undefined) return undefined;
    const profile = await cloud.inventory.instanceProfile(this.desired.profile.name);
    const roleName = profile?.Roles?.map((r) => r.RoleName).find((n) => n !== undefined);
    return roleName === undefined ? undefined : { roleName };
  }

  diff(actual: IamInstanceProfileRoleActual | undefined): Change[] {
    return diffFields(actual as unknown as Record<string, unknown>, { roleName: this.desired.role.name });
  }

  async apply(cloud: AwsCloud, actual: IamInstanceProfileRoleActual | undefined): Promise<void> {
    const { sdk, client } = await cloud.iam();
    const InstanceProfileName = this.desired.profile.name;
    if (actual?.roleName !== undefined && actual.roleName !== this.desired.role.name) {
      await client.send(new sdk.RemoveRoleFromInstanceProfileCommand({ InstanceProfileName, RoleName: actual.roleName }));
    }
    try {
      await client.send(new sdk.AddRoleToInstanceProfileCommand({ InstanceProfileName, RoleName: this.desired.role.name }));
    } catch (e) {
      // A resend after a lost answer finds the role attached already: that is the state wanted.
      if (classifyAwsError(e) !== 'already-exists') throw e;
    }
  }
}
