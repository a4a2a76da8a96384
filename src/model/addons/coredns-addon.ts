import type { Cluster } from '../../api/types';
import images from '../../expand/assets/addon-images/coredns.json';
import type { Addon, AddonBuilder, KubeObject } from './addon';

const NS = 'kube-system';
const RBAC = 'rbac.authorization.k8s.io/v1';
const SELECTOR = { matchLabels: { 'k8s-app': 'kube-dns' } };
const CRITICAL = [{ key: 'CriticalAddonsOnly', operator: 'Exists' }];
const CPA = images.images['cluster-proportional-autoscaler'];

/** Whether the cluster's names are published in DNS (kops's PublishesDNSRecords): not for `topology.dns.type: None` (and `*.k8s.local`). */
export function publishesDnsRecords(cluster: Cluster): boolean {
  const type = cluster.spec.topology?.dns?.type ?? (cluster.metadata.name.endsWith('.k8s.local') ? 'None' : 'Public');
  return type !== 'None';
}

/** kops's Corefile, or `kubeDNS.externalCoreFile` verbatim. Without published names, the API name resolves through the host's /etc/hosts (protokube writes it). */
function corefile(cluster: Cluster): string {
  const dns = cluster.spec.kubeDNS ?? {};
  if (dns.externalCoreFile) return dns.externalCoreFile;
  const forward = (dns.upstreamNameservers ?? []).join(' ') || '/etc/resolv.conf';
  const lines = [
    '.:53 {',
    '    errors',
    '    health {',
    '      lameduck 10s',
    '    }',
    '    ready',
    `    kubernetes ${dns.domain}. in-addr.arpa ip6.arpa {`,
    '      pods insecure',
    '      fallthrough in-addr.arpa ip6.arpa',
    '      ttl 30',
    '    }',
    ...(publishesDnsRecords(cluster) ? [] : [`    hosts /rootfs/etc/hosts ${cluster.spec.clusterDNSDomain} {`, '      ttl 30', '      fallthrough', '    }']),
    '    prometheus :9153',
    `    forward . ${forward} {`,
    '      max_concurrent 1000',
    '    }',
    '    cache 30',
    '    loop',
    '    reload',
    '    loadbalance',
    ...((dns.serverIP ?? '').includes(':') ? ['    dns64'] : []),
    '}',
  ];
  return lines.join('\n');
}

/** The CoreDNS Deployment: kops's spread over zones and hosts (its anti-affinity), probes, and the spec's image and resources. */
function deployment(cluster: Cluster): KubeObject {
  const dns = cluster.spec.kubeDNS ?? {};
  const hosts = !publishesDnsRecords(cluster);
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'coredns', namespace: NS, labels: { 'k8s-app': 'kube-dns', 'kubernetes.io/cluster-service': 'true', 'kubernetes.io/name': 'CoreDNS' } },
    spec: {
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: '10%' } },
      selector: SELECTOR,
      template: {
        metadata: { labels: { 'k8s-app': 'kube-dns' } },
        spec: {
          priorityClassName: 'system-cluster-critical',
          serviceAccountName: 'coredns',
          tolerations: dns.tolerations ?? CRITICAL,
          nodeSelector: { 'kubernetes.io/os': 'linux' },
          ...(dns.affinity ? { affinity: dns.affinity } : {}),
          topologySpreadConstraints: [
            { maxSkew: 1, topologyKey: 'topology.kubernetes.io/zone', whenUnsatisfiable: 'ScheduleAnyway', labelSelector: SELECTOR },
            { maxSkew: 1, topologyKey: 'kubernetes.io/hostname', whenUnsatisfiable: 'DoNotSchedule', nodeTaintsPolicy: 'Honor', labelSelector: SELECTOR },
          ],
          containers: [
            {
              name: 'coredns',
              image: dns.coreDNSImage,
              imagePullPolicy: 'IfNotPresent',
              resources: { limits: { memory: dns.memoryLimit }, requests: { cpu: dns.cpuRequest, memory: dns.memoryRequest } },
              args: ['-conf', '/etc/coredns/Corefile'],
              volumeMounts: [
                { name: 'config-volume', mountPath: '/etc/coredns', readOnly: true },
                ...(hosts ? [{ name: 'etc-hosts', mountPath: '/rootfs/etc/hosts', readOnly: true }] : []),
              ],
              ports: [
                { containerPort: 53, name: 'dns', protocol: 'UDP' },
                { containerPort: 53, name: 'dns-tcp', protocol: 'TCP' },
                { containerPort: 9153, name: 'metrics', protocol: 'TCP' },
              ],
              securityContext: { allowPrivilegeEscalation: false, capabilities: { add: ['NET_BIND_SERVICE'], drop: ['all'] }, readOnlyRootFilesystem: true },
              livenessProbe: { httpGet: { path: '/health', port: 8080, scheme: 'HTTP' }, initialDelaySeconds: 60, timeoutSeconds: 5, successThreshold: 1, failureThreshold: 5 },
              readinessProbe: { periodSeconds: 5, timeoutSeconds: 5, failureThreshold: 1, httpGet: { path: '/ready', port: 8181, scheme: 'HTTP' } },
            },
          ],
          dnsPolicy: 'Default',
          volumes: [
            { name: 'config-volume', configMap: { name: 'coredns' } },
            ...(hosts ? [{ name: 'etc-hosts', hostPath: { path: '/etc/hosts', type: 'File' } }] : []),
          ],
        },
      },
    },
  };
}

/** The cluster-proportional-autoscaler that sizes the CoreDNS Deployment, with its RBAC (kops's parameters). */
function autoscaler(cluster: Cluster): KubeObject[] {
  const dns = cluster.spec.kubeDNS ?? {};
  return [
    { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'coredns-autoscaler', namespace: NS } },
    {
      apiVersion: RBAC,
      kind: 'ClusterRole',
      metadata: { name: 'coredns-autoscaler' },
      rules: [
        { apiGroups: [''], resources: ['nodes'], verbs: ['list', 'watch'] },
        { apiGroups: [''], resources: ['replicationcontrollers/scale'], verbs: ['get', 'update'] },
        { apiGroups: ['extensions', 'apps'], resources: ['deployments/scale', 'replicasets/scale'], verbs: ['get', 'update'] },
        { apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'create'] },
      ],
    },
    {
      apiVersion: RBAC,
      kind: 'ClusterRoleBinding',
      metadata: { name: 'coredns-autoscaler' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'coredns-autoscaler' },
      subjects: [{ kind: 'ServiceAccount', name: 'coredns-autoscaler', namespace: NS }],
    },
    {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'coredns-autoscaler', namespace: NS, labels: { 'k8s-app': 'coredns-autoscaler', 'kubernetes.io/cluster-service': 'true' } },
      spec: {
        selector: { matchLabels: { 'k8s-app': 'coredns-autoscaler' } },
        template: {
          metadata: { labels: { 'k8s-app': 'coredns-autoscaler' } },
          spec: {
            containers: [
              {
                name: 'autoscaler',
                image: dns.cpaImage ?? `${CPA.image}:${CPA.tag}`,
                resources: { requests: { cpu: '20m', memory: '10Mi' } },
                command: [
                  '/cluster-proportional-autoscaler',
                  `--namespace=${NS}`,
                  '--configmap=coredns-autoscaler',
                  '--target=Deployment/coredns',
                  '--default-params={"linear":{"coresPerReplica":256,"nodesPerReplica":16,"preventSinglePointFailure":true}}',
                  '--logtostderr=true',
                  '--v=2',
                ],
              },
            ],
            priorityClassName: 'system-cluster-critical',
            tolerations: dns.tolerations ?? CRITICAL,
            serviceAccountName: 'coredns-autoscaler',
            nodeSelector: { 'kubernetes.io/os': 'linux' },
            ...(dns.affinity ? { affinity: dns.affinity } : {}),
          },
        },
      },
    },
  ];
}

/**
 * kops's `coredns.addons.k8s.io` k8s-1.12 (upup/models/cloudup/resources/addons/coredns.addons.k8s.io/k8s-1.12.yaml.template):
 * CoreDNS serving `kubeDNS.domain` at `kubeDNS.serverIP`, its RBAC, Corefile, PDB and autoscaler. Rendered when
 * `kubeDNS.provider` is CoreDNS (the default).
 */
export const corednsAddon: AddonBuilder = ({ cluster }): Addon[] => {
  const dns = cluster.spec.kubeDNS ?? {};
  if ((dns.provider ?? 'CoreDNS') !== 'CoreDNS') return [];
  const service = { 'k8s-app': 'kube-dns', 'kubernetes.io/cluster-service': 'true', 'kubernetes.io/name': 'CoreDNS' };
  const objects: KubeObject[] = [
    { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'coredns', namespace: NS, labels: { 'kubernetes.io/cluster-service': 'true' } } },
    {
      apiVersion: RBAC,
      kind: 'ClusterRole',
      metadata: { name: 'system:coredns', labels: { 'kubernetes.io/bootstrapping': 'rbac-defaults' } },
      rules: [
        { apiGroups: [''], resources: ['endpoints', 'services', 'pods', 'namespaces'], verbs: ['list', 'watch'] },
        { apiGroups: ['discovery.k8s.io'], resources: ['endpointslices'], verbs: ['list', 'watch'] },
      ],
    },
    {
      apiVersion: RBAC,
      kind: 'ClusterRoleBinding',
      metadata: { name: 'system:coredns', annotations: { 'rbac.authorization.kubernetes.io/autoupdate': 'true' }, labels: { 'kubernetes.io/bootstrapping': 'rbac-defaults' } },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'system:coredns' },
      subjects: [{ kind: 'ServiceAccount', name: 'coredns', namespace: NS }],
    },
    { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'coredns', namespace: NS, labels: { 'addonmanager.kubernetes.io/mode': 'EnsureExists' } }, data: { Corefile: corefile(cluster) } },
    deployment(cluster),
    {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'kube-dns', namespace: NS, labels: service, annotations: { 'prometheus.io/port': '9153', 'prometheus.io/scrape': 'true' } },
      spec: {
        selector: { 'k8s-app': 'kube-dns' },
        clusterIP: dns.serverIP,
        ports: [
          { name: 'dns', port: 53, protocol: 'UDP' },
          { name: 'dns-tcp', port: 53, protocol: 'TCP' },
          { name: 'metrics', port: 9153, protocol: 'TCP' },
        ],
      },
    },
    {
      apiVersion: 'policy/v1',
      kind: 'PodDisruptionBudget',
      metadata: { name: 'kube-dns', namespace: NS },
      spec: { selector: SELECTOR, maxUnavailable: '33%', unhealthyPodEvictionPolicy: 'AlwaysAllow' },
    },
    ...autoscaler(cluster),
  ];
  return [{ name: 'coredns.addons.k8s.io', id: 'k8s-1.12', objects }];
};
