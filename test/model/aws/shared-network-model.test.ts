import { newCluster } from '../../../src/create/new-cluster';
import { KOPS_CONTROLLER_CA_FIXTURE } from '../../helpers/kops-controller-ca-fixture';
import type { Cluster, InstanceGroup } from '../../../src/api/types';
import { buildAwsTasks } from '../../../src/model/aws/aws-model-builder';
import { completeCluster } from '../../../src/ops/expand-cluster';
import { IamInstanceProfileTask } from '../../../src/cloud/aws/tasks/iam-instance-profile-task';
import { LaunchTemplateTask } from '../../../src/cloud/aws/tasks/launch-template-task';
import { RouteTask } from '../../../src/cloud/aws/tasks/route-task';
import { NatGatewayTask } from '../../../src/cloud/aws/tasks/nat-gateway-task';
import { SecurityGroupTask } from '../../../src/cloud/aws/tasks/security-group-task';
import { SqsQueueTask } from '../../../src/cloud/aws/tasks/sqs-queue-task';
import { SubnetTask } from '../../../src/cloud/aws/tasks/subnet-task';
import { VpcTask } from '../../../src/cloud/aws/tasks/vpc-task';
import { taskKey } from '../../../src/tasks/task';
import { TaskGraph } from '../../../src/tasks/task-graph';
import { renderTerraformOutput } from '../../../src/targets/terraform/render-terraform';

const C = 'shared.example.com';
const SHARED = { [`kubernetes.io/cluster/${C}`]: 'shared' };

/** A private one-zone cluster in vpc-0a (10.0.0.0/16) with an existing private and utility subnet. */
function planned(): { cluster: Cluster; instanceGroups: InstanceGroup[] } {
  const p = newCluster({ name: C, zones: ['us-east-1a'], topology: 'private', networking: 'calico', vpc: 'vpc-0a', networkCidr: '10.0.0.0/16', subnets: ['subnet-0b1'], utilitySubnets: ['subnet-0b2'] });
  for (const s of p.cluster.spec.subnets ?? []) s.cidr = s.type === 'Utility' ? '10.0.0.0/24' : '10.0.1.0/24';
  return p;
}

function tasksOf(p: { cluster: Cluster; instanceGroups: InstanceGroup[] }) {
  const completed = completeCluster(p.cluster, p.instanceGroups, 'memfs://store');
  const hashes = Object.fromEntries(p.instanceGroups.map((ig) => [ig.metadata.name, '0'.repeat(64)]));
  return buildAwsTasks(completed, p.instanceGroups, { kopsControllerCa: KOPS_CONTROLLER_CA_FIXTURE, nodeupConfigHashes: hashes });
}

describe('AWS model with shared resources (kops Shared: true)', () => {
  it('an existing VPC and subnets are find-only tasks tagged only shared; no gateway, NAT, route table or association is made for them', () => {
    const tasks = tasksOf(planned());
    new TaskGraph(tasks);
    const vpc = tasks.find((t) => t instanceof VpcTask) as VpcTask;
    expect(vpc.desired).toMatchObject({ cidr: '10.0.0.0/16', tags: SHARED, shared: { id: 'vpc-0a', field: `Cluster/${C} spec.networkID`, cidrField: `Cluster/${C} spec.networkCIDR` } });
    const subnets = tasks.filter((t): t is SubnetTask => t instanceof SubnetTask);
    expect(subnets.map((s) => [s.name, s.desired.shared?.id, s.desired.shared?.field, s.desired.tags])).toEqual([
      [`us-east-1a.${C}`, 'subnet-0b1', `Cluster/${C} spec.subnets[0]`, SHARED],
      [`utility-us-east-1a.${C}`, 'subnet-0b2', `Cluster/${C} spec.subnets[1]`, SHARED],
    ]);
    const kinds = new Set(tasks.map((t) => t.kind));
    for (const k of ['InternetGateway', 'RouteTable', 'Route', 'RouteTableAssociation', 'NatGateway', 'ElasticIP']) expect(kinds.has(k)).toBe(false);
    // The cluster's own security groups (control plane, nodes, and the API load balancer's) still live in the shared VPC.
    expect(tasks.filter((t) => t.kind === 'SecurityGroup').map((t) => (t as SecurityGroupTask).desired.vpc)).toEqual([vpc, vpc, vpc]);
  });

  it('a private subnet kforge makes in a shared VPC with egress nat-… routes to that NAT gateway: no Elastic IP, no NAT gateway made', () => {
    const p = planned();
    p.cluster.spec.subnets?.push({ name: 'extra-us-east-1a', type: 'Private', zone: 'us-east-1a', cidr: '10.0.64.0/20', egress: 'nat-0123' });
    const tasks = tasksOf(p);
    const keys = tasks.map(taskKey);
    expect(keys).toEqual(expect.arrayContaining([`NatGateway/us-east-1a.${C}`, `RouteTable/private-us-east-1a.${C}`, `Route/private-us-east-1a-0.0.0.0/0`, `RouteTableAssociation/private-extra-us-east-1a.${C}`]));
    expect(keys.filter((k) => k.startsWith('ElasticIP') || k.startsWith('InternetGateway') || k === `RouteTable/${C}`)).toEqual([]);
    const nat = tasks.find((t) => t instanceof NatGatewayTask) as NatGatewayTask;
    expect(nat.desired).toMatchObject({ shared: { id: 'nat-0123', allIds: ['nat-0123'], field: `Cluster/${C} spec.subnets[2].egress` } });
    // The existing subnets still get no association.
    expect(keys.filter((k) => k.startsWith('RouteTableAssociation'))).toEqual([`RouteTableAssociation/private-extra-us-east-1a.${C}`]);
  });

  it('a public subnet kforge makes in a shared VPC uses the VPC’s own internet gateway (shared, found by attachment)', () => {
    const p = newCluster({ name: C, zones: ['us-east-1a'], vpc: 'vpc-0a', networkCidr: '10.0.0.0/16' });
    const tasks = tasksOf(p);
    const igw = tasks.find((t) => t.kind === 'InternetGateway') as unknown as { desired: { shared?: { field: string }; tags: object } };
    expect(igw.desired.shared).toEqual({ field: `Cluster/${C} spec.networkID` });
    expect(igw.desired.tags).toEqual({});
    expect(tasks.map(taskKey)).toEqual(expect.arrayContaining([`RouteTable/${C}`, `RouteTableAssociation/us-east-1a.${C}`]));
  });

  it('in Terraform, a shared VPC is its literal id and its internet gateway a data source found by attachment', () => {
    const tasks = tasksOf(newCluster({ name: C, zones: ['us-east-1a'], vpc: 'vpc-0a', networkCidr: '10.0.0.0/16' }));
    for (const t of tasks) if (t instanceof LaunchTemplateTask) t.useImage({ id: 'ami-0123456789abcdef0', rootDevice: '/dev/sda1' });
    // update asks STS for the account the node-termination-handler's queue policy names.
    for (const t of tasks) if (t instanceof SqsQueueTask) t.useAccount('123456789012');
    const tf = renderTerraformOutput(C, 'us-east-1', tasks).files.get('kubernetes.tf') as string;
    expect(tf).not.toMatch(/resource "aws_vpc"/);
    expect(tf).not.toMatch(/resource "aws_internet_gateway"/);
    expect(tf).toMatch(/data "aws_internet_gateway" "shared-example-com" \{\n {2}filter \{\n {4}name {3}= "attachment.vpc-id"\n {4}values = \["vpc-0a"\]\n {2}\}\n\}/);
    expect(tf).toMatch(/gateway_id += data\.aws_internet_gateway\.shared-example-com\.id/);
    const subnet = tf.slice(tf.indexOf('resource "aws_subnet" "us-east-1a-shared-example-com"'));
    expect(subnet.slice(0, subnet.indexOf('\n}\n'))).toMatch(/\n {2}vpc_id += "vpc-0a"/);
    expect(tf).toMatch(/output "vpc_id" \{\n {2}value = "vpc-0a"\n\}/);
  });

  it('spec.iam.profile and securityGroupOverride: the launch template uses them, no role or profile is made for that group', () => {
    const p = planned();
    const nodes = p.instanceGroups.find((ig) => ig.spec.role === 'Node') as InstanceGroup;
    nodes.spec.iam = { profile: 'arn:aws:iam::123456789012:instance-profile/team/corp-nodes' };
    nodes.spec.securityGroupOverride = 'sg-0abc';
    const tasks = tasksOf(p);
    const lt = tasks.find((t) => t instanceof LaunchTemplateTask && t.name === `${nodes.metadata.name}.${C}`) as LaunchTemplateTask;
    expect(lt.desired.instanceProfile).toBeInstanceOf(IamInstanceProfileTask);
    expect(lt.desired.instanceProfile.name).toBe('corp-nodes');
    expect(lt.desired.instanceProfile.desired.shared).toEqual({ arn: 'arn:aws:iam::123456789012:instance-profile/team/corp-nodes', field: `InstanceGroup/${nodes.metadata.name} spec.iam.profile` });
    expect(lt.desired.securityGroup.desired.shared).toMatchObject({ id: 'sg-0abc', field: `InstanceGroup/${nodes.metadata.name} spec.securityGroupOverride` });
    const iamNames = tasks.filter((t) => t.kind.startsWith('IAM')).map(taskKey);
    expect(iamNames.some((k) => k.includes(`nodes-${nodes.metadata.name}`))).toBe(false);
    expect(iamNames).toContain(`IAMRole/masters.${C}`);
    // No rule is ever added to the shared group.
    expect(tasks.filter((t) => t.kind === 'SecurityGroupRule' && JSON.stringify((t as unknown as { desired: { group: { name: string } } }).desired.group.name) === '"sg-0abc"')).toEqual([]);
  });

  it('egress tgw-… routes the zone to the transit gateway (no NAT gateway); eipalloc-… gives the NAT gateway kforge makes that address (no Elastic IP made)', () => {
    const tgw = newCluster({ name: C, zones: ['us-east-1a'], topology: 'private', networking: 'calico' });
    (tgw.cluster.spec.subnets ?? [])[0].egress = 'tgw-0123';
    const tasks = tasksOf(tgw);
    expect(tasks.filter((t) => t.kind === 'NatGateway' || (t.kind === 'ElasticIP' && t.name.startsWith('us-east-1a')))).toEqual([]);
    const route = tasks.find((t) => taskKey(t) === 'Route/private-us-east-1a-0.0.0.0/0') as RouteTask;
    expect(route.desired.target).toEqual({ kind: 'TransitGateway', transitGatewayId: 'tgw-0123' });
    const eip = newCluster({ name: C, zones: ['us-east-1a'], topology: 'private', networking: 'calico' });
    (eip.cluster.spec.subnets ?? [])[0].egress = 'eipalloc-0123';
    const eipTasks = tasksOf(eip);
    expect(eipTasks.filter((t) => taskKey(t) === `ElasticIP/us-east-1a.${C}`)).toEqual([]);
    const nat = eipTasks.find((t) => t instanceof NatGatewayTask) as NatGatewayTask;
    expect(nat.desired).toMatchObject({ elasticIp: 'eipalloc-0123' });
  });

  it('egress External on every subnet (kops unmanaged): no internet gateway, route table, route or association', () => {
    const p = planned();
    for (const s of p.cluster.spec.subnets ?? []) {
      delete s.id;
      s.egress = 'External';
    }
    const kinds = new Set(tasksOf(p).map((t) => t.kind));
    for (const k of ['InternetGateway', 'RouteTable', 'Route', 'RouteTableAssociation', 'NatGateway']) expect(kinds.has(k)).toBe(false);
  });

  it('refuses, with the field, what it cannot build: an unknown egress, egress on a utility subnet, a subnet id without a VPC id, a malformed profile ARN', () => {
    const p1 = planned();
    (p1.cluster.spec.subnets ?? [])[0].egress = 'i-0123';
    expect(() => tasksOf(p1)).toThrow(/spec\.subnets\[0\]\.egress: .*i-0123/);
    const p2 = newCluster({ name: C, zones: ['us-east-1a'], topology: 'private', networking: 'calico' });
    (p2.cluster.spec.subnets ?? [])[1].egress = 'nat-0123';
    expect(() => tasksOf(p2)).toThrow(/spec\.subnets\[1\]\.egress: egress nat-0123 on a Utility subnet/);
    const p3 = newCluster({ name: C, zones: ['us-east-1a'] });
    (p3.cluster.spec.subnets ?? [])[0].id = 'subnet-0b1';
    expect(() => tasksOf(p3)).toThrow(/spec\.subnets\[0\]\.id: an existing subnet without spec\.networkID/);
    const p4 = planned();
    p4.instanceGroups[0].spec.iam = { profile: 'corp-nodes' };
    expect(() => tasksOf(p4)).toThrow(expect.objectContaining({ code: 'SHARED_RESOURCE', message: expect.stringContaining(`InstanceGroup/${p4.instanceGroups[0].metadata.name} spec.iam.profile`) }));
  });

  it('create cluster --vpc needs --network-cidr and one subnet id per zone', () => {
    expect(() => newCluster({ name: C, zones: ['us-east-1a'], vpc: 'vpc-0a' })).toThrow(/--network-cidr: is required with --network-id/);
    expect(() => newCluster({ name: C, zones: ['us-east-1a'], subnets: ['subnet-0a'] })).toThrow(/--subnets: needs --network-id/);
    expect(() => newCluster({ name: C, zones: ['us-east-1a', 'us-east-1b'], vpc: 'vpc-0a', networkCidr: '10.0.0.0/16', subnets: ['subnet-0a'] })).toThrow(/one subnet id per zone/);
    expect(() => newCluster({ name: C, zones: ['us-east-1a'], vpc: 'vpc-0a', networkCidr: '10.0.0.0/16', utilitySubnets: ['subnet-0a'] })).toThrow(/utility subnets are for --topology private/);
    const p = planned();
    expect(p.cluster.spec.networkID).toBe('vpc-0a');
    expect(p.cluster.spec.subnets?.map((s) => [s.name, s.id])).toEqual([['us-east-1a', 'subnet-0b1'], ['utility-us-east-1a', 'subnet-0b2']]);
  });
});
