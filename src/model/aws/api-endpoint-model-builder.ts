import type { Cluster } from '../../api/types';
import { awsResourceName32 } from '../../cloud/aws/aws-resource-name32';
import { clusterTags } from '../../cloud/aws/aws-tags';
import { DnsRecordTask } from '../../cloud/aws/tasks/dns-record-task';
import { ListenerTask } from '../../cloud/aws/tasks/listener-task';
import { NetworkLoadBalancerTask } from '../../cloud/aws/tasks/network-load-balancer-task';
import { SecurityGroupRuleTask } from '../../cloud/aws/tasks/security-group-rule-task';
import type { SubnetTask } from '../../cloud/aws/tasks/subnet-task';
import { TargetGroupTask } from '../../cloud/aws/tasks/target-group-task';
import type { AnyTask } from '../../tasks/task';
import type { NetworkTasks } from './network-model-builder';
import type { SecurityGroupTasks } from './security-group-model-builder';
import { UnsupportedModelError } from './unsupported-model-error';

/** The API endpoint's tasks, with the target groups the control-plane Auto Scaling groups must register in. */
export interface ApiEndpointTasks {
  tasks: AnyTask[];
  /** The API load balancer's target groups (none without a load balancer): attach them to every control-plane ASG. */
  controlPlaneTargetGroups: TargetGroupTask[];
}

/**
 * kops's APILoadBalancerBuilder (Network class) and DNS records, pure. With `spec.api.loadBalancer`: a
 * network load balancer (internet-facing or internal by its type) in one subnet per zone, a TCP 443 target
 * group for the control plane, a TCP 443 listener, and 443 from the VPC CIDR to the control plane (the
 * NLB's health checks come from its addresses in the VPC; clients keep their own addresses, which
 * kubernetesApiAccess already admits). With DNS (`spec.networking.topology.dns` Public or Private, not
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
    if (lbSpec.type !== 'Public' && lbSpec.type !== 'Internal') throw new UnsupportedModelError(`${f}.type`, 'a load balancer without a type (Public or Internal)');
    if (lbSpec.sslCertificate) throw new UnsupportedModelError(`${f}.sslCertificate`, 'a TLS listener');
    if (lbSpec.securityGroupOverride) throw new UnsupportedModelError(`${f}.securityGroupOverride`, 'load balancer security groups');
    if (lbSpec.additionalSecurityGroups?.length) throw new UnsupportedModelError(`${f}.additionalSecurityGroups`, 'load balancer security groups');
    if (lbSpec.accessLog) throw new UnsupportedModelError(`${f}.accessLog`, 'load balancer access logs');

    const dashed = c.replace(/\./g, '-');
    nlb = new NetworkLoadBalancerTask(`api-${dashed}`, {
      loadBalancerName: awsResourceName32(c, 'api'),
      scheme: lbSpec.type === 'Internal' ? 'internal' : 'internet-facing',
      subnets: loadBalancerSubnets(cluster, network, lbSpec.type),
      crossZoneLoadBalancing: lbSpec.crossZoneLoadBalancing === true,
      // kops names the load balancer's Name tag after the API's DNS name, not after the ELB name.
      tags: clusterTags(c, `api.${c}`, labels),
    });
    const tgName = awsResourceName32(c, 'tcp');
    const tg = new TargetGroupTask(tgName, {
      vpc: network.vpc,
      protocol: 'TCP',
      port: 443,
      healthCheckProtocol: 'TCP',
      healthCheckIntervalSeconds: 10,
      healthyThreshold: 2,
      unhealthyThreshold: 2,
      // kops's: a control-plane instance leaving the group is drained in 30 s, and its connections are cut then.
      attributes: { 'deregistration_delay.timeout_seconds': '30', 'deregistration_delay.connection_termination.enabled': 'true' },
      tags: clusterTags(c, tgName, labels),
    });
    const listener = new ListenerTask(`api-${dashed}-443`, { loadBalancer: nlb, port: 443, targetGroup: tg });
    const healthChecks = new SecurityGroupRuleTask('https-elb-to-master', {
      group: securityGroups.controlPlane,
      direction: 'ingress',
      protocol: 'tcp',
      fromPort: 443,
      toPort: 443,
      cidr: spec.networkCIDR,
    });
    tasks.push(nlb, tg, listener, healthChecks);
    controlPlaneTargetGroups.push(tg);
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
  return { tasks, controlPlaneTargetGroups };
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
    const cur = best.get(s.desired.zone);
    if (!cur || score(s) > score(cur) || (score(s) === score(cur) && s.name < cur.name)) best.set(s.desired.zone, s);
  }
  const chosen = [...best.keys()].sort().map((z) => best.get(z) as SubnetTask);
  if (chosen.length === 0) throw new UnsupportedModelError('spec.api.loadBalancer.type', `a ${type} load balancer without ${type === 'Public' ? 'public or utility' : 'private'} subnets`);
  return chosen;
}
