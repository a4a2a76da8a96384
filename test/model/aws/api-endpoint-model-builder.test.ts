import type { Cluster } from '../../../src/api/types';
import { awsResourceName32 } from '../../../src/cloud/aws/aws-resource-name32';
import { DnsRecordTask } from '../../../src/cloud/aws/tasks/dns-record-task';
import { NetworkLoadBalancerTask } from '../../../src/cloud/aws/tasks/network-load-balancer-task';
import { SecurityGroupRuleTask } from '../../../src/cloud/aws/tasks/security-group-rule-task';
import { newCluster } from '../../../src/create/new-cluster';
import { buildApiEndpointTasks, ApiEndpointTasks } from '../../../src/model/aws/api-endpoint-model-builder';
import { buildNetworkTasks } from '../../../src/model/aws/network-model-builder';
import { buildSecurityGroupTasks } from '../../../src/model/aws/security-group-model-builder';
import { completeCluster } from '../../../src/ops/expand-cluster';
import { taskKey } from '../../../src/tasks/task';

type Options = Parameters<typeof newCluster>[0];

function spec(options: Partial<Options> = {}, edit: (c: Cluster) => void = () => {}): Cluster {
  const { cluster, instanceGroups } = newCluster({ name: 'ep.example.com', zones: ['us-east-1a', 'us-east-1b'], ...options });
  const c = completeCluster(cluster, instanceGroups, 'memfs://store');
  edit(c);
  return c;
}

function build(c: Cluster): ApiEndpointTasks {
  const network = buildNetworkTasks(c);
  return buildApiEndpointTasks(c, network, buildSecurityGroupTasks(c, network.vpc));
}

const nlbOf = (e: ApiEndpointTasks) => e.tasks.find((t): t is NetworkLoadBalancerTask => t instanceof NetworkLoadBalancerTask);
const records = (e: ApiEndpointTasks) =>
  e.tasks.filter((t): t is DnsRecordTask => t instanceof DnsRecordTask).map((r) => `${r.name} ${'placeholder' in r.desired.target ? 'placeholder' : 'alias'} ${r.desired.privateZone ? 'private' : 'public'}`);

describe('awsResourceName32', () => {
  it('gives the names kops gives (FNV-1a, base32hex, always hashed, 32 characters at most)', () => {
    // Names from kops-generated Terraform of real clusters.
    expect(awsResourceName32('minimal-ipv6.example.com', 'tcp')).toBe('tcp-minimal-ipv6-example--bne5ih');
    expect(awsResourceName32('clusters.terra-hunter.com', 'tcp')).toBe('tcp-clusters-terra-hunter-6hri46');
    expect(awsResourceName32('cloud-fam.com', 'tcp')).toBe('tcp-cloud-fam-com-qk3bcf');
    expect(awsResourceName32('k8s.niteshnepali.com.np', 'bastion')).toBe('bastion-k8s-niteshnepali--trrutc');
    expect(awsResourceName32('a-very-long-cluster-name.with.many.labels.example.com', 'api')).toHaveLength(32);
  });
});

describe('buildApiEndpointTasks', () => {
  it('--dns none: an internet-facing NLB with its own security group in one public subnet per zone, a TCP target group, a listener', () => {
    const e = build(spec({ dns: 'none' }));
    // kops's api_loadbalancer.go: api-elb.<c> takes 443 (and path-MTU ICMP) from kubernetesApiAccess; the control plane takes 443 from it.
    expect(e.tasks.map(taskKey)).toEqual([
      'SecurityGroup/api-elb.ep.example.com',
      'SecurityGroupRule/from-api-elb.ep.example.com-egress-all-0to0-0.0.0.0/0',
      'SecurityGroupRule/from-api-elb.ep.example.com-egress-all-0to0-::/0',
      'SecurityGroupRule/from-0.0.0.0/0-ingress-tcp-443to443-api-elb.ep.example.com',
      'SecurityGroupRule/icmp-pmtu-api-elb-0.0.0.0/0',
      'SecurityGroupRule/from-::/0-ingress-tcp-443to443-api-elb.ep.example.com',
      'SecurityGroupRule/icmpv6-pmtu-api-elb-::/0',
      'SecurityGroupRule/https-elb-to-master',
      'SecurityGroupRule/icmp-pmtu-elb-to-cp',
      'SecurityGroupRule/icmp-pmtu-cp-to-elb',
      'NetworkLoadBalancer/api-ep-example-com',
      `TargetGroup/${awsResourceName32('ep.example.com', 'tcp')}`,
      'Listener/api-ep-example-com-443',
      // Without DNS, workers reach the node-identity service through the load balancer (kops's UsesLoadBalancerForKopsController, same names).
      `TargetGroup/${awsResourceName32('ep.example.com', 'kops-controller')}`,
      'Listener/api-ep-example-com-3988',
      'SecurityGroupRule/node-to-elb',
      'SecurityGroupRule/kops-controller-elb-to-cp',
    ]);
    const rules = e.tasks.filter((t): t is SecurityGroupRuleTask => t instanceof SecurityGroupRuleTask);
    const https = rules.find((r) => r.name === 'https-elb-to-master');
    expect(https?.desired).toMatchObject({ group: { name: 'masters.ep.example.com' }, sourceGroup: { name: 'api-elb.ep.example.com' }, protocol: 'tcp', fromPort: 443, toPort: 443 });
    expect(rules.find((r) => r.name === 'icmp-pmtu-api-elb-0.0.0.0/0')?.desired).toMatchObject({ protocol: 'icmp', fromPort: 3, toPort: 4, cidr: '0.0.0.0/0' });
    // The control plane no longer takes 443 from kubernetesApiAccess itself: only the load balancer's group does.
    const network = buildNetworkTasks(spec({ dns: 'none' }));
    const groups = buildSecurityGroupTasks(spec({ dns: 'none' }), network.vpc);
    const masters443 = groups.tasks.filter((t): t is SecurityGroupRuleTask => t instanceof SecurityGroupRuleTask && t.desired.group.name === 'masters.ep.example.com' && t.desired.fromPort === 443);
    expect(masters443).toEqual([]);
    expect(nlbOf(e)?.desired.securityGroups.map((g) => g.name)).toEqual(['api-elb.ep.example.com']);
    const nlb = nlbOf(e);
    expect(nlb?.desired.scheme).toBe('internet-facing');
    expect(nlb?.desired.loadBalancerName).toBe(awsResourceName32('ep.example.com', 'api'));
    expect(nlb?.desired.subnets.map((s) => s.name)).toEqual(['us-east-1a.ep.example.com', 'us-east-1b.ep.example.com']);
    expect(nlb?.desired.tags.Name).toBe('api.ep.example.com');
    expect(e.controlPlaneTargetGroups.map((t) => t.desired)).toMatchObject([
      { protocol: 'TCP', port: 443, healthCheckProtocol: 'TCP' },
      { protocol: 'TCP', port: 3988, healthCheckProtocol: 'TCP' },
    ]);
    expect(rules.find((r) => r.name === 'kops-controller-elb-to-cp')?.desired).toMatchObject({ group: { name: 'masters.ep.example.com' }, sourceGroup: { name: 'api-elb.ep.example.com' }, protocol: 'tcp', fromPort: 3988, toPort: 3988 });
    expect(rules.find((r) => r.name === 'node-to-elb')?.desired).toMatchObject({ group: { name: 'api-elb.ep.example.com' }, sourceGroup: { name: 'nodes.ep.example.com' }, protocol: '-1' });
  });

  it('an Internal load balancer uses the private subnets; a Public one in private topology the utility subnets', () => {
    const internal = build(spec({ dns: 'none', topology: 'private', networking: 'calico', apiLoadBalancerType: 'internal' }));
    expect(nlbOf(internal)?.desired.scheme).toBe('internal');
    expect(nlbOf(internal)?.desired.subnets.map((s) => s.name)).toEqual(['us-east-1a.ep.example.com', 'us-east-1b.ep.example.com']);
    const pub = build(spec({ dns: 'none', topology: 'private', networking: 'calico' }));
    expect(nlbOf(pub)?.desired.subnets.map((s) => s.name)).toEqual(['utility-us-east-1a.ep.example.com', 'utility-us-east-1b.ep.example.com']);
  });

  it('--dns public without a load balancer: two placeholder records and no target group', () => {
    const e = build(spec({ dns: 'public', dnsZone: 'example.com' }));
    expect(records(e)).toEqual(['api.ep.example.com placeholder public', 'api.internal.ep.example.com placeholder public']);
    expect(nlbOf(e)).toBeUndefined();
    expect(e.controlPlaneTargetGroups).toEqual([]);
  });

  it('--dns private with a load balancer: api aliases it, api.internal too only with useForInternalApi', () => {
    const opts: Partial<Options> = { dns: 'private', dnsZone: 'example.com', topology: 'private', networking: 'calico' };
    expect(records(build(spec(opts)))).toEqual(['api.ep.example.com alias private', 'api.internal.ep.example.com placeholder private']);
    const both = build(spec(opts, (c) => ((c.spec.api as { loadBalancer: { useForInternalApi?: boolean } }).loadBalancer.useForInternalApi = true)));
    expect(records(both)).toEqual(['api.ep.example.com alias private', 'api.internal.ep.example.com alias private']);
    // With DNS, workers find the node-identity service by its Route 53 name (protokube's): no 3988 listener.
    expect(both.tasks.map(taskKey).filter((k) => k.includes('3988') || k.includes('kops-controller'))).toEqual([]);
  });

  it('gossip clusters get no records', () => {
    const { cluster, instanceGroups } = newCluster({ name: 'ep.k8s.local', zones: ['us-east-1a'] });
    const c = completeCluster(cluster, instanceGroups, 'memfs://store');
    c.spec.topology = { ...c.spec.topology, dns: { type: 'Public' } };
    expect(records(build(c))).toEqual([]);
  });

  it('refuses what it cannot build yet, naming the field', () => {
    const lb = (edit: (l: NonNullable<NonNullable<Cluster['spec']['api']>['loadBalancer']>) => void) =>
      spec({ dns: 'none' }, (c) => edit((c.spec.api as { loadBalancer: NonNullable<NonNullable<Cluster['spec']['api']>['loadBalancer']> }).loadBalancer));
    expect(() => build(lb((l) => (l.class = 'Classic')))).toThrow(/^spec\.api\.loadBalancer\.class: a Classic load balancer/);
    expect(() => build(lb((l) => (l.sslCertificate = 'arn:aws:acm:x')))).toThrow(/^spec\.api\.loadBalancer\.sslCertificate:/);
    expect(() => build(lb((l) => (l.additionalSecurityGroups = ['sg-1'])))).toThrow(/^spec\.api\.loadBalancer\.additionalSecurityGroups:/);
    expect(() => build(lb((l) => (l.subnets = [{ name: 'nope' }])))).toThrow(/^spec\.api\.loadBalancer\.subnets\[0\]\.name:/);
    expect(() => build(spec({ dns: 'public', dnsZone: 'example.com' }, (c) => delete c.spec.dnsZone))).toThrow(/^spec\.dnsZone:/);
  });
});
