import type { HclExpression, TerraformTarget } from '../../../tasks/terraform-target';
import { SharedResourceError } from '../../../errors/shared-resource-error';
import { diffFields } from '../../../tasks/diff-fields';
import type { AnyTask, Change } from '../../../tasks/task';
import { TaskOutput } from '../../../tasks/task-output';
import type { AwsCloud } from '../aws-cloud';
import { tagMap, TagMap } from '../aws-tags';
import { AwsTask } from './aws-task';
import { describeIngress, extraIngressRules, RemoveExtraRules } from './extra-security-group-rules';
import type { IpPermission } from '@aws-sdk/client-ec2';
import type { VpcTask } from './vpc-task';
import { hclLiteral, SharedTerraformValue } from './shared-resource';

/** The actual state of a security group (its rules are SecurityGroupRule tasks). */
export interface SecurityGroupActual {
  id: string;
  groupName?: string;
  description?: string;
  vpcId?: string;
  tags: TagMap;
  /** Rules kforge owns that the model no longer has (with `removeExtraRules`), to revoke. */
  extraRules?: IpPermission[];
}

/** An existing security group (an instance group's `spec.securityGroupOverride`): its id, every one of the model (one load), and where the spec names it. */
export interface SharedSecurityGroupSpec {
  id: string;
  allIds: readonly string[];
  /** `InstanceGroup/<ig> spec.securityGroupOverride`, for errors. */
  field: string;
}

/**
 * A security group in the cluster's VPC, named like kops's (`masters.<cluster>`, `nodes.<cluster>`). With
 * `shared` it is an existing group (kops's `Shared: true`), found by id in the cluster's VPC and never
 * created, modified, tagged or deleted; no rule is added to it.
 */
export class SecurityGroupTask extends AwsTask<SecurityGroupActual> implements SharedTerraformValue {
  readonly kind = 'SecurityGroup';
  /** The group id, once it exists. */
  readonly id = new TaskOutput<string>(`SecurityGroup/${this.name} id`);
  protected override readonly immutable = {
    vpcId: 'a security group cannot move to another VPC',
    groupName: 'a security group keeps its name for life',
    description: 'a security group keeps its description for life',
  };

  constructor(
    name: string,
    readonly desired: { vpc: VpcTask; description: string; tags: TagMap; shared?: SharedSecurityGroupSpec; removeExtraRules?: RemoveExtraRules },
  ) {
    super(name);
  }

  terraformValue(attribute: string): HclExpression | undefined {
    return this.desired.shared && attribute === 'id' ? hclLiteral(this.desired.shared.id) : undefined;
  }

  override dependencies(): readonly AnyTask<AwsCloud>[] {
    return [this.desired.vpc];
  }

  renderTerraform(t: TerraformTarget): void {
    const d = this.desired;
    // A shared group is no resource of the cluster: launch templates name its id.
    if (d.shared) return;
    t.addResource(this, 'aws_security_group', { description: d.description, name: this.name, tags: d.tags, vpc_id: t.reference(d.vpc, 'id') });
  }

  async find(cloud: AwsCloud): Promise<SecurityGroupActual | undefined> {
    const shared = this.desired.shared;
    if (shared) {
      const g = (await cloud.inventory.sharedSecurityGroups(shared.allIds)).find((x) => x.GroupId === shared.id);
      if (!g?.GroupId) throw new SharedResourceError(shared.field, `security group ${shared.id} does not exist in ${cloud.region} (or this account cannot see it)`);
      const vpcId = this.desired.vpc.id.peek();
      if (g.VpcId !== vpcId) throw new SharedResourceError(shared.field, `security group ${shared.id} is in VPC ${g.VpcId}, not in the cluster's VPC ${vpcId ?? '(none)'}`);
      this.id.set(g.GroupId);
      return { id: g.GroupId, groupName: g.GroupName, description: g.Description, vpcId: g.VpcId, tags: tagMap(g.Tags) };
    }
    const g = this.pickOwn(cloud, await cloud.inventory.securityGroups(), (x) => x.GroupId);
    if (!g?.GroupId) return undefined;
    this.id.set(g.GroupId);
    const extraRules = this.desired.removeExtraRules ? extraIngressRules(g, this.desired.removeExtraRules) : [];
    return { id: g.GroupId, groupName: g.GroupName, description: g.Description, vpcId: g.VpcId, tags: tagMap(g.Tags), ...(extraRules.length > 0 ? { extraRules } : {}) };
  }

  diff(actual: SecurityGroupActual | undefined): Change[] {
    const d = this.desired;
    // A shared group is used as it is.
    if (d.shared) return [];
    const { extraRules, ...rest } = actual ?? ({} as Partial<SecurityGroupActual>);
    const changes = diffFields(actual ? (rest as Record<string, unknown>) : undefined, { groupName: this.name, description: d.description, vpcId: d.vpc.id.peek(), tags: d.tags });
    // Rules the model dropped (an address taken out of sshAccess, say): revoked, as kops's RemoveExtraRules.
    if (extraRules?.length) changes.push({ field: 'extraRules', from: extraRules.map(describeIngress).sort(), to: [] });
    return changes;
  }

  async apply(cloud: AwsCloud, actual: SecurityGroupActual | undefined, changes: readonly Change[]): Promise<void> {
    if (this.desired.shared) return;
    if (actual) {
      await this.updateTags(cloud, actual.id, changes);
      if (actual.extraRules?.length && changes.some((c) => c.field === 'extraRules')) {
        const { sdk, client } = await cloud.ec2();
        await client.send(new sdk.RevokeSecurityGroupIngressCommand({ GroupId: actual.id, IpPermissions: actual.extraRules }));
      }
      return;
    }
    const { sdk, client } = await cloud.ec2();
    const out = await client.send(
      new sdk.CreateSecurityGroupCommand({
        GroupName: this.name,
        Description: this.desired.description,
        VpcId: this.desired.vpc.id.get(),
        TagSpecifications: this.tagSpec('security-group', this.desired.tags),
      }),
    );
    if (!out.GroupId) throw new Error('CreateSecurityGroup returned no GroupId');
    this.id.set(out.GroupId);
  }
}
