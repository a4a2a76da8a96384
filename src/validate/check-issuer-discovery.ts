import type { Cluster } from '../api/types';
import type { FieldError } from '../errors/field-error';
import { discoveryStoreHttpsUrl } from '../expand/components/service-account-issuer';

/** `serviceAccountIssuerDiscovery.discoveryStore` must be a store with a public HTTPS address (s3:// or gs://). */
export function checkIssuerDiscovery(cluster: Cluster): FieldError[] {
  const store = cluster.spec.serviceAccountIssuerDiscovery?.discoveryStore;
  if (store === undefined) return [];
  const object = `Cluster/${cluster.metadata.name}`;
  const path = 'spec.serviceAccountIssuerDiscovery.discoveryStore';
  if (!/^(s3|gs|memfs):\/\/[^/]+/.test(store)) {
    return [{ object, path, message: `"${store}" is not a discovery store: use s3://bucket/path or gs://bucket/path, which cloud IAM can read over HTTPS` }];
  }
  // The URL is a fixed part of every service-account token the cluster issues; an unreadable one breaks IRSA.
  if (!discoveryStoreHttpsUrl(store, 'region')) return [{ object, path, message: `"${store}" has no public HTTPS address` }];
  return [];
}
