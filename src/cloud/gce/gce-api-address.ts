import { GceNames } from '../../model/gce/gce-names';
import type { GceCloud } from './gce-cloud';
import { GCE_COLLECTIONS } from './gce-compute';

/**
 * The API's address on GCE for a cluster without DNS, as kops's GetApiIngressStatus finds it: the region's
 * forwarding rules named `api-…` with the cluster's label, an external one's IP first (the `api-<cluster>`
 * address, with `api.loadBalancer.type: Public`), else an internal one's (the `api-<subnet>-<cluster>`
 * address); the lowest IP of the kind, so the answer is stable. Undefined before the load balancer exists.
 * One list call.
 */
export async function findGceApiAddress(cloud: GceCloud): Promise<string | undefined> {
  const compute = await cloud.connectCompute();
  const safe = GceNames.safeClusterName(cloud.clusterName);
  const rules = (await compute.list(GCE_COLLECTIONS.forwardingRules, cloud.region)).filter(
    (r) => String(r.name).startsWith('api-') && (r.labels as Record<string, string> | undefined)?.['k8s-io-cluster-name'] === safe && typeof r.IPAddress === 'string' && r.IPAddress,
  );
  const internal = (scheme: unknown): boolean => typeof scheme === 'string' && scheme.startsWith('INTERNAL');
  for (const wantInternal of [false, true]) {
    const ips = rules.filter((r) => internal(r.loadBalancingScheme) === wantInternal).map((r) => String(r.IPAddress));
    if (ips.length > 0) return ips.sort()[0];
  }
  return undefined;
}
