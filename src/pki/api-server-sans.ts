import type { Cluster } from '../api/types';
import { Cidr } from '../net/cidr';

/** subjectAltNames of a kube-apiserver serving certificate. */
export interface ServingSans {
  dnsNames: string[];
  ipAddresses: string[];
}

/**
 * The SANs every API server certificate needs, from the completed spec: the public and internal API
 * names, the in-cluster service names, the first service IP (the `kubernetes` Service's ClusterIP),
 * 127.0.0.1 (the local health checks), plus additional SANs and what the node adds (its own IPs).
 */
export function apiServerSans(completed: Cluster, extra: Partial<ServingSans> = {}): ServingSans {
  const spec = completed.spec;
  const domain = spec.clusterDNSDomain ?? 'cluster.local';
  const names = [
    spec.masterPublicName ?? `api.${completed.metadata.name}`,
    spec.masterInternalName ?? `api.internal.${completed.metadata.name}`,
    'kubernetes',
    'kubernetes.default',
    'kubernetes.default.svc',
    `kubernetes.default.svc.${domain}`,
    ...(spec.additionalSans ?? []),
    ...(spec.api?.additionalSANs ?? []),
    ...(extra.dnsNames ?? []),
  ];
  const serviceRange = spec.serviceClusterIPRange;
  if (!serviceRange) throw new Error(`cluster ${completed.metadata.name} has no serviceClusterIPRange; expand the spec first`);
  const ips = [Cidr.parse(serviceRange.split(',')[0]).address(1), '127.0.0.1', ...(extra.ipAddresses ?? [])];
  // Additional SANs may be IPs; they belong in the IP list, where clients look for them.
  const isIp = (s: string) => Cidr.tryParse(`${s}/${s.includes(':') ? 128 : 32}`) !== undefined;
  return {
    dnsNames: unique(names.filter((n) => !isIp(n))),
    ipAddresses: unique([...ips, ...names.filter(isIp)]),
  };
}

function unique(values: string[]): string[] {
  return [...new Set(values)];
}
