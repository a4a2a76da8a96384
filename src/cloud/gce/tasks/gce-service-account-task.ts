import { HclExpression, TerraformTarget } from '../../../tasks/terraform-target';
import { GceTask } from './gce-task';

/** The desired service account of a role (kops's gcetasks.ServiceAccount). */
export interface GceServiceAccountDesired extends Record<string, string | undefined> {
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
