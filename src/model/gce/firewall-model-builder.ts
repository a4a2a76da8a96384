import type { Cluster, InstanceGroup } from '../../api/types';
import { GceFirewallRuleTask } from '../../cloud/gce/tasks/gce-firewall-rule-task';
import type { GceNetworkTask } from '../../cloud/gce/tasks/gce-network-task';
import { GceNames } from './gce-names';
import { usesIpAliases } from './network-model-builder';

/** kops's well-known ports (pkg/wellknownports) the rules open. */
const PORTS = { apiServer: 443, kubelet: 10250, kopsController: 3988, kcmMetrics: 10257, schedulerMetrics: 10259, kubeProxyMetrics: 10249, etcdMetrics: 2382, etcdEventsMetrics: 2384, nodeExporter: 9100, bgp: 179, vxlan: 8472 };

/** kops's health-check sources of Google's load balancers. */
const LB_HEALTH_CHECK_RANGES = ['35.191.0.0/16', '130.211.0.0/22', '209.85.204.0/22', '209.85.152.0/22'];

/** A rule before kops's IPv4/IPv6 split. */
interface Rule {
  allowed: readonly string[];
  sourceRanges: readonly string[];
  sourceTags: readonly string[];
  targetTags: readonly string[];
}

/** Whether the cluster's API has a load balancer (kops's UseLoadBalancerForAPI). */
export function usesApiLoadBalancer(cluster: Cluster): boolean {
  return cluster.spec.api?.loadBalancer !== undefined;
}

/**
 * The firewall rules of a GCE cluster, with kops's names, targets and sources (pkg/model/gcemodel/firewall.go,
 * external_access.go, api_loadbalancer.go): traffic inside the cluster by network tag, and from `sshAccess`,
 * `nodePortAccess` and `kubernetesApiAccess` by range, each of those as an IPv4 rule and its `-ipv6` twin (a
 * twin without sources of its family is rendered disabled, as kops does). Pure.
 */
export function buildGceFirewallTasks(cluster: Cluster, instanceGroups: readonly InstanceGroup[], network: GceNetworkTask): GceFirewallRuleTask[] {
  const name = cluster.metadata.name;
  const spec = cluster.spec;
  const networking = (spec.networking ?? {}) as Record<string, unknown>;
  const calico = networking.calico !== undefined;
  const cilium = networking.cilium !== undefined || networking.ciliumEtcd !== undefined;
  const tag = (role: 'control-plane' | 'master' | 'node' | 'bastion' | 'apiserver'): string => GceNames.tagForRole(name, role);
  const apiTargets = [tag('control-plane'), ...(instanceGroups.some((ig) => ig.spec.role === 'APIServer') ? [tag('apiserver')] : [])];
  const cpTags = [...apiTargets, tag('master')];
  const allProtocols = ['tcp', 'udp', 'icmp', 'esp', 'ah', 'sctp', ...(calico ? ['ipip'] : [])];
  const rules: GceFirewallRuleTask[] = [];
  const rule = (id: string, r: Rule, disabled = false): void => void rules.push(new GceFirewallRuleTask(GceNames.clusterSuffixed(id, name), { ...r, disabled }, network));
  // kops's AddFirewallRulesTasks: the ranges split by family; ICMP becomes ICMPv6 (58) in the twin.
  const twins = (id: string, r: Rule): void => {
    const v6 = (c: string): boolean => c.includes(':');
    const v4Ranges = r.sourceRanges.filter((c) => !v6(c));
    const v6Ranges = r.sourceRanges.filter(v6);
    const bySource = r.sourceTags.length > 0;
    rule(id, { ...r, sourceRanges: bySource ? r.sourceRanges : v4Ranges.length > 0 ? v4Ranges : ['0.0.0.0/0'] }, !bySource && v4Ranges.length === 0);
    rule(`${id}-ipv6`, { ...r, allowed: r.allowed.map((a) => (a === 'icmp' ? '58' : a)), sourceRanges: bySource ? r.sourceRanges : v6Ranges.length > 0 ? v6Ranges : ['::/0'] }, !bySource && v6Ranges.length === 0);
  };
  const none: readonly string[] = [];

  // firewall.go
  if (usesApiLoadBalancer(cluster)) rule('lb-health-checks', { allowed: ['tcp'], sourceRanges: LB_HEALTH_CHECK_RANGES, sourceTags: none, targetTags: apiTargets });
  rule('node-to-node', { allowed: allProtocols, sourceRanges: none, sourceTags: [tag('node')], targetTags: [tag('node')] });
  rule('master-to-master', { allowed: allProtocols, sourceRanges: none, sourceTags: cpTags, targetTags: cpTags });
  rule('master-to-node', { allowed: allProtocols, sourceRanges: none, sourceTags: cpTags, targetTags: [tag('node')] });
  const nodeToMaster = [PORTS.apiServer, PORTS.kubelet, PORTS.kopsController, PORTS.kcmMetrics, PORTS.schedulerMetrics, PORTS.kubeProxyMetrics, PORTS.etcdMetrics, PORTS.etcdEventsMetrics, PORTS.nodeExporter].map((p) => `tcp:${p}`);
  if (calico) nodeToMaster.push('ipip', `tcp:${PORTS.bgp}`);
  if (cilium) nodeToMaster.push(`udp:${PORTS.vxlan}`);
  rule('node-to-master', { allowed: nodeToMaster, sourceRanges: none, sourceTags: [tag('node')], targetTags: cpTags });
  if ((usesIpAliases(cluster) || networking.kubenet !== undefined) && spec.podCIDR) twins('pod-cidrs-to-node', { allowed: allProtocols, sourceRanges: [spec.podCIDR], sourceTags: none, targetTags: [tag('node')] });

  // external_access.go
  const ssh = spec.sshAccess ?? [];
  if (instanceGroups.some((ig) => ig.spec.role === 'Bastion')) {
    twins('ssh-external-to-bastion', { allowed: ['tcp:22'], sourceRanges: ssh, sourceTags: none, targetTags: [tag('bastion')] });
    twins('bastion-to-master-ssh', { allowed: ['tcp:22'], sourceRanges: none, sourceTags: [tag('bastion')], targetTags: cpTags });
    twins('bastion-to-node-ssh', { allowed: ['tcp:22'], sourceRanges: none, sourceTags: [tag('bastion')], targetTags: [tag('node')] });
  } else {
    twins('ssh-external-to-master', { allowed: ['tcp:22'], sourceRanges: ssh, sourceTags: none, targetTags: cpTags });
    twins('ssh-external-to-node', { allowed: ['tcp:22'], sourceRanges: ssh, sourceTags: none, targetTags: [tag('node')] });
  }
  const nodePorts = (spec.kubeAPIServer as { serviceNodePortRange?: string } | undefined)?.serviceNodePortRange ?? '30000-32767';
  twins('nodeport-external-to-node', { allowed: [`tcp:${nodePorts}`, `udp:${nodePorts}`], sourceRanges: spec.nodePortAccess ?? [], sourceTags: none, targetTags: [tag('node')] });
  const apiAccess = spec.kubernetesApiAccess ?? [];
  const podCidrToApi = (): void => {
    if (usesIpAliases(cluster) && spec.podCIDR) rule('pod-cidrs-to-https-api', { allowed: [`tcp:${PORTS.apiServer}`], sourceRanges: [spec.podCIDR], sourceTags: none, targetTags: apiTargets });
  };
  if (!usesApiLoadBalancer(cluster)) {
    twins('kubernetes-master-https', { allowed: [`tcp:${PORTS.apiServer}`], sourceRanges: apiAccess, sourceTags: none, targetTags: cpTags });
    podCidrToApi();
  } else {
    // api_loadbalancer.go
    twins('https-api', { allowed: [`tcp:${PORTS.apiServer}`], sourceRanges: apiAccess, sourceTags: none, targetTags: apiTargets });
    podCidrToApi();
    // kops's UsesLoadBalancerForKopsController: nodes reach kops-controller through the load balancer when the API has no DNS name.
    if (spec.topology?.dns?.type === 'None') twins('kops-controller', { allowed: [`tcp:${PORTS.kopsController}`], sourceRanges: apiAccess, sourceTags: none, targetTags: [tag('control-plane')] });
  }
  return rules;
}
