import type { TerraformTarget } from '../../../tasks/terraform-target';
import { diffFields } from '../../../tasks/diff-fields';
import type { AnyTask, Change } from '../../../tasks/task';
import type { AwsCloud } from '../aws-cloud';
import { canonicalPolicy, IamPolicyDocument } from '../iam-policy-document';
import { AwsTask } from './aws-task';
import type { IamRoleTask } from './iam-role-task';

/** The actual state of a role's inline policy. */
export interface IamRolePolicyActual {
  /** The document as canonical JSON. */
  policy: string;
}

/**
 * The one inline policy of a role, named like the role (as kops does). Documents are compared as canonical
 * JSON, because IAM returns them URL-encoded with its own key order; PutRolePolicy both creates and replaces.
 */
export class IamRolePolicyTask extends AwsTask<IamRolePolicyActual> {
  readonly kind = 'IAMRolePolicy';

  constructor(
    name: string,
    readonly desired: { role: IamRoleTask; policy: IamPolicyDocument },
  ) {
    super(name);
  }

  override dependencies(): readonly AnyTask<AwsCloud>[] {
    return [this.desired.role];
  }

  renderTerraform(t: TerraformTarget): void {
    const policy = t.addFile('aws_iam_role_policy', this.name, 'policy', `${JSON.stringify(this.desired.policy, null, 2)}\n`);
    t.addResource(this, 'aws_iam_role_policy', { name: this.name, policy, role: t.reference(this.desired.role, 'name') });
  }

  async find(cloud: AwsCloud): Promise<IamRolePolicyActual | undefined> {
    // A role that does not exist yet has no policy: no call needed.
    if (this.desired.role.arn.peek() === undefined) return undefined;
    const document = await cloud.inventory.iamRolePolicy(this.desired.role.name, this.name);
    return document === undefined ? undefined : { policy: canonicalPolicy(document) };
  }

  diff(actual: IamRolePolicyActual | undefined): Change[] {
    return diffFields(actual as unknown as Record<string, unknown>, { policy: canonicalPolicy(this.desired.policy) });
  }

  async apply(cloud: AwsCloud): Promise<void> {
    const { sdk, client } = await cloud.iam();
    await client.send(new sdk.PutRolePolicyCommand({ RoleName: this.desired.role.name, PolicyName: this.name, PolicyDocument: JSON.stringify(this.desired.policy) }));
  }
}
