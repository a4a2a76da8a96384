import type { TerraformTarget } from '../../../tasks/terraform-target';
import { diffFields } from '../../../tasks/diff-fields';
import type { Change } from '../../../tasks/task';
import { TaskOutput } from '../../../tasks/task-output';
import type { AwsCloud } from '../aws-cloud';
import { classifyAwsError } from '../aws-errors';
import { tagList, tagMap, TagMap } from '../aws-tags';
import { canonicalPolicy, IamPolicyDocument } from '../iam-policy-document';
import { AwsTask } from './aws-task';

/** The actual state of an IAM role. */
export interface IamRoleActual {
  arn: string;
  /** The trust policy as canonical JSON. */
  assumeRolePolicy?: string;
  tags: TagMap;
}

/** The trust policy of an instance role: EC2 instances may assume it. */
export const EC2_ASSUME_ROLE_POLICY: IamPolicyDocument = {
  Version: '2012-10-17',
  Statement: [{ Effect: 'Allow', Principal: { Service: 'ec2.amazonaws.com' }, Action: 'sts:AssumeRole' }],
};

/** An IAM role that instances assume through their instance profile, named like kops's (`masters.<cluster>`, `nodes.<cluster>`). */
export class IamRoleTask extends AwsTask<IamRoleActual> {
  readonly kind = 'IAMRole';
  /** The role's ARN, once it exists. */
  readonly arn = new TaskOutput<string>(`IAMRole/${this.name} arn`);

  constructor(
    name: string,
    readonly desired: { assumeRolePolicy: IamPolicyDocument; tags: TagMap },
  ) {
    super(name);
  }

  renderTerraform(t: TerraformTarget): void {
    // Policy documents go to data/ as kops does: long JSON reads (and diffs) better as a file.
    const policy = t.addFile('aws_iam_role', this.name, 'policy', `${JSON.stringify(this.desired.assumeRolePolicy, null, 2)}\n`);
    t.addResource(this, 'aws_iam_role', { assume_role_policy: policy, name: this.name, tags: this.desired.tags });
  }

  async find(cloud: AwsCloud): Promise<IamRoleActual | undefined> {
    const role = await cloud.inventory.iamRole(this.name);
    if (!role?.Arn) return undefined;
    this.arn.set(role.Arn);
    return { arn: role.Arn, assumeRolePolicy: role.AssumeRolePolicyDocument ? canonicalPolicy(role.AssumeRolePolicyDocument) : undefined, tags: tagMap(role.Tags) };
  }

  diff(actual: IamRoleActual | undefined): Change[] {
    return diffFields(actual as unknown as Record<string, unknown>, { assumeRolePolicy: canonicalPolicy(this.desired.assumeRolePolicy), tags: this.desired.tags });
  }

  async apply(cloud: AwsCloud, actual: IamRoleActual | undefined, changes: readonly Change[]): Promise<void> {
    const { sdk, client } = await cloud.iam();
    const document = JSON.stringify(this.desired.assumeRolePolicy);
    if (!actual) {
      try {
        const out = await client.send(new sdk.CreateRoleCommand({ RoleName: this.name, Path: '/', AssumeRolePolicyDocument: document, Tags: tagList(this.desired.tags) }));
        if (!out.Role?.Arn) throw new Error('CreateRole returned no Arn');
        this.arn.set(out.Role.Arn);
        return;
      } catch (e) {
        // IAM is eventually consistent: a role made by a lost or concurrent create may not be readable yet
        // when find ran. It is ours by name, so bring it to the desired state instead of failing.
        if (classifyAwsError(e) !== 'already-exists') throw e;
      }
      const existing = await client.send(new sdk.GetRoleCommand({ RoleName: this.name }));
      if (existing.Role?.Arn) this.arn.set(existing.Role.Arn);
      await client.send(new sdk.UpdateAssumeRolePolicyCommand({ RoleName: this.name, PolicyDocument: document }));
      await client.send(new sdk.TagRoleCommand({ RoleName: this.name, Tags: tagList(this.desired.tags) }));
      return;
    }
    if (changes.some((c) => c.field === 'assumeRolePolicy')) await client.send(new sdk.UpdateAssumeRolePolicyCommand({ RoleName: this.name, PolicyDocument: document }));
    const tags: TagMap = {};
    for (const c of changes) if (c.field.startsWith('tags.')) tags[c.field.slice(5)] = String(c.to);
    // TagRole overwrites values of the keys it is given; tags the model does not know are kept.
    if (Object.keys(tags).length > 0) await client.send(new sdk.TagRoleCommand({ RoleName: this.name, Tags: tagList(tags) }));
  }
}
