import type { Cluster } from '../../api/types';
import type { Addon, AddonBuilder, KubeObject } from './addon';

const NS = 'kube-system';
/** kops's well-known port of the cache's health check (pkg/wellknownports). */
const HEALTH_PORT = 3989;

/** One server block of kops's node-local Corefile, forwarding to `upstream`. */
function block(zone: string, localIP: string, upstream: string, cache: string[], extra: string[] = []): string[] {
  return [`${zone}:53 {`, '    errors', ...cache, '    reload', '    loop', `    bind ${localIP}`, ...upstream.split('\n').map((l) => `    ${l}`), '    prometheus :9253', ...extra, '}'];
}

/** kops's node-local Corefile: the cluster domain (and, unless forwardToKubeDNS, the reverse zones) to CoreDNS, the rest upstream. */
function corefile(cluster: Cluster): string {
  const dns = cluster.spec.kubeDNS ?? {};
  const local = dns.nodeLocalDNS ?? {};
  const ip = local.localIP as string;
  // With kube-proxy in ipvs mode the cache talks to the DNS service IP; otherwise node-cache fills the placeholder in.
  const clusterIP = cluster.spec.kubeProxy?.proxyMode === 'ipvs' ? (dns.serverIP as string) : '__PILLAR__CLUSTER__DNS__';
  const toCoreDNS = `forward . ${clusterIP} {\n  force_tcp\n}`;
  const host = ip.includes(':') ? `[${ip}]` : ip;
  const lines = [...block(dns.domain as string, ip, toCoreDNS, ['    cache {', '      success 9984 30', '      denial 9984 5', '    }'], [`    health ${host}:${HEALTH_PORT}`])];
  if (local.forwardToKubeDNS) lines.push(...block('.', ip, toCoreDNS, ['    cache 30']));
  else {
    lines.push(...block('in-addr.arpa', ip, toCoreDNS, ['    cache 30']), ...block('ip6.arpa', ip, toCoreDNS, ['    cache 30']));
    lines.push(...block('.', ip, 'forward . __PILLAR__UPSTREAM__SERVERS__', ['    cache 30'], ip.includes(':') ? ['    dns64'] : []));
  }
  return lines.join('\n');
}

/**
 * kops's `nodelocaldns.addons.k8s.io` k8s-1.12 (upup/models/cloudup/resources/addons/nodelocaldns.addons.k8s.io/k8s-1.12.yaml.template):
 * a DNS cache on every node at `kubeDNS.nodeLocalDNS.localIP`, which kubelets hand to pods as their resolver (so
 * every machine is replaced when it changes). Rendered when CoreDNS is the provider and `nodeLocalDNS.enabled`.
 */
export const nodeLocalDnsAddon: AddonBuilder = ({ cluster }): Addon[] => {
  const dns = cluster.spec.kubeDNS ?? {};
  const local = dns.nodeLocalDNS ?? {};
  if ((dns.provider ?? 'CoreDNS') !== 'CoreDNS' || !local.enabled) return [];
  const reconcile = { 'addonmanager.kubernetes.io/mode': 'Reconcile' };
  const daemonSet: KubeObject = {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: { name: 'node-local-dns', namespace: NS, labels: { 'k8s-app': 'node-local-dns', 'kubernetes.io/cluster-service': 'true', ...reconcile } },
    spec: {
      updateStrategy: { type: 'OnDelete' },
      selector: { matchLabels: { 'k8s-app': 'node-local-dns' } },
      template: {
        metadata: { labels: { 'k8s-app': 'node-local-dns' }, annotations: { 'prometheus.io/port': '9253', 'prometheus.io/scrape': 'true' } },
        spec: {
          priorityClassName: 'system-node-critical',
          serviceAccountName: 'node-local-dns',
          hostNetwork: true,
          dnsPolicy: 'Default',
          tolerations: [
            { key: 'CriticalAddonsOnly', operator: 'Exists' },
            { effect: 'NoExecute', operator: 'Exists' },
            { effect: 'NoSchedule', operator: 'Exists' },
          ],
          containers: [
            {
              name: 'node-cache',
              image: local.image,
              resources: { requests: { cpu: String(local.cpuRequest), memory: String(local.memoryRequest) } },
              args: [`-localip=${local.localIP}`, '-conf=/etc/Corefile', '-upstreamsvc=kube-dns-upstream', '-setupiptables=false'],
              securityContext: { capabilities: { add: ['NET_ADMIN'] } },
              ports: [
                { containerPort: 53, name: 'dns', protocol: 'UDP' },
                { containerPort: 53, name: 'dns-tcp', protocol: 'TCP' },
                { containerPort: 9253, name: 'metrics', protocol: 'TCP' },
              ],
              livenessProbe: { httpGet: { host: local.localIP, path: '/health', port: HEALTH_PORT }, initialDelaySeconds: 60, timeoutSeconds: 5 },
              volumeMounts: [
                { mountPath: '/run/xtables.lock', name: 'xtables-lock', readOnly: false },
                { name: 'config-volume', mountPath: '/etc/coredns' },
                { name: 'kube-dns-config', mountPath: '/etc/kube-dns' },
              ],
            },
          ],
          volumes: [
            { name: 'xtables-lock', hostPath: { path: '/run/xtables.lock', type: 'FileOrCreate' } },
            { name: 'kube-dns-config', configMap: { name: 'kube-dns', optional: true } },
            { name: 'config-volume', configMap: { name: 'node-local-dns', items: [{ key: 'Corefile', path: 'Corefile.base' }] } },
          ],
        },
      },
    },
  };
  const objects: KubeObject[] = [
    { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'node-local-dns', namespace: NS, labels: { 'kubernetes.io/cluster-service': 'true', ...reconcile } } },
    {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'kube-dns-upstream', namespace: NS, labels: { 'k8s-app': 'kube-dns', 'kubernetes.io/cluster-service': 'true', ...reconcile, 'kubernetes.io/name': 'KubeDNSUpstream' } },
      spec: {
        ports: [
          { name: 'dns', port: 53, protocol: 'UDP', targetPort: 53 },
          { name: 'dns-tcp', port: 53, protocol: 'TCP', targetPort: 53 },
        ],
        selector: { 'k8s-app': 'kube-dns' },
      },
    },
    { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'node-local-dns', namespace: NS, labels: reconcile }, data: { Corefile: corefile(cluster) } },
    daemonSet,
  ];
  return [{ name: 'nodelocaldns.addons.k8s.io', id: 'k8s-1.12', needsRollingUpdate: 'all', objects }];
};
