import { gceMetadataBase } from '../cloud/gce/gce-instance-identity';
import { googleErrorJson } from '../cloud/gce/google-error-json';
import { ProtokubeError } from './protokube-error';

/**
 * The few Compute Engine v1 REST calls protokube makes on a GCE control-plane machine, with the service
 * account's token from the metadata server. Not @google-cloud/compute: that client carries every Compute
 * API's protos (about 70 MB bundled) and the nodeup artifact every node downloads must stay small (under
 * 8 MB, test/e2e/nodeup-artifact.test.ts). The apply side (`update --yes`) uses @google-cloud/compute.
 * CLOUDSDK_API_ENDPOINT_OVERRIDES_COMPUTE (gcloud's variable, e.g. `https://compute.googleapis.com/compute/v1/`)
 * moves the API; GCE_METADATA_HOST moves the metadata server.
 */
export class GceComputeRest {
  private token: { value: string; expires: number } | undefined;

  constructor(
    readonly project: string,
    readonly zone: string,
    private readonly env: NodeJS.ProcessEnv = process.env,
  ) {}

  /** GET/POST `projects/<project>/zones/<zone>/<rest>`; the JSON answer, or a GceApiError with GCE's status and reason. */
  async call<T>(method: 'GET' | 'POST', rest: string, body?: unknown): Promise<T> {
    const base = (this.env.CLOUDSDK_API_ENDPOINT_OVERRIDES_COMPUTE || 'https://compute.googleapis.com/compute/v1/').replace(/\/?$/, '/');
    const url = `${base}projects/${encodeURIComponent(this.project)}/zones/${encodeURIComponent(this.zone)}/${rest}`;
    let res: Response;
    try {
      res = await fetch(url, {
        method,
        headers: { authorization: `Bearer ${await this.accessToken()}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(60_000),
      });
    } catch (e) {
      throw new ProtokubeError(`cannot reach the Compute API (${method} ${url}): ${e instanceof Error ? e.message : String(e)}`);
    }
    const text = await res.text();
    if (!res.ok) {
      const detail = googleErrorJson(text);
      throw new GceApiError(res.status, detail.errors[0]?.reason ?? '', `${method} ${rest}: HTTP ${res.status}${detail.message ? `: ${detail.message}` : ''}`);
    }
    return JSON.parse(text) as T;
  }

  /** The default service account's access token, from the metadata server, kept until a minute before it expires (Cloud DNS calls use it too). */
  async accessToken(): Promise<string> {
    if (this.token && this.token.expires > Date.now()) return this.token.value;
    const url = `${gceMetadataBase(this.env)}/instance/service-accounts/default/token`;
    let res: Response;
    try {
      res = await fetch(url, { headers: { 'Metadata-Flavor': 'Google' }, signal: AbortSignal.timeout(5_000) });
    } catch (e) {
      throw new ProtokubeError(`cannot get a token from the GCE metadata server (${url}): ${e instanceof Error ? e.message : String(e)}`);
    }
    if (!res.ok) throw new ProtokubeError(`the GCE metadata server answered HTTP ${res.status} for the service account's token`);
    const t = (await res.json()) as { access_token?: string; expires_in?: number };
    if (!t.access_token) throw new ProtokubeError('the GCE metadata server gave no access_token for the service account');
    this.token = { value: t.access_token, expires: Date.now() + Math.max(0, (t.expires_in ?? 0) - 60) * 1000 };
    return this.token.value;
  }
}

/** A Compute API call GCE refused: its HTTP status and the first `errors[].reason`. */
export class GceApiError extends ProtokubeError {
  constructor(
    readonly status: number,
    readonly reason: string,
    message: string,
  ) {
    super(message);
  }
}
