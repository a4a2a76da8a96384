import { CreateNetworkInterfaceCommand, DescribeLaunchTemplateVersionsCommand, DescribeNetworkInterfacesCommand, DescribeSubnetsCommand, EC2Client } from '@aws-sdk/client-ec2';
import { DescribeLoadBalancersCommand, ElasticLoadBalancingV2Client } from '@aws-sdk/client-elastic-load-balancing-v2';
import * as yaml from 'js-yaml';
import type { InstanceGroup } from '../../../src/api/types';
import { AwsCloud } from '../../../src/cloud/aws/aws-cloud';
import { classifyAwsError, isRetryableAwsError } from '../../../src/cloud/aws/aws-errors';
import { awsTaskExecutor } from '../../../src/cloud/aws/aws-task-executor';
import { loadBalancerInterfaceIps } from '../../../src/cloud/aws/load-balancer-interface-ips';
import { LoadBalancerInterfacesNotReadyError } from '../../../src/cloud/aws/load-balancer-interfaces-not-ready-error';
import { LaunchTemplateTask, LOAD_BALANCER_IPS_PLACEHOLDER } from '../../../src/cloud/aws/tasks/launch-template-task';
import { newCluster } from '../../../src/create/new-cluster';
import { buildAwsTasks } from '../../../src/model/aws/aws-model-builder';
import { completeCluster } from '../../../src/ops/expand-cluster';
import { applyPlan } from '../../../src/targets/direct-target';
import { renderPlan } from '../../../src/targets/dry-run-target';
import { TEST_CLUSTER_UID } from '../../helpers/cluster-layout';
import { KOPS_CONTROLLER_CA_FIXTURE } from '../../helpers/kops-controller-ca-fixture';
import { MotoServer, startMotoServer } from '../../helpers/moto-server';

// kops's BootConfig.APIServerIPs on AWS (network_load_balancer.go FindAddresses, nodeupconfigbuilder.go
// selectControlPlaneIPs): a worker of a cluster without DNS gets the API load balancer's private interface
// addresses in its launch template's boot config, read once AWS made the interfaces.

describe('loadBalancerInterfaceIps (kops FindAddresses + selectControlPlaneIPs on AWS)', () => {
  const ni = (description: string, ip?: string, v6: string[] = []) => ({ Description: description, PrivateIpAddress: ip, Ipv6Addresses: v6.map((a) => ({ Ipv6Address: a })) });

  it('keeps the primary addresses of this load balancer inside the network CIDRs, and IPv6, sorted and once each', () => {
    const interfaces = [
      ni('ELB net/api-x/aaa', '172.20.64.10'),
      ni('ELB net/api-x/aaa', '172.20.32.9', ['2001:DB8::5']),
      // Another load balancer whose name starts alike, and an address outside the network: left out.
      ni('ELB net/api-x2/bbb', '172.20.32.11'),
      ni('ELB net/api-x/aaa', '10.1.2.3'),
      ni('ELB net/api-x/aaa', '172.20.64.10'),
      ni('some other interface', '172.20.32.12'),
      ni('ELB net/api-x/aaa', 'not-an-ip'),
    ];
    expect(loadBalancerInterfaceIps(interfaces, 'api-x', ['172.20.0.0/16'])).toEqual(['172.20.32.9', '172.20.64.10', '2001:db8::5']);
    // An additional network CIDR (kops's AdditionalNetworkCIDRs) counts as the network.
    expect(loadBalancerInterfaceIps(interfaces, 'api-x', ['172.20.0.0/16', '10.1.0.0/16'])).toEqual(['10.1.2.3', '172.20.32.9', '172.20.64.10', '2001:db8::5']);
    expect(loadBalancerInterfaceIps(interfaces, 'api-y', ['172.20.0.0/16'])).toEqual([]);
  });

  it('"no interface yet" is a retryable error with a stable code, classified by it', () => {
    const e = new LoadBalancerInterfacesNotReadyError('LaunchTemplate/nodes.c', 'api-c', 'vpc-1');
    expect(e.code).toBe('LOAD_BALANCER_NOT_READY');
    expect(classifyAwsError(e)).toBe('not-ready');
    expect(isRetryableAwsError(e)).toBe(true);
  });
});

describe('the model: which launch templates wait for the load balancer\'s addresses', () => {
  const templates = (options: Partial<Parameters<typeof newCluster>[0]>, edit: (c: ReturnType<typeof newCluster>) => void = () => {}) => {
    const p = newCluster({ name: 'm.example.com', zones: ['us-east-1a'], ...options });
    edit(p);
    const completed = completeCluster(p.cluster, p.instanceGroups, 's3://kforge-state/team');
    const inputs = { nodeupConfigHashes: Object.fromEntries(p.instanceGroups.map((ig) => [ig.metadata.name, 'a'.repeat(64)])), kopsControllerCa: KOPS_CONTROLLER_CA_FIXTURE };
    return buildAwsTasks(completed, p.instanceGroups, inputs)
      .filter((t): t is LaunchTemplateTask => t instanceof LaunchTemplateTask)
      .map((t) => ({ group: t.desired.instanceGroup, ips: t.desired.loadBalancerIps, placeholder: (t.desired.userData ?? '').includes(`APIServerIPs:\n- ${LOAD_BALANCER_IPS_PLACEHOLDER}\n`), dependsOnLb: t.dependencies().some((d) => d.kind === 'NetworkLoadBalancer') }));
  };

  it('without DNS: the workers only, filtered to the network CIDR', () => {
    expect(templates({ dns: 'none' })).toEqual([
      { group: 'control-plane-us-east-1a', ips: undefined, placeholder: false, dependsOnLb: false },
      { group: 'nodes-us-east-1a', ips: { networkCidrs: ['172.20.0.0/16'] }, placeholder: true, dependsOnLb: true },
    ]);
  });

  it('with DNS, or without the API load balancer: none (no interface is read, the user-data is as before)', () => {
    for (const t of templates({ dns: 'public', dnsZone: 'example.com' })) expect(t).toMatchObject({ ips: undefined, placeholder: false });
    for (const t of templates({ dns: 'none' }, (p) => delete p.cluster.spec.api?.loadBalancer)) expect(t).toMatchObject({ ips: undefined, placeholder: false, dependsOnLb: false });
  });
});

const CREDENTIALS = { accessKeyId: 'test', secretAccessKey: 'test' };
const MOTO_IMAGE = '099720109477/ubuntu/images/hvm-ssd/ubuntu-xenial-16.04-amd64-server-20170721';
let moto: MotoServer;
let ec2: EC2Client;
let elbv2: ElasticLoadBalancingV2Client;

beforeAll(async () => {
  // No proxy: this test plays AWS's part itself, late, to see the template wait for the interfaces.
  moto = await startMotoServer({ nlbInterfaces: false });
  ec2 = new EC2Client({ region: 'us-east-1', endpoint: moto.endpoint, credentials: CREDENTIALS });
  elbv2 = new ElasticLoadBalancingV2Client({ region: 'us-east-1', endpoint: moto.endpoint, credentials: CREDENTIALS });
});

afterAll(async () => {
  ec2?.destroy();
  elbv2?.destroy();
  await moto?.stop();
});

/** The boot config (kube_env.yaml) in a launch template's user-data. */
function bootConfig(userData: string): { APIServerIPs?: string[]; InstanceGroupRole?: string } {
  const m = /^cat > "\S*kube_env\.yaml" << '__EOF_KUBE_ENV'\n([\s\S]*?)\n__EOF_KUBE_ENV$/m.exec(userData);
  if (!m) throw new Error(`no boot config in user-data:\n${userData}`);
  return yaml.load(m[1]) as { APIServerIPs?: string[]; InstanceGroupRole?: string };
}

async function userDataOf(template: string): Promise<string> {
  const v = (await ec2.send(new DescribeLaunchTemplateVersionsCommand({ LaunchTemplateName: template, Versions: ['$Latest'] }))).LaunchTemplateVersions?.[0];
  return Buffer.from(v?.LaunchTemplateData?.UserData ?? '', 'base64').toString('utf8');
}

describe('a --dns none cluster against moto (the test makes the interfaces, as AWS does, after the load balancer)', () => {
  const name = 'ips.example.com';
  const { cluster, instanceGroups } = newCluster({ name, zones: ['us-east-1a', 'us-east-1b'], dns: 'none' });
  // A second worker group: both templates share one DescribeNetworkInterfaces per run.
  const nodes = instanceGroups.find((ig) => ig.spec.role === 'Node') as InstanceGroup;
  instanceGroups.push({ ...nodes, metadata: { ...nodes.metadata, name: 'more-nodes' }, spec: { ...nodes.spec } });
  for (const ig of instanceGroups) ig.spec.image = MOTO_IMAGE;
  const completed = completeCluster(cluster, instanceGroups, 's3://kforge-state/team');
  const inputs = { nodeupConfigHashes: Object.fromEntries(instanceGroups.map((ig) => [ig.metadata.name, 'a'.repeat(64)])), kopsControllerCa: KOPS_CONTROLLER_CA_FIXTURE };
  const cloud = (): AwsCloud => new AwsCloud({ clusterName: name, region: 'us-east-1', env: { AWS_ENDPOINT_URL: moto.endpoint }, credentials: CREDENTIALS, maxAttempts: 2, clusterUid: TEST_CLUSTER_UID });
  const workers = instanceGroups.filter((ig) => ig.spec.role === 'Node').map((ig) => `${ig.metadata.name}.${name}`);
  const controlPlane = instanceGroups.filter((ig) => ig.spec.role !== 'Node').map((ig) => `${ig.metadata.name}.${name}`);
  let ips: string[] = [];

  it('plans the templates as created before the load balancer exists, asking EC2 nothing about interfaces', async () => {
    const c = cloud();
    const plan = await awsTaskExecutor(c, buildAwsTasks(completed, instanceGroups, inputs)).plan();
    for (const t of workers) expect(renderPlan(plan)).toContain(`+ create LaunchTemplate/${t}\n`);
    expect(renderPlan(plan)).not.toContain(LOAD_BALANCER_IPS_PLACEHOLDER);
    expect(c.calls.byOperation.get('DescribeNetworkInterfaces')).toBeUndefined();
  });

  it('waits (retries) until the interfaces exist, then writes their addresses into the workers\' boot config only', async () => {
    const c = cloud();
    let made: Promise<void> | undefined;
    const retried: string[] = [];
    // AWS makes the interfaces a while after CreateLoadBalancer: here, when the first template has been told "not yet".
    const makeInterfaces = async (): Promise<void> => {
      const lb = (await elbv2.send(new DescribeLoadBalancersCommand({}))).LoadBalancers?.[0];
      // moto's ARN says loadbalancer/app/<name>/<id> for every type; AWS's description of an NLB's interface says net/.
      const id = (lb?.LoadBalancerArn ?? '').split('/').pop();
      const description = `ELB net/${lb?.LoadBalancerName}/${id}`;
      for (const az of lb?.AvailabilityZones ?? []) await ec2.send(new CreateNetworkInterfaceCommand({ SubnetId: az.SubnetId, Description: description }));
      // Another load balancer's interface in the same VPC is not this one's.
      await ec2.send(new CreateNetworkInterfaceCommand({ SubnetId: lb?.AvailabilityZones?.[0]?.SubnetId, Description: `ELB net/${lb?.LoadBalancerName}x/${id}` }));
    };
    const executor = awsTaskExecutor(c, buildAwsTasks(completed, instanceGroups, inputs), {
      backoffMs: 200,
      onEvent: (e) => {
        if (e.type !== 'retry') return;
        retried.push(`${e.task} ${(e.error as { code?: string }).code}`);
        made ??= makeInterfaces();
      },
    });
    await applyPlan(executor, await executor.plan());
    await made;
    expect(retried.length).toBeGreaterThan(0);
    expect(retried.every((r) => /^LaunchTemplate\/\S+ LOAD_BALANCER_NOT_READY$/.test(r))).toBe(true);

    const subnets = (await ec2.send(new DescribeSubnetsCommand({ Filters: [{ Name: 'tag:KubernetesCluster', Values: [name] }] }))).Subnets ?? [];
    expect(subnets).toHaveLength(2);
    const { NetworkInterfaces: enis = [] } = await ec2.send(new DescribeNetworkInterfacesCommand({ Filters: [{ Name: 'description', Values: ['ELB net/api-ips-example-com-*'] }] }));
    ips = enis.filter((n) => !/x\//.test(n.Description ?? '')).map((n) => n.PrivateIpAddress as string).sort();
    expect(ips).toHaveLength(2);
    for (const t of workers) {
      const userData = await userDataOf(t);
      expect(bootConfig(userData).APIServerIPs).toEqual(ips);
      expect(userData).not.toContain('kforge.invalid');
    }
    for (const t of controlPlane) expect(bootConfig(await userDataOf(t)).APIServerIPs).toBeUndefined();
  });

  it('then plans no change, reading the interfaces once for both worker templates', async () => {
    const c = cloud();
    const plan = await awsTaskExecutor(c, buildAwsTasks(completed, instanceGroups, inputs)).plan();
    expect(plan.entries.filter((e) => e.action !== 'none').map((e) => `${e.task.kind}/${e.task.name}`)).toEqual([]);
    expect(c.calls.byOperation.get('DescribeNetworkInterfaces')).toBe(1);
  });
});
