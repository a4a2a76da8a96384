import { createHash } from 'node:crypto';

/** A stored service account, as IAM's `projects.serviceAccounts` answers it. */
export interface FakeServiceAccount {
  name: string;
  projectId: string;
  uniqueId: string;
  email: string;
  displayName?: string;
  description?: string;
  etag: string;
  oauth2ClientId: string;
}

/** An IAM answer: status and JSON body. */
export interface IamAnswer {
  status: number;
  body: unknown;
}

/** IAM's error JSON (`google.rpc.Status` shape): `{"error":{"code","message","status"}}`. */
function failure(code: number, status: string, message: string): IamAnswer {
  return { status: code, body: { error: { code, message, status } } };
}

const CREATE_FIELDS = new Set(['accountId', 'serviceAccount']);
const ACCOUNT_FIELDS = new Set(['displayName', 'description']);

/**
 * The part of IAM v1 (`iam.googleapis.com/v1/projects/{p}/serviceAccounts`) kforge uses: create (409
 * ALREADY_EXISTS on a taken account id, 400 on unknown fields or an account id outside 6–30 of
 * `[a-z][-a-z0-9]*[a-z0-9]`), get, patch (texts only) and delete by email (404 NOT_FOUND), and list (`accounts`).
 */
export class IamFake {
  readonly accounts = new Map<string, FakeServiceAccount>();
  /** Project IAM policies (Cloud Resource Manager v1), by project. */
  readonly policies = new Map<string, { version: number; etag: string; bindings: Array<{ role: string; members: string[] }> }>();
  private policySeq = 0;

  /** Answers one request under `/v1/projects/`. */
  handle(method: string, path: string, body: Record<string, unknown>): IamAnswer {
    const crm = /^\/v1\/projects\/([^/:]+):(getIamPolicy|setIamPolicy)$/.exec(path);
    if (crm && method === 'POST') return this.policy(crm[1], crm[2], body);
    const m = /^\/v1\/projects\/([^/]+)\/serviceAccounts(?:\/([^/]+))?$/.exec(path);
    if (!m) return failure(404, 'NOT_FOUND', `No IAM route for ${method} ${path}`);
    const [, project, email] = m;
    if (!email && method === 'POST') return this.create(project, body);
    if (!email && method === 'GET') return { status: 200, body: { accounts: [...this.accounts.values()].filter((a) => a.projectId === project).sort((a, b) => (a.email < b.email ? -1 : 1)) } };
    const key = decodeURIComponent(email ?? '');
    const account = this.accounts.get(key);
    if (!account) return failure(404, 'NOT_FOUND', `Unknown service account`);
    if (method === 'GET') return { status: 200, body: account };
    if (method === 'DELETE') {
      this.accounts.delete(key);
      return { status: 200, body: {} };
    }
    if (method === 'PATCH') return this.patch(account, body);
    return failure(405, 'METHOD_NOT_ALLOWED', `${method} is not implemented by the fake IAM`);
  }

  /** `projects/{p}/serviceAccounts/{email}` of every account, for inventories. */
  inventory(): string[] {
    return [...this.accounts.values()].map((a) => a.name);
  }

  /**
   * Cloud Resource Manager v1 `projects.getIamPolicy` / `setIamPolicy`: read-modify-write guarded by the
   * policy's etag (409 ABORTED on a stale one, as CRM answers concurrent changes).
   */
  private policy(project: string, method: string, body: Record<string, unknown>): IamAnswer {
    const current = this.policies.get(project) ?? { version: 1, etag: 'BwAAAAAAAAA=', bindings: [] };
    if (method === 'getIamPolicy') {
      const unknown = Object.keys(body).find((k) => k !== 'options');
      if (unknown) return failure(400, 'INVALID_ARGUMENT', `Invalid JSON payload received. Unknown name "${unknown}": Cannot find field.`);
      return { status: 200, body: current };
    }
    const policy = body.policy as { etag?: string; version?: number; bindings?: Array<{ role: string; members: string[] }> } | undefined;
    const unknown = Object.keys(body).find((k) => k !== 'policy' && k !== 'updateMask') ?? Object.keys(policy ?? {}).find((k) => !['etag', 'version', 'bindings', 'auditConfigs'].includes(k));
    if (unknown || !policy) return failure(400, 'INVALID_ARGUMENT', `Invalid JSON payload received. Unknown name "${unknown ?? 'policy'}": Cannot find field.`);
    if (policy.etag !== undefined && policy.etag !== current.etag) return failure(409, 'ABORTED', 'There were concurrent policy changes. Please retry the whole read-modify-write with exponential backoff.');
    const next = { version: policy.version ?? 1, etag: Buffer.from(`etag-${++this.policySeq}`).toString('base64'), bindings: (policy.bindings ?? []).filter((b) => b.members.length > 0) };
    this.policies.set(project, next);
    return { status: 200, body: next };
  }

  /**
   * `projects.serviceAccounts.patch`: `{serviceAccount, updateMask}`, where the mask names only `displayName`
   * and/or `description` (IAM refuses any other field with 400, and an empty mask too).
   */
  private patch(account: FakeServiceAccount, body: Record<string, unknown>): IamAnswer {
    const unknown = Object.keys(body).find((k) => k !== 'serviceAccount' && k !== 'updateMask') ?? Object.keys((body.serviceAccount ?? {}) as object).find((k) => !ACCOUNT_FIELDS.has(k) && k !== 'etag' && k !== 'name');
    if (unknown) return failure(400, 'INVALID_ARGUMENT', `Invalid JSON payload received. Unknown name "${unknown}": Cannot find field.`);
    const mask = String(body.updateMask ?? '').split(',').filter((f) => f !== '');
    if (mask.length === 0 || mask.some((f) => !ACCOUNT_FIELDS.has(f))) return failure(400, 'INVALID_ARGUMENT', `Invalid update mask: "${String(body.updateMask ?? '')}"`);
    const sa = (body.serviceAccount ?? {}) as { displayName?: string; description?: string };
    for (const field of mask as Array<'displayName' | 'description'>) account[field] = sa[field];
    account.etag = Buffer.from(`${account.etag}+`).toString('base64').slice(0, 12);
    return { status: 200, body: account };
  }

  private create(project: string, body: Record<string, unknown>): IamAnswer {
    const unknown = Object.keys(body).find((k) => !CREATE_FIELDS.has(k)) ?? Object.keys((body.serviceAccount ?? {}) as object).find((k) => !ACCOUNT_FIELDS.has(k));
    if (unknown) return failure(400, 'INVALID_ARGUMENT', `Invalid JSON payload received. Unknown name "${unknown}": Cannot find field.`);
    const accountId = String(body.accountId ?? '');
    if (!/^[a-z][-a-z0-9]{4,28}[a-z0-9]$/.test(accountId)) return failure(400, 'INVALID_ARGUMENT', `Invalid account id: ${accountId}`);
    const email = `${accountId}@${project}.iam.gserviceaccount.com`;
    if (this.accounts.has(email)) return failure(409, 'ALREADY_EXISTS', `Service account ${accountId} already exists within project projects/${project}.`);
    const sa = (body.serviceAccount ?? {}) as { displayName?: string; description?: string };
    const uniqueId = String(BigInt(`0x${createHash('sha256').update(email).digest('hex').slice(0, 15)}`));
    const account: FakeServiceAccount = { name: `projects/${project}/serviceAccounts/${email}`, projectId: project, uniqueId, email, displayName: sa.displayName, description: sa.description, etag: 'MDEwMjE5MjA=', oauth2ClientId: uniqueId };
    this.accounts.set(email, account);
    return { status: 200, body: account };
  }
}
