import { gceMetadataBase } from '../cloud/gce/gce-instance-identity';
import { KOPS_CONTROLLER_PORT } from './kops-controller-port';
import { NodeIdentityError } from './node-identity-error';

/** The Authorization scheme of a GCE node's proof: `x-gce-identity <Google's instance identity token>` (kforge's; kops sends a TPM signature). */
export const GCE_TOKEN_PREFIX = 'x-gce-identity ';

/** The audience a GCE node asks Google for and the service requires: the service's own URL, whatever address reaches it. */
export function gceIdentityAudience(cluster: string): string {
  return `https://kops-controller.internal.${cluster}:${KOPS_CONTROLLER_PORT}`;
}

const TIMEOUT_MS = 5000;
// A JWT with the compute_engine claims is about 1 KiB; anything far larger is not the metadata server's.
const MAX_TOKEN = 16 * 1024;

/**
 * Google's instance identity token for `audience` (the node-identity service's URL), from this VM's metadata
 * server (`instance/service-accounts/default/identity?audience=…&format=full`, `Metadata-Flavor: Google`):
 * an RS256 JWT signed by Google naming the project, zone, instance id and name. GCE_METADATA_HOST moves the
 * server (tests). The token is good for an hour and only at services that accept that audience.
 */
export async function fetchGceIdentityToken(audience: string, env: NodeJS.ProcessEnv = process.env): Promise<string> {
  const url = `${gceMetadataBase(env)}/instance/service-accounts/default/identity?audience=${encodeURIComponent(audience)}&format=full`;
  let res: Response;
  try {
    res = await fetch(url, { headers: { 'Metadata-Flavor': 'Google' }, signal: AbortSignal.timeout(TIMEOUT_MS) });
  } catch (e) {
    throw new NodeIdentityError(`cannot get an identity token from the GCE metadata server (${url}): ${e instanceof Error ? e.message : String(e)}`);
  }
  const text = (await res.text()).trim();
  if (!res.ok) throw new NodeIdentityError(`the GCE metadata server answered HTTP ${res.status} for this instance's identity token (${url})`);
  if (text.length > MAX_TOKEN || !/^[\w-]+\.[\w-]+\.[\w-]+$/.test(text)) throw new NodeIdentityError(`the GCE metadata server's identity token (${url}) is not a JWT`);
  return text;
}
