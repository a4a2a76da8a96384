import * as fs from 'node:fs';
import { AutoScalingClient, DescribeAutoScalingGroupsCommand } from '@aws-sdk/client-auto-scaling';
import type { InstanceGroup } from '../../../src/api/types';
import { newCluster } from '../../../src/create/new-cluster';
import { saveCluster } from '../../../src/ops/save-cluster';
import { openVfs } from '../../../src/state/vfs/open-vfs';
import { runCliAsync, tempDir } from '../../helpers/cli';
import { MOTO_WITH_DEFAULT_IMAGE, MotoServer, startMotoServer } from '../../helpers/moto-server';

// kops's mixedInstancesPolicy (issue 22 §4): the group launches its template through a mixed instances policy,
// one override per instance type in the spec's order, with the spec's on-demand base and percentage and Spot
// strategy. A second plan has no changes; a changed percentage is an update in place. Through the CLI against moto.

const CREDENTIALS = { accessKeyId: 'test', secretAccessKey: 'test' };
let moto: MotoServer;
let asg: AutoScalingClient;
let store: string;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  moto = await startMotoServer({ env: MOTO_WITH_DEFAULT_IMAGE });
  asg = new AutoScalingClient({ region: 'us-east-1', endpoint: moto.endpoint, credentials: CREDENTIALS });
  store = tempDir('kforge-mixed-');
  env = { ...moto.env, AWS_ENDPOINT_URL: moto.endpoint, AWS_EC2_METADATA_DISABLED: 'true', AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true', CI: 'true' };
});

afterAll(async () => {
  asg?.destroy();
  await moto?.stop();
  if (store) fs.rmSync(store, { recursive: true, force: true });
});

async function group(name: string) {
  return (await asg.send(new DescribeAutoScalingGroupsCommand({ AutoScalingGroupNames: [name] }))).AutoScalingGroups?.[0];
}

it('a node group with mixedInstancesPolicy launches through it: overrides in order, the distribution as given; no changes after; a new percentage updates in place', async () => {
  const name = 'mixed.example.com';
  const p = newCluster({ name, zones: ['us-east-1a'], networking: 'calico' });
  const nodes = p.instanceGroups.find((ig) => ig.spec.role === 'Node') as InstanceGroup;
  nodes.spec.mixedInstancesPolicy = { instances: ['m5.large', 'm5a.large', 't3.large'], onDemandBase: 1, onDemandAboveBase: 20, spotAllocationStrategy: 'capacity-optimized' };
  await saveCluster(openVfs(store), p);

  const up = await runCliAsync(['update', 'cluster', name, '--yes', '--state', store], env);
  expect(up.stderr).not.toMatch(/Error/);
  expect(up.status).toBe(0);
  const g = await group(`${nodes.metadata.name}.${name}`);
  expect(g?.LaunchTemplate).toBeUndefined();
  const policy = g?.MixedInstancesPolicy;
  expect(policy?.LaunchTemplate?.LaunchTemplateSpecification).toMatchObject({ LaunchTemplateName: `${nodes.metadata.name}.${name}`, Version: '$Latest' });
  expect(policy?.LaunchTemplate?.Overrides?.map((o) => o.InstanceType)).toEqual(['m5.large', 'm5a.large', 't3.large']);
  expect(policy?.InstancesDistribution).toMatchObject({ OnDemandBaseCapacity: 1, OnDemandPercentageAboveBaseCapacity: 20, SpotAllocationStrategy: 'capacity-optimized' });
  // The control plane's group launches its template directly.
  const cp = p.instanceGroups.find((ig) => ig.spec.role === 'ControlPlane') as InstanceGroup;
  expect((await group(`${cp.metadata.name}.${name}`))?.MixedInstancesPolicy).toBeUndefined();

  const again = await runCliAsync(['update', 'cluster', name, '--state', store], env);
  expect(again.status).toBe(0);
  expect(again.stdout).toMatch(/^No changes/);

  const more = await runCliAsync(['set', 'instancegroup', nodes.metadata.name, '--name', name, 'spec.mixedInstancesPolicy.onDemandAboveBase=50', '--state', store], env);
  expect(more.stderr).toBe('');
  const changed = await runCliAsync(['update', 'cluster', name, '--yes', '--state', store], env);
  expect(changed.status).toBe(0);
  expect(changed.stdout).toContain('mixedInstances  "onDemandBase=1 onDemandAboveBase=20 spot=capacity-optimized onDemand=prioritized instances=m5.large,m5a.large,t3.large" -> "onDemandBase=1 onDemandAboveBase=50');
  expect((await group(`${nodes.metadata.name}.${name}`))?.MixedInstancesPolicy?.InstancesDistribution?.OnDemandPercentageAboveBaseCapacity).toBe(50);
  expect((await runCliAsync(['update', 'cluster', name, '--state', store], env)).stdout).toMatch(/^No changes/);
}, 180_000);
