import type { Cluster } from '../../api/types';
import { awsResourceName32 } from '../../cloud/aws/aws-resource-name32';
import { clusterTags } from '../../cloud/aws/aws-tags';
import { DnsRecordTask } from '../../cloud/aws/tasks/dns-record-task';
import { ListenerTask } from '../../cloud/aws/tasks/listener-task';
import { NetworkLoadBalancerTask } from '../../cloud/aws/tasks/network-load-balancer-task';
import { SecurityGroupRuleSpec, SecurityGroupRuleTask } from '../../cloud/aws/tasks/security-group-rule-task';
import { SecurityGroupTask } from '../../cloud/aws/tasks/security-group-task';
import type { SubnetTask } from '../../cloud/aws/tasks/subnet-task';
import { TargetGroupTask } from '../../cloud/aws/tasks/target-group-task';
import type { AnyTask } from '../../tasks/task';
import { KOPS_CONTROLLER_PORT } from '../../node-identity/kops-controller-port';
import type { NetworkTasks } from './network-model-builder';
import type { SecurityGroupTasks } from './security-group-model-builder';
import { securityGroupRuleName } from './security-group-rule-name';
import { UnsupportedModelError } from './unsupported-model-error';
import { tcpTargetGroup } from './tcp-target-group';

/** The API endpoint's tasks, with the target groups the control-plane Auto Scaling groups must register in. */
export interface ApiEndpointTasks {
  tasks: AnyTask[];
  /** The API load balancer's target groups (none without a load balancer): attach them to every control-plane ASG. */
  controlPlaneTargetGroups: TargetGroupTask[];
  /** The API load balancer, when the spec has one (workers of a cluster without DNS reach the node-identity service through it). */
  loadBalancer?: NetworkLoadBalancerTask;
}

/**
 * kops's APILoadBalancerBuilder (Network class) and DNS records, pure. With `spec.api.loadBalancer`: a
 * network load balancer (internet-facing or internal by its type) in one subnet per zone, a TCP 443 target
 * group for the control plane, a TCP 443 listener, and the load balancer's own security group `api-elb.<c>`
 * (apiLoadBalancerRules): clients reach the load balancer from kubernetesApiAccess, the control plane
 * only from it. With DNS (`spec.networking.topology.dns` Public or Private, not
 * gossip): `api.<cluster>` and `api.internal.<cluster>` A records in `spec.dnsZone`, aliases to the load
 * balancer where there is one (the internal name only with useForInternalApi), else kops's placeholders.
 */
export function buildApiEndpointTasks(cluster: Cluster, network: NetworkTasks, securityGroups: SecurityGroupTasks): ApiEndpointTasks {
  const c = cluster.metadata.name;
  const spec = cluster.spec;
  const labels = { ...(spec.cloudLabels ?? {}) };
  const tasks: AnyTask[] = [];
  const controlPlaneTargetGroups: TargetGroupTask[] = [];
  const lbSpec = spec.api?.loadBalancer;
  let nlb: NetworkLoadBalancerTask | undefined;

  if (lbSpec) {
    const f = 'spec.api.loadBalancer';
    if (lbSpec.class === 'Classic') throw new UnsupportedModelError(`${f}.class`, 'a Classic load balancer (use Network)');
    // The expansion makes a load balancer without a type Public, as kops does; anything else is not a type.
    if (lbSpec.type !== 'Public' && lbSpec.type !== 'Internal') throw new UnsupportedModelError(`${f}.type`, `load balancer type "${String(lbSpec.type)}" (Public or Internal)`);
    if (lbSpec.sslCertificate) throw new UnsupportedModelError(`${f}.sslCertificate`, 'a TLS listener');
    if (lbSpec.securityGroupOverride) throw new UnsupportedModelError(`${f}.securityGroupOverride`, 'a load balancer security group of your own');
    if (lbSpec.additionalSecurityGroups?.length) throw new UnsupportedModelError(`${f}.additionalSecurityGroups`, 'additional load balancer security groups');
    if (lbSpec.accessLog) throw new UnsupportedModelError(`${f}.accessLog`, 'load balancer access logs');

    const dashed = c.replace(/\./g, '-');
    const lbGroup = new SecurityGroupTask(`api-elb.${c}`, { vpc: network.vpc, description: 'Security group for api ELB', tags: clusterTags(c, `api-elb.${c}`, labels) });
    tasks.push(lbGroup, ...apiLoadBalancerRules(cluster, lbGroup, securityGroups.controlPlane));
    nlb = new NetworkLoadBalancerTask(`api-${dashed}`, {
      loadBalancerName: awsResourceName32(c, 'api'),
      scheme: lbSpec.type === 'Internal' ? 'internal' : 'internet-facing',
      subnets: loadBalancerSubnets(cluster, network, lbSpec.type),
      securityGroups: [lbGroup],
      crossZoneLoadBalancing: lbSpec.crossZoneLoadBalancing === true,
      // kops names the load balancer's Name tag after the API's DNS name, not after the ELB name.
      tags: clusterTags(c, `api.${c}`, labels),
    });
    const tg = tcpTargetGroup(c, 'tcp', 443, network, labels);
    const listener = new ListenerTask(`api-${dashed}-443`, { loadBalancer: nlb, port: 443, targetGroup: tg });
    tasks.push(nlb, tg, listener);
    controlPlaneTargetGroups.push(tg);
    if (usesNoneDns(cluster)) {
      const kc = kopsControllerListener(cluster, nlb, lbGroup, securityGroups, network, labels);
      tasks.push(...kc.tasks);
      controlPlaneTargetGroups.push(kc.targetGroup);
    }
  }

  const dnsType = spec.topology?.dns?.type ?? 'Public';
  const gossip = c.endsWith('.k8s.local');
  if (dnsType !== 'None' && !gossip) {
    if (!spec.dnsZone) throw new UnsupportedModelError('spec.dnsZone', 'DNS records without spec.dnsZone (finding the zone from the cluster name)');
    const record = (name: string, alias: boolean): DnsRecordTask =>
      new DnsRecordTask(name.replace(/\.$/, ''), {
        dnsZone: spec.dnsZone as string,
        privateZone: dnsType === 'Private',
        subtree: name === c || name.endsWith(`.${c}`) ? c : name,
        target: alias && nlb ? { loadBalancer: nlb } : { placeholder: true },
      });
    tasks.push(record(spec.api?.publicName ?? spec.masterPublicName ?? `api.${c}`, true));
    tasks.push(record(spec.masterInternalName ?? `api.internal.${c}`, lbSpec?.useForInternalApi === true));
  }
  return { tasks, controlPlaneTargetGroups, loadBalancer: nlb };
}

/** kops's UsesNoneDNS (and UsesLoadBalancerForKopsController): `spec.topology.dns.type: None`, which `.k8s.local` names default to. */
function usesNoneDns(cluster: Cluster): boolean {
  return (cluster.spec.topology?.dns?.type ?? (cluster.metadata.name.endsWith('.k8s.local') ? 'None' : 'Public')) === 'None';
}

/**
 * Without DNS, workers reach the node-identity service (docs/node-identity.md) through the API load
 * balancer, as kops's UsesLoadBalancerForKopsController: a TCP 3988 target group of the control plane, a 3988
 * listener, every node's traffic to the load balancer, and 3988 from the load balancer to the control plane.
 * kops health-checks HTTPS /healthz; kforge's target group task checks TCP (the service answers on the port).
 */
function kopsControllerListener(cluster: Cluster, nlb: NetworkLoadBalancerTask, lbGroup: SecurityGroupTask, securityGroups: SecurityGroupTasks, network: NetworkTasks, labels: Record<string, string>): { tasks: AnyTask[]; targetGroup: TargetGroupTask } {
  const c = cluster.metadata.name;
  const targetGroup = tcpTargetGroup(c, 'kops-controller', KOPS_CONTROLLER_PORT, network, labels);
  const listener = new ListenerTask(`api-${c.replace(/\./g, '-')}-${KOPS_CONTROLLER_PORT}`, { loadBalancer: nlb, port: KOPS_CONTROLLER_PORT, targetGroup });
  const rules = [
    new SecurityGroupRuleTask('node-to-elb', { group: lbGroup, direction: 'ingress', protocol: '-1', sourceGroup: securityGroups.nodes }),
    new SecurityGroupRuleTask('kops-controller-elb-to-cp', { group: securityGroups.controlPlane, direction: 'ingress', protocol: 'tcp', fromPort: KOPS_CONTROLLER_PORT, toPort: KOPS_CONTROLLER_PORT, sourceGroup: lbGroup }),
  ];
  return { tasks: [targetGroup, listener, ...rules], targetGroup };
}

/**
 * The rules of the API load balancer's group and the control plane's side of it, as kops's
 * APILoadBalancerBuilder (pkg/model/awsmodel/api_loadbalancer.go, current master): egress anywhere; 443 from
 * each kubernetesApiAccess entry, with ICMP "fragmentation needed" (type 3, code 4; ICMPv6 for an IPv6
 * source) for path-MTU discovery; the control plane takes 443 (clients and health checks) and that ICMP from
 * the group, and the group that ICMP back from the control plane.
 */
function apiLoadBalancerRules(cluster: Cluster, lbGroup: SecurityGroupTask, controlPlane: SecurityGroupTask): SecurityGroupRuleTask[] {
  const rules: SecurityGroupRuleTask[] = [];
  const directional = (r: SecurityGroupRuleSpec): void => void rules.push(new SecurityGroupRuleTask(securityGroupRuleName(r), r));
  for (const cidr of ['0.0.0.0/0', '::/0']) directional({ group: lbGroup, direction: 'egress', protocol: '-1', cidr });
  for (const cidr of cluster.spec.kubernetesApiAccess ?? []) {
    directional({ group: lbGroup, direction: 'ingress', protocol: 'tcp', fromPort: 443, toPort: 443, cidr });
    const ipv6 = cidr.includes(':');
    const ipv4 = !ipv6 && !cidr.startsWith('pl-');
    if (!ipv4) rules.push(new SecurityGroupRuleTask(`icmpv6-pmtu-api-elb-${cidr}`, { group: lbGroup, direction: 'ingress', protocol: 'icmpv6', cidr }));
    if (!ipv6) rules.push(new SecurityGroupRuleTask(`icmp-pmtu-api-elb-${cidr}`, { group: lbGroup, direction: 'ingress', protocol: 'icmp', fromPort: 3, toPort: 4, cidr }));
  }
  rules.push(
    new SecurityGroupRuleTask('https-elb-to-master', { group: controlPlane, direction: 'ingress', protocol: 'tcp', fromPort: 443, toPort: 443, sourceGroup: lbGroup }),
    new SecurityGroupRuleTask('icmp-pmtu-elb-to-cp', { group: controlPlane, direction: 'ingress', protocol: 'icmp', fromPort: 3, toPort: 4, sourceGroup: lbGroup }),
    new SecurityGroupRuleTask('icmp-pmtu-cp-to-elb', { group: lbGroup, direction: 'ingress', protocol: 'icmp', fromPort: 3, toPort: 4, sourceGroup: controlPlane }),
  );
  return rules;
}

/**
 * The load balancer's subnets, as kops picks them: the named ones of `spec.api.loadBalancer.subnets`, or else
 * one per zone among the public and utility subnets (a Public load balancer; utility preferred) or the
 * private ones (Internal), ties broken by name.
 */
function loadBalancerSubnets(cluster: Cluster, network: NetworkTasks, type: 'Public' | 'Internal'): SubnetTask[] {
  const c = cluster.metadata.name;
  const byName = new Map(network.subnets.map((s) => [s.name, s]));
  const named = cluster.spec.api?.loadBalancer?.subnets ?? [];
  if (named.length > 0) {
    return named.map((s, i) => {
      const f = `spec.api.loadBalancer.subnets[${i}]`;
      if (s.privateIPv4Address || s.allocationId) throw new UnsupportedModelError(f, 'fixed load balancer addresses');
      const task = byName.get(`${s.name}.${c}`);
      if (!task) throw new UnsupportedModelError(`${f}.name`, `a subnet that is not in spec.subnets ("${s.name}")`);
      return task;
    });
  }
  const fits = (s: SubnetTask): boolean => (type === 'Public' ? s.desired.type === 'Public' || s.desired.type === 'Utility' : s.desired.type === 'Private');
  const score = (s: SubnetTask): number => (s.desired.type === 'Utility' ? 3 : 0);
  const best = new Map<string, SubnetTask>();
  for (const s of network.subnets.filter(fits)) {
    // An existing subnet given without its zone stands on its own (AWS refuses two subnets of one zone).
    const key = s.desired.zone ?? s.name;
    const cur = best.get(key);
    if (!cur || score(s) > score(cur) || (score(s) === score(cur) && s.name < cur.name)) best.set(key, s);
  }
  const chosen = [...best.keys()].sort().map((z) => best.get(z) as SubnetTask);
  if (chosen.length === 0) throw new UnsupportedModelError('spec.api.loadBalancer.type', `a ${type} load balancer without ${type === 'Public' ? 'public or utility' : 'private'} subnets`);
  return chosen;
}
