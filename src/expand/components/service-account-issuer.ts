import type { ClusterSpec } from '../../api/types';
import type { ExpandContext } from '../expand-context';

/**
 * The service-account issuer URL, by kops's rules (pkg/model/iam ServiceAccountIssuer): the discovery
 * store's public HTTPS address when `serviceAccountIssuerDiscovery.discoveryStore` is set, so that cloud
 * IAM (IRSA, workload identity) can fetch the OIDC documents without reaching the API server; otherwise
 * `https://api.internal.<cluster>`. Undefined when the store's scheme has no public address (validation
 * reports it).
 */
export function serviceAccountIssuer(spec: ClusterSpec, ctx: Pick<ExpandContext, 'clusterName'>): string | undefined {
  const store = spec.serviceAccountIssuerDiscovery?.discoveryStore;
  if (!store) return `https://${spec.masterInternalName ?? `api.internal.${ctx.clusterName}`}`;
  return discoveryStoreHttpsUrl(store, clusterRegion(spec));
}

/**
 * The public HTTPS URL of a discovery store: `s3://b/k` → `https://b.s3.<region>.amazonaws.com/k` (the
 * bucket is taken to be in the cluster's region: kforge resolves nothing online), `gs://b/k` →
 * `https://storage.googleapis.com/b/k`, and kops's test scheme `memfs://host/k` → `https://host/k`.
 */
export function discoveryStoreHttpsUrl(store: string, region: string | undefined): string | undefined {
  const m = /^(s3|gs|memfs):\/\/([^/]+)(\/.*)?$/.exec(store.trim());
  if (!m) return undefined;
  const [, scheme, bucket, rest = ''] = m;
  const key = rest.replace(/\/+$/, '');
  if (scheme === 's3') return region ? `https://${bucket}.s3.${region}.amazonaws.com${key}` : undefined;
  if (scheme === 'gs') return `https://storage.googleapis.com/${bucket}${key}`;
  return `https://${bucket}${key}`;
}

function clusterRegion(spec: ClusterSpec): string | undefined {
  for (const s of spec.subnets ?? []) {
    if (s.region) return s.region;
    if (s.zone) return s.zone.replace(/[a-z]$/, '');
  }
  return undefined;
}
