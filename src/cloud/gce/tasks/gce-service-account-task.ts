import { HclExpression, TerraformTarget } from '../../../tasks/terraform-target';
import type { GceCloud } from '../gce-cloud';
import type { GceResource } from '../gce-compute';
import { classifyGceError } from '../gce-errors';
import type { Change } from '../../../tasks/task';
import { GceTask } from './gce-task';

/** The desired service account of a role (kops's gcetasks.ServiceAccount). */
export interface GceServiceAccountDesired extends Record<string, string | readonly string[] | undefined> {
  /** kops's account id: `<role>-<cluster>` cut to 30 characters with a hash. */
  accountId: string;
  project: string;
  description: string;
  displayName: string;
}

/**
 * The service account the instances of a role run as, when the spec names none (`gceServiceAccount`); the
 * control plane's gets kops's one project role (`roles/container.serviceAgent`) through a binding.
 */
export class GceServiceAccountTask extends GceTask<GceServiceAccountDesired> {
  readonly kind = 'ServiceAccount';
  protected override readonly immutable = ['accountId', 'project'] as const;

  constructor(
    name: string,
    desired: GceServiceAccountDesired,
    /** Project roles bound to the account. */
    readonly projectRoles: readonly string[],
  ) {
    super(name, desired);
  }

  /** None. */
  dependencies(): readonly never[] {
    return [];
  }

  /** The account's email, as IAM makes it from the account id. */
  email(): string {
    return `${this.desired.accountId}@${this.desired.project}.iam.gserviceaccount.com`;
  }

  /** The account by email in the project's list. */
  protected override async read(cloud: GceCloud): Promise<GceResource | undefined> {
    return (await cloud.inventory.serviceAccounts(this.desired.project)).find((a) => a.email === this.email());
  }

  /** Its id, project and texts, and (read from the project's policy) the project roles it holds of those the model binds. */
  override async find(cloud: GceCloud): Promise<GceServiceAccountDesired | undefined> {
    const r = await this.read(cloud);
    if (!r) return undefined;
    const member = `serviceAccount:${this.email()}`;
    const bindings = this.projectRoles.length > 0 ? ((await cloud.inventory.projectPolicy()).bindings ?? []) : [];
    const roles = this.projectRoles.filter((role) => bindings.some((b) => b.role === role && b.members.includes(member)));
    return { accountId: this.desired.accountId, project: this.desired.project, description: (r.description as string | undefined) ?? '', displayName: (r.displayName as string | undefined) ?? '', projectRoles: roles };
  }

  /** The desired fields and the project roles. */
  override diff(actual: GceServiceAccountDesired | undefined): Change[] {
    const changes = super.diff(actual);
    const have = (actual?.projectRoles ?? []) as readonly string[];
    if (JSON.stringify(have) !== JSON.stringify(this.projectRoles) && (actual !== undefined || this.projectRoles.length > 0)) changes.push({ field: 'projectRoles', from: actual?.projectRoles, to: this.projectRoles });
    return changes.sort((a, b) => (a.field < b.field ? -1 : 1));
  }

  /** Creates the account (409: it exists, go on), then binds its project roles. */
  protected override async create(cloud: GceCloud): Promise<void> {
    const d = this.desired;
    try {
      await cloud.compute.iam('serviceAccounts.create', 'POST', `projects/${d.project}/serviceAccounts`, { accountId: d.accountId, serviceAccount: { displayName: d.displayName, description: d.description } });
    } catch (e) {
      if (classifyGceError(e) !== 'already-exists') throw e;
    }
    await this.bindRoles(cloud);
  }

  /**
   * Sends changed texts with IAM's `serviceAccounts.patch` (its update mask names only what differs), then
   * binds missing project roles (a read-modify-write of the project's policy).
   */
  protected override async update(cloud: GceCloud, changes: readonly Change[]): Promise<void> {
    const texts = changes.map((c) => c.field).filter((f): f is 'description' | 'displayName' => f === 'description' || f === 'displayName').sort();
    if (texts.length > 0) {
      const d = this.desired;
      const serviceAccount = Object.fromEntries(texts.map((f) => [f, d[f]]));
      await cloud.compute.iam('serviceAccounts.patch', 'PATCH', `projects/${d.project}/serviceAccounts/${encodeURIComponent(this.email())}`, { serviceAccount, updateMask: texts.join(',') });
    }
    if (changes.some((c) => c.field === 'projectRoles')) await this.bindRoles(cloud);
  }

  private async bindRoles(cloud: GceCloud): Promise<void> {
    if (this.projectRoles.length === 0) return;
    const member = `serviceAccount:${this.email()}`;
    await cloud.compute.updateProjectPolicy((bindings) => {
      for (const role of this.projectRoles) {
        const binding = bindings.find((b) => b.role === role);
        if (!binding) bindings.push({ role, members: [member] });
        else if (!binding.members.includes(member)) binding.members.push(member);
      }
      return bindings;
    });
  }

  /** `google_service_account`, and one `google_project_iam_binding` per project role, named as kops's. */
  renderTerraform(t: TerraformTarget): void {
    const d = this.desired;
    t.addResource(this, 'google_service_account', { account_id: d.accountId, description: d.description, display_name: d.displayName, project: d.project });
    const email = t.reference(this, 'email');
    for (const role of this.projectRoles) {
      t.addResource({ kind: 'ProjectIamBinding', name: `serviceaccount-${this.name}` }, 'google_project_iam_binding', { members: [new HclExpression(() => `format("serviceAccount:%s", ${email.toString()})`)], project: d.project, role });
    }
  }
}
