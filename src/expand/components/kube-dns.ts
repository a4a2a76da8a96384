import type { ClusterSpec } from '../../api/types';
import type { ExpandContext } from '../expand-context';
import { clusterDnsIp } from './network-defaults';

/** Cluster DNS (CoreDNS): the 10th service IP, the cluster domain, cache sizes and resources. */
export function expandKubeDNS(spec: ClusterSpec, ctx: ExpandContext): void {
  const c = (spec.kubeDNS ??= {});
  c.provider ??= 'CoreDNS';
  c.serverIP ??= clusterDnsIp(spec);
  c.domain ??= spec.clusterDNSDomain;
  c.coreDNSImage ??= `registry.k8s.io/coredns/coredns:v${ctx.versions.coredns}`;
  c.cacheMaxSize ??= 1000;
  c.cacheMaxConcurrent ??= 150;
  c.cpuRequest ??= '100m';
  c.memoryRequest ??= '70Mi';
  c.memoryLimit ??= '170Mi';
  c.nodeLocalDNS ??= { enabled: false };
}
