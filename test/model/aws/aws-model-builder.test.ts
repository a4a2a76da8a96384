import * as fs from 'node:fs';
import * as path from 'node:path';
import { newCluster } from '../../../src/create/new-cluster';
import { buildAwsTasks } from '../../../src/model/aws/aws-model-builder';
import { completeCluster } from '../../../src/ops/expand-cluster';
import { taskKey } from '../../../src/tasks/task';
import { TaskGraph } from '../../../src/tasks/task-graph';
import type { Cluster } from '../../../src/api/types';
import { LaunchTemplateTask, LOAD_BALANCER_DNS_PLACEHOLDER } from '../../../src/cloud/aws/tasks/launch-template-task';
import { KOPS_CONTROLLER_CA_FIXTURE } from '../../helpers/kops-controller-ca-fixture';

function minimal(edit: (c: Cluster) => void = () => {}): Cluster {
  const { cluster, instanceGroups } = newCluster({ name: 'min.example.com', zones: ['us-east-1a'], adminAccess: ['203.0.113.0/24'] });
  const c = completeCluster(cluster, instanceGroups, 'memfs://store');
  edit(c);
  return c;
}

describe('AWS model builders', () => {
  it('build kops’s public network and security groups for a one-zone cluster, with dependencies', () => {
    const graph = new TaskGraph(buildAwsTasks(minimal()));
    // IAM tasks have their own test (iam-model-builder.test.ts).
    const lines = graph
      .order()
      .filter((t) => !t.kind.startsWith('IAM'))
      .map((t) => `${taskKey(t)} <- ${graph.dependenciesOf(t).map(taskKey).join(', ') || '-'}`);
    const c = 'min.example.com';
    expect(lines.sort()).toEqual(
      [
        `VPC/${c} <- -`,
        `Subnet/us-east-1a.${c} <- VPC/${c}`,
        `InternetGateway/${c} <- VPC/${c}`,
        `RouteTable/${c} <- VPC/${c}`,
        `Route/0.0.0.0/0 <- InternetGateway/${c}, RouteTable/${c}`,
        `RouteTableAssociation/us-east-1a.${c} <- RouteTable/${c}, Subnet/us-east-1a.${c}`,
        `SecurityGroup/masters.${c} <- VPC/${c}`,
        `SecurityGroup/nodes.${c} <- VPC/${c}`,
        `SecurityGroupRule/from-203.0.113.0/24-ingress-tcp-22to22-masters.${c} <- SecurityGroup/masters.${c}`,
        `SecurityGroupRule/from-203.0.113.0/24-ingress-tcp-22to22-nodes.${c} <- SecurityGroup/nodes.${c}`,
        `SecurityGroupRule/from-203.0.113.0/24-ingress-tcp-443to443-api-elb.${c} <- SecurityGroup/api-elb.${c}`,
        `SecurityGroup/api-elb.${c} <- VPC/${c}`,
        `SecurityGroupRule/from-api-elb.${c}-egress-all-0to0-0.0.0.0/0 <- SecurityGroup/api-elb.${c}`,
        `SecurityGroupRule/from-api-elb.${c}-egress-all-0to0-::/0 <- SecurityGroup/api-elb.${c}`,
        `SecurityGroupRule/icmp-pmtu-api-elb-203.0.113.0/24 <- SecurityGroup/api-elb.${c}`,
        `SecurityGroupRule/icmp-pmtu-cp-to-elb <- SecurityGroup/api-elb.${c}, SecurityGroup/masters.${c}`,
        `SecurityGroupRule/icmp-pmtu-elb-to-cp <- SecurityGroup/api-elb.${c}, SecurityGroup/masters.${c}`,
        `SecurityGroupRule/from-masters.${c}-ingress-all-0to0-masters.${c} <- SecurityGroup/masters.${c}`,
        `SecurityGroupRule/from-masters.${c}-ingress-all-0to0-nodes.${c} <- SecurityGroup/masters.${c}, SecurityGroup/nodes.${c}`,
        `SecurityGroupRule/from-nodes.${c}-ingress-all-0to0-nodes.${c} <- SecurityGroup/nodes.${c}`,
        `SecurityGroupRule/from-nodes.${c}-ingress-tcp-1to2379-masters.${c} <- SecurityGroup/masters.${c}, SecurityGroup/nodes.${c}`,
        `SecurityGroupRule/from-nodes.${c}-ingress-tcp-2383to4000-masters.${c} <- SecurityGroup/masters.${c}, SecurityGroup/nodes.${c}`,
        `SecurityGroupRule/from-nodes.${c}-ingress-tcp-4003to65535-masters.${c} <- SecurityGroup/masters.${c}, SecurityGroup/nodes.${c}`,
        `SecurityGroupRule/from-nodes.${c}-ingress-udp-1to65535-masters.${c} <- SecurityGroup/masters.${c}, SecurityGroup/nodes.${c}`,
        `SecurityGroupRule/from-masters.${c}-egress-all-0to0-0.0.0.0/0 <- SecurityGroup/masters.${c}`,
        `SecurityGroupRule/from-masters.${c}-egress-all-0to0-::/0 <- SecurityGroup/masters.${c}`,
        `SecurityGroupRule/from-nodes.${c}-egress-all-0to0-0.0.0.0/0 <- SecurityGroup/nodes.${c}`,
        `SecurityGroupRule/from-nodes.${c}-egress-all-0to0-::/0 <- SecurityGroup/nodes.${c}`,
        // --dns none: the API behind a network load balancer (kops's hashed 32-character target group name).
        `NetworkLoadBalancer/api-min-example-com <- SecurityGroup/api-elb.${c}, Subnet/us-east-1a.${c}`,
        `TargetGroup/tcp-min-example-com-6u3ch3 <- VPC/${c}`,
        `Listener/api-min-example-com-443 <- NetworkLoadBalancer/api-min-example-com, TargetGroup/tcp-min-example-com-6u3ch3`,
        `SecurityGroupRule/https-elb-to-master <- SecurityGroup/api-elb.${c}, SecurityGroup/masters.${c}`,
        // Without DNS, nodes reach the node-identity service through the load balancer's 3988 listener (kops's names).
        `TargetGroup/kops-controller-min-examp-7dfcq7 <- VPC/${c}`,
        `Listener/api-min-example-com-3988 <- NetworkLoadBalancer/api-min-example-com, TargetGroup/kops-controller-min-examp-7dfcq7`,
        `SecurityGroupRule/kops-controller-elb-to-cp <- SecurityGroup/api-elb.${c}, SecurityGroup/masters.${c}`,
        `SecurityGroupRule/node-to-elb <- SecurityGroup/api-elb.${c}, SecurityGroup/nodes.${c}`,
      ].sort(),
    );
  });

  it('open NodePorts (TCP and UDP) only from nodePortAccess, and are the same for the same spec', () => {
    const keys = (c: Cluster) => buildAwsTasks(c).map(taskKey);
    expect(keys(minimal()).filter((k) => k.includes('30000'))).toEqual([]);
    const withNodePorts = keys(minimal((c) => (c.spec.nodePortAccess = ['10.0.0.0/8'])));
    expect(withNodePorts.filter((k) => k.includes('30000'))).toEqual([
      'SecurityGroupRule/from-10.0.0.0/8-ingress-tcp-30000to32767-nodes.min.example.com',
      'SecurityGroupRule/from-10.0.0.0/8-ingress-udp-30000to32767-nodes.min.example.com',
    ]);
    expect(keys(minimal())).toEqual(keys(minimal()));
  });

  it('make a worker launch template of a cluster without DNS depend on the API load balancer, whose DNS name its user-data takes (the control plane\'s does not)', () => {
    const { cluster, instanceGroups } = newCluster({ name: 'lb.example.com', zones: ['us-east-1a'] });
    const completed = completeCluster(cluster, instanceGroups, 'memfs://store');
    const hashes = Object.fromEntries(instanceGroups.map((ig) => [ig.metadata.name, '0'.repeat(64)]));
    const graph = new TaskGraph(buildAwsTasks(completed, instanceGroups, { kopsControllerCa: KOPS_CONTROLLER_CA_FIXTURE, nodeupConfigHashes: hashes }));
    const lts = graph.order().filter((t): t is LaunchTemplateTask => t instanceof LaunchTemplateTask);
    const deps = Object.fromEntries(lts.map((t) => [t.name, graph.dependenciesOf(t).map(taskKey).filter((k) => k.startsWith('NetworkLoadBalancer/'))]));
    expect(deps).toEqual({ 'control-plane-us-east-1a.lb.example.com': [], 'nodes-us-east-1a.lb.example.com': ['NetworkLoadBalancer/api-lb-example-com'] });
    const node = lts.find((t) => t.name.startsWith('nodes-')) as LaunchTemplateTask;
    expect(node.desired.userData).toContain(`  Servers:\n  - https://${LOAD_BALANCER_DNS_PLACEHOLDER}:3988\n`);
    expect(node.desired.userData).toContain(`CONFIG_SERVER_CONNECT_TO="kops-controller.internal.lb.example.com:3988:${LOAD_BALANCER_DNS_PLACEHOLDER}:3988"`);
  });

  it('give private topology a NAT gateway with an Elastic IP and a private route table per zone', () => {
    const { cluster, instanceGroups } = newCluster({ name: 'priv.example.com', zones: ['us-east-1a', 'us-east-1b'], topology: 'private', networking: 'calico' });
    const graph = new TaskGraph(buildAwsTasks(completeCluster(cluster, instanceGroups, 'memfs://store')));
    const c = 'priv.example.com';
    const network = graph
      .order()
      .filter((t) => !t.kind.startsWith('SecurityGroup') && !t.kind.startsWith('IAM'))
      .map((t) => `${taskKey(t)} <- ${graph.dependenciesOf(t).map(taskKey).join(', ') || '-'}`)
      .sort();
    expect(network).toEqual(
      [
        `VPC/${c} <- -`,
        `InternetGateway/${c} <- VPC/${c}`,
        `RouteTable/${c} <- VPC/${c}`,
        `Route/0.0.0.0/0 <- InternetGateway/${c}, RouteTable/${c}`,
        ...['a', 'b'].flatMap((z) => [
          `Subnet/us-east-1${z}.${c} <- VPC/${c}`,
          `Subnet/utility-us-east-1${z}.${c} <- VPC/${c}`,
          `RouteTableAssociation/utility-us-east-1${z}.${c} <- RouteTable/${c}, Subnet/utility-us-east-1${z}.${c}`,
          `ElasticIP/us-east-1${z}.${c} <- -`,
          `NatGateway/us-east-1${z}.${c} <- ElasticIP/us-east-1${z}.${c}, Subnet/utility-us-east-1${z}.${c}`,
          `RouteTable/private-us-east-1${z}.${c} <- VPC/${c}`,
          `Route/private-us-east-1${z}-0.0.0.0/0 <- NatGateway/us-east-1${z}.${c}, RouteTable/private-us-east-1${z}.${c}`,
          `RouteTableAssociation/private-us-east-1${z}.${c} <- RouteTable/private-us-east-1${z}.${c}, Subnet/us-east-1${z}.${c}`,
        ]),
        // A public API load balancer in a private topology sits in the utility subnets, one per zone.
        `NetworkLoadBalancer/api-priv-example-com <- SecurityGroup/api-elb.${c}, Subnet/utility-us-east-1a.${c}, Subnet/utility-us-east-1b.${c}`,
        `TargetGroup/tcp-priv-example-com-jeq96t <- VPC/${c}`,
        `Listener/api-priv-example-com-443 <- NetworkLoadBalancer/api-priv-example-com, TargetGroup/tcp-priv-example-com-jeq96t`,
        `TargetGroup/kops-controller-priv-exam-i215gu <- VPC/${c}`,
        `Listener/api-priv-example-com-3988 <- NetworkLoadBalancer/api-priv-example-com, TargetGroup/kops-controller-priv-exam-i215gu`,
      ].sort(),
    );
  });

  it('refuse what they cannot build yet, naming the field', () => {
    // A shared VPC and subnets are built (shared-network-model.test.ts); an egress kforge cannot route to is not.
    expect(() => buildAwsTasks(minimal((c) => ((c.spec.subnets ?? [])[0].egress = 'i-0123')))).toThrow(/^spec\.subnets\[0\]\.egress: .* is not supported by kforge's AWS model yet$/);
    const noUtility = minimal((c) => (c.spec.subnets = [{ name: 'p', zone: 'us-east-1a', cidr: '172.20.32.0/19', type: 'Private' }]));
    expect(() => buildAwsTasks(noUtility)).toThrow(/spec\.subnets\[0\]: a private subnet without a utility subnet in its zone \(us-east-1a\)/);
  });

  it('import no AWS SDK: model builders are pure, and tasks import only its types (the SDK loads lazily)', () => {
    const root = path.join(__dirname, '../../../src');
    const files = (dir: string) => fs.readdirSync(path.join(root, dir)).map((f) => path.join(root, dir, f));
    for (const f of files('model/aws')) expect({ f, sdk: /@aws-sdk\//.test(fs.readFileSync(f, 'utf8')) }).toEqual({ f, sdk: false });
    for (const f of [...files('cloud/aws/tasks'), ...files('cloud/aws'), ...files('tasks')].filter((x) => x.endsWith('.ts'))) {
      const valueImports = fs.readFileSync(f, 'utf8').match(/^import (?!type )[^;]*'@aws-sdk\/[^']+';/gm) ?? [];
      expect({ f, valueImports }).toEqual({ f, valueImports: [] });
    }
  });
});
