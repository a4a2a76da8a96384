import type { ClusterSpec } from '../../api/types';
import type { ExpandContext } from '../expand-context';
import nodeLocalImages from '../assets/addon-images/nodelocaldns.json';
import { clusterDnsIp } from './network-defaults';

const NODE_CACHE = nodeLocalImages.images['k8s-dns-node-cache'];

/** Cluster DNS (CoreDNS): the 10th service IP, the cluster domain, cache sizes and resources; NodeLocal DNSCache's defaults. */
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
  // kops's defaults (pkg/model/components/kubedns.go): the requests and image always, the address and forwarding when enabled.
  const local = (c.nodeLocalDNS ??= {});
  local.enabled ??= false;
  if (local.enabled) {
    local.localIP ??= c.serverIP?.includes(':') ? 'fd00:90de:d95::1' : '169.254.20.10';
    local.forwardToKubeDNS ??= false;
  }
  local.memoryRequest ??= '5Mi';
  local.cpuRequest ??= '25m';
  local.image ??= `${NODE_CACHE.image}:${NODE_CACHE.tag}`;
}
