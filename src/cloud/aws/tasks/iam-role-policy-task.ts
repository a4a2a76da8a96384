import type { TerraformTarget } from '../../../tasks/terraform-target';
import { diffFields } from '../../../tasks/diff-fields';
import type { AnyTask, Change } from '../../../tasks/task';
import type { AwsCloud } from '../aws-cloud';
import { findHostedZoneId, literalHostedZoneId } from '../find-hosted-zone-id';
import { HostedZoneNotResolvedError } from '../hosted-zone-not-resolved-error';
import { canonicalPolicy, IamPolicyDocument } from '../iam-policy-document';
import { AwsTask } from './aws-task';
import type { IamRoleTask } from './iam-role-task';

/** The actual state of a role's inline policy. */
export interface IamRolePolicyActual {
  /** The document as canonical JSON. */
  policy: string;
}

/**
 * Stands for the cluster's hosted zone id in a policy document until the task knows it: the model is pure
 * and a zone given by name has its id only in AWS (kops's PolicyResource waits for its DNSZone task the same way).
 */
export const HOSTED_ZONE_ID = '${kforge:hosted-zone-id}';

/** The hosted zone a policy's HOSTED_ZONE_ID stands for: `spec.dnsZone` (a name or an id) and whether it is private. */
export interface PolicyHostedZone {
  dnsZone: string;
  privateZone: boolean;
}

/**
 * The one inline policy of a role, named like the role (as kops does). Documents are compared as canonical
 * JSON, because IAM returns them URL-encoded with its own key order; PutRolePolicy both creates and replaces.
 */
export class IamRolePolicyTask extends AwsTask<IamRolePolicyActual> {
  readonly kind = 'IAMRolePolicy';

  constructor(
    name: string,
    readonly desired: { role: IamRoleTask; policy: IamPolicyDocument; hostedZone?: PolicyHostedZone },
  ) {
    super(name);
    this.zoneId = desired.hostedZone ? literalHostedZoneId(desired.hostedZone.dnsZone) : undefined;
  }

  /** The resolved id of `desired.hostedZone`. */
  private zoneId: string | undefined;

  /** Finds the id of the policy's hosted zone (a zone name is looked up), before a plan or a Terraform render. */
  async resolveHostedZone(cloud: AwsCloud): Promise<void> {
    const z = this.desired.hostedZone;
    if (z && this.zoneId === undefined) this.zoneId = await findHostedZoneId(cloud, z.dnsZone, z.privateZone);
  }

  /** Sets the hosted zone id without asking a cloud (rendering with a known zone, tests). */
  useHostedZoneId(id: string): void {
    this.zoneId = id;
  }

  /** The document as it is sent: HOSTED_ZONE_ID replaced by the zone's id. */
  policy(): IamPolicyDocument {
    if (!this.desired.hostedZone) return this.desired.policy;
    if (this.zoneId === undefined) throw new HostedZoneNotResolvedError(`IAMRolePolicy/${this.name}`);
    return JSON.parse(JSON.stringify(this.desired.policy).split(HOSTED_ZONE_ID).join(this.zoneId)) as IamPolicyDocument;
  }

  override dependencies(): readonly AnyTask<AwsCloud>[] {
    return [this.desired.role];
  }

  renderTerraform(t: TerraformTarget): void {
    const policy = t.addFile('aws_iam_role_policy', this.name, 'policy', `${JSON.stringify(this.policy(), null, 2)}\n`);
    t.addResource(this, 'aws_iam_role_policy', { name: this.name, policy, role: t.reference(this.desired.role, 'name') });
  }

  async find(cloud: AwsCloud): Promise<IamRolePolicyActual | undefined> {
    await this.resolveHostedZone(cloud);
    // A role that does not exist yet has no policy: no call needed.
    if (this.desired.role.arn.peek() === undefined) return undefined;
    const document = await cloud.inventory.iamRolePolicy(this.desired.role.name, this.name);
    return document === undefined ? undefined : { policy: canonicalPolicy(document) };
  }

  diff(actual: IamRolePolicyActual | undefined): Change[] {
    return diffFields(actual as unknown as Record<string, unknown>, { policy: canonicalPolicy(this.policy()) });
  }

  async apply(cloud: AwsCloud): Promise<void> {
    const { sdk, client } = await cloud.iam();
    await client.send(new sdk.PutRolePolicyCommand({ RoleName: this.desired.role.name, PolicyName: this.name, PolicyDocument: JSON.stringify(this.policy()) }));
  }
}
