import { GceApiError, GceComputeRest } from '../protokube/gce-compute-rest';
import type { GceInstanceFacts } from './gce-identity-verifier';

/**
 * Compute's instances.get for the node-identity service on a GCE control plane: the small REST client
 * protokube uses (the nodeup artifact carries no @google-cloud/compute), one per zone, with the control
 * plane's service-account token from the metadata server. Undefined when GCE answers 404.
 */
export function gceInstanceFacts(project: string, env: NodeJS.ProcessEnv = process.env): (zone: string, name: string) => Promise<GceInstanceFacts | undefined> {
  const clients = new Map<string, GceComputeRest>();
  return async (zone, name) => {
    let client = clients.get(zone);
    if (!client) clients.set(zone, (client = new GceComputeRest(project, zone, env)));
    let instance: { id?: string; name?: string; status?: string; labels?: Record<string, string>; metadata?: { items?: Array<{ key?: string; value?: string }> } };
    try {
      instance = await client.call('GET', `instances/${encodeURIComponent(name)}`);
    } catch (e) {
      if (e instanceof GceApiError && e.status === 404) return undefined;
      throw e;
    }
    const metadata = Object.fromEntries((instance.metadata?.items ?? []).filter((i) => typeof i.key === 'string').map((i) => [i.key as string, String(i.value ?? '')]));
    return { id: String(instance.id ?? ''), name: String(instance.name ?? name), status: String(instance.status ?? 'UNKNOWN'), labels: instance.labels ?? {}, metadata };
  };
}
