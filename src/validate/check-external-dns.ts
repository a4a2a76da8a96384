import type { Cluster } from '../api/types';
import type { FieldError } from '../errors/field-error';

/**
 * `externalDns.provider`: kforge runs no DNS addon; protokube keeps the API and etcd records that kops's
 * dns-controller keeps, so `dns-controller` (kops's default) is accepted and `external-dns` is refused.
 */
export function checkExternalDns(cluster: Cluster): FieldError[] {
  const provider = (cluster.spec.externalDns as { provider?: unknown } | undefined)?.provider;
  if (provider === undefined || provider === 'dns-controller') return [];
  return [{
    object: `Cluster/${cluster.metadata.name}`,
    path: 'spec.externalDns.provider',
    message: `"${String(provider)}" is not supported yet: kforge renders no external-dns addon; protokube keeps the cluster's own records (kops's dns-controller role)`,
  }];
}
