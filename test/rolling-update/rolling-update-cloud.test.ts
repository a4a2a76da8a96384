import { AutoScalingClient } from '@aws-sdk/client-auto-scaling';
import { EC2Client } from '@aws-sdk/client-ec2';
import * as fs from 'node:fs';
import { connectAwsCloud } from '../../src/cloud/aws/connect-aws-cloud';
import { awsRollingUpdateCloud } from '../../src/cloud/aws/aws-rolling-update-cloud';
import { DETACHED_TAG } from '../../src/cloud/aws/cloud-instance-groups';
import { rollingUpdateCluster, RollingUpdateClusterOptions } from '../../src/ops/rolling-update-cluster';
import type { RollingUpdateEvent } from '../../src/rolling-update/update-instance-group';
import { ClusterRepository } from '../../src/state/cluster-repository';
import { openVfs } from '../../src/state/vfs/open-vfs';
import type { Vfs } from '../../src/state/vfs/vfs';
import { tempDir } from '../helpers/cli';
import { MOTO_WITH_DEFAULT_IMAGE, MotoServer, startMotoServer } from '../helpers/moto-server';
import { clusterWithOutdatedNodes, describeGroup, liveInstances, MOTO_CREDENTIALS, NODES_IG } from '../helpers/rolling-cluster';

// The cloud side of `rolling-update cluster` against a real moto_server, without the Kubernetes API
// (--cloudonly, and the plan): which instances need replacing, the replacement itself, and a run that
// continues what an interrupted surge left (an instance detached and tagged, not yet terminated).

let moto: MotoServer;
let store: string;
let ec2: EC2Client;
let asg: AutoScalingClient;

beforeAll(async () => {
  moto = await startMotoServer({ env: MOTO_WITH_DEFAULT_IMAGE });
  store = tempDir('kforge-rolling-cloud-');
  const client = { region: 'us-east-1', endpoint: moto.endpoint, credentials: MOTO_CREDENTIALS };
  ec2 = new EC2Client(client);
  asg = new AutoScalingClient(client);
});

afterAll(async () => {
  ec2?.destroy();
  asg?.destroy();
  await moto?.stop();
  if (store) fs.rmSync(store, { recursive: true, force: true });
});

const timings = { intervalMs: () => 0, validationTimeoutMs: 20_000, validateCount: 1, validateRetryMs: 10, validateSuccessMs: 0, drainTimeoutMs: 1000, drainRetryMs: 10, postDrainDelayMs: 0, failOnDrainError: true, failOnValidateError: true, pollMs: 20 };

function options(o: Partial<RollingUpdateClusterOptions> = {}): RollingUpdateClusterOptions {
  return {
    yes: false,
    lock: { command: 'test', ttlSeconds: 60, warn: () => undefined },
    selection: {},
    cloudOnly: true,
    timings,
    connectKube: () => Promise.reject(new Error('a cloud-only run must not connect to Kubernetes')),
    env: { AWS_ENDPOINT_URL: moto.endpoint },
    credentials: MOTO_CREDENTIALS,
    ...o,
  };
}

async function cloudOf(vfs: Vfs, name: string) {
  return connectAwsCloud(await new ClusterRepository(vfs).getCompleted(name), { env: { AWS_ENDPOINT_URL: moto.endpoint }, credentials: MOTO_CREDENTIALS });
}

test('the plan finds the nodes launched from an older template version, and --force selects the rest', async () => {
  const name = 'plan.example.com';
  const vfs = openVfs(store);
  await clusterWithOutdatedNodes(vfs, moto, name, { nodes: 3 });
  const result = await rollingUpdateCluster(vfs, name, options());
  expect(result.applied).toBe(false);
  expect(result.groups.map((g) => [g.name, g.role, g.needUpdate.length, g.ready.length, g.cloud?.desired])).toEqual([
    ['control-plane-us-east-1a', 'ControlPlane', 0, 1, 1],
    [NODES_IG, 'Node', 3, 0, 3],
  ]);
  expect(result.cloud.calls.mutating).toBe(0);
  const forced = await rollingUpdateCluster(vfs, name, options({ selection: { force: true, roles: ['ControlPlane'] } }));
  expect(forced.groups.map((g) => [g.name, g.needUpdate.length])).toEqual([['control-plane-us-east-1a', 1]]);
  await expect(rollingUpdateCluster(vfs, name, options({ selection: { instanceGroups: ['nope'] } }))).rejects.toMatchObject({ code: 'USAGE' });
});

test('--cloudonly --yes replaces every outdated node, in place, and a second run finds nothing to do', async () => {
  const name = 'cloudonly.example.com';
  const vfs = openVfs(store);
  await clusterWithOutdatedNodes(vfs, moto, name, { nodes: 3, launchable: true });
  const before = await describeGroup(asg, `${NODES_IG}.${name}`);
  const events: RollingUpdateEvent[] = [];
  const result = await rollingUpdateCluster(vfs, name, options({ yes: true, report: (e) => events.push(e) }));
  expect(result.applied).toBe(true);
  const after = await describeGroup(asg, `${NODES_IG}.${name}`);
  expect(after.desired).toBe(3);
  expect(after.members).toHaveLength(3);
  expect(after.members.filter((m) => before.members.some((b) => b.id === m.id))).toEqual([]);
  // The version each was launched from, as EC2 tags it (moto's group listing reports the template's default instead).
  const launched = (await liveInstances(ec2, name)).filter((i) => after.members.some((m) => m.id === i.InstanceId));
  expect(launched.map((i) => i.Tags?.find((t) => t.Key === 'aws:ec2launchtemplate:version')?.Value)).toEqual(['3', '3', '3']);
  // Cloud-only: no surge (nothing detached), one terminate per old node, nothing touched in the control plane.
  expect(events.filter((e) => e.type === 'detach')).toEqual([]);
  expect(events.filter((e) => e.type === 'terminate').map((e) => (e as { instance: string }).instance).sort()).toEqual(before.members.map((m) => m.id));
  expect((await rollingUpdateCluster(vfs, name, options({ yes: true }))).needsUpdate).toBe(false);
});

test('an instance a killed run detached is replaced once: counted once, never detached again, terminated without a replacement', async () => {
  const name = 'resume.example.com';
  const vfs = openVfs(store);
  await clusterWithOutdatedNodes(vfs, moto, name, { nodes: 2, launchable: true });
  const group = `${NODES_IG}.${name}`;
  const before = await describeGroup(asg, group);
  // What a run killed right after its first surge step leaves: one old instance tagged and detached, its replacement launched.
  const cloud = awsRollingUpdateCloud(await cloudOf(vfs, name));
  await cloud.detach(group, before.members[1].id);
  const mid = await describeGroup(asg, group);
  expect(mid.members.map((m) => m.id)).not.toContain(before.members[1].id);
  expect(mid.members).toHaveLength(2);
  const plan = await rollingUpdateCluster(vfs, name, options());
  const nodes = plan.groups.find((g) => g.name === NODES_IG);
  expect(nodes?.needUpdate.map((i) => [i.id, i.detached])).toEqual([
    [before.members[0].id, false],
    [before.members[1].id, true],
  ]);
  expect(nodes?.ready).toHaveLength(1);
  const events: RollingUpdateEvent[] = [];
  await rollingUpdateCluster(vfs, name, options({ yes: true, report: (e) => events.push(e) }));
  expect(events.filter((e) => e.type === 'detach')).toEqual([]);
  const after = await describeGroup(asg, group);
  expect(after.desired).toBe(2);
  expect(after.members).toHaveLength(2);
  const live = await liveInstances(ec2, name);
  expect(live.map((i) => i.InstanceId)).not.toContain(before.members[1].id);
  expect(live.filter((i) => i.Tags?.some((t) => t.Key === DETACHED_TAG))).toEqual([]);
  // Control plane (1) + the group's 2: the detached instance was not replaced when it was terminated.
  expect(live).toHaveLength(3);
});
