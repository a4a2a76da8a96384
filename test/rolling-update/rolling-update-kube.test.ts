import { AutoScalingClient } from '@aws-sdk/client-auto-scaling';
import { EC2Client } from '@aws-sdk/client-ec2';
import * as fs from 'node:fs';
import { DETACHED_TAG } from '../../src/cloud/aws/cloud-instance-groups';
import { rollingUpdateCluster, RollingUpdateClusterOptions } from '../../src/ops/rolling-update-cluster';
import { connectRollingUpdateKube } from '../../src/rolling-update/connect-rolling-update-kube';
import type { RollingUpdateEvent, RollingUpdateTimings } from '../../src/rolling-update/update-instance-group';
import { openVfs } from '../../src/state/vfs/open-vfs';
import type { Vfs } from '../../src/state/vfs/vfs';
import { kubePod } from '../fakes/kube/kube-objects';
import { tempDir } from '../helpers/cli';
import { MOTO_WITH_DEFAULT_IMAGE, MotoServer, startMotoServer } from '../helpers/moto-server';
import { clusterWithOutdatedNodes, describeGroup, liveInstances, MOTO_CREDENTIALS, NODES_IG } from '../helpers/rolling-cluster';
import { RollingKube, startRollingKube } from '../helpers/rolling-kube';

// The Kubernetes side of `rolling-update cluster`: moto runs the instances, a fake kube-apiserver (test/fakes/kube)
// holds the Nodes and pods, and the test plays the kubelets: every instance an Auto Scaling group launches
// registers a Ready Node, named and labelled as a kops node on AWS. Validation is the pass `validate cluster` runs.

let moto: MotoServer;
let store: string;
let ec2: EC2Client;
let asg: AutoScalingClient;
const kubes: RollingKube[] = [];

beforeAll(async () => {
  moto = await startMotoServer({ env: MOTO_WITH_DEFAULT_IMAGE });
  store = tempDir('kforge-rolling-kube-');
  const client = { region: 'us-east-1', endpoint: moto.endpoint, credentials: MOTO_CREDENTIALS };
  ec2 = new EC2Client(client);
  asg = new AutoScalingClient(client);
});

afterEach(async () => {
  for (const k of kubes.splice(0)) await k.stop();
});

afterAll(async () => {
  ec2?.destroy();
  asg?.destroy();
  await moto?.stop();
  if (store) fs.rmSync(store, { recursive: true, force: true });
});

const TIMINGS: RollingUpdateTimings = { intervalMs: () => 0, validationTimeoutMs: 20_000, validateCount: 2, validateRetryMs: 20, validateSuccessMs: 0, drainTimeoutMs: 20_000, drainRetryMs: 20, postDrainDelayMs: 0, failOnDrainError: true, failOnValidateError: true, pollMs: 20 };

async function setUp(name: string, nodes: number, maxSurge: number): Promise<{ vfs: Vfs; kube: RollingKube }> {
  const vfs = openVfs(store);
  await clusterWithOutdatedNodes(vfs, moto, name, { nodes, maxSurge, launchable: true });
  const kube = await startRollingKube(vfs, moto, name, store);
  kubes.push(kube);
  return { vfs, kube };
}

function options(kube: RollingKube, vfs: Vfs, o: Partial<RollingUpdateClusterOptions> = {}): RollingUpdateClusterOptions {
  return {
    yes: true,
    lock: { command: 'test', ttlSeconds: 60, warn: () => undefined },
    selection: {},
    cloudOnly: false,
    timings: TIMINGS,
    connectKube: (cluster, cloud) => connectRollingUpdateKube(vfs, cluster, cloud, { kubeconfig: kube.kubeconfig }),
    env: { AWS_ENDPOINT_URL: moto.endpoint },
    credentials: MOTO_CREDENTIALS,
    ...o,
  };
}

test('a 4-node group with maxSurge 2 is replaced without ever having fewer than 4 Ready, schedulable nodes', async () => {
  const name = 'surge.example.com';
  const { vfs, kube } = await setUp(name, 4, 2);
  const before = await describeGroup(asg, `${NODES_IG}.${name}`);
  kube.startKubelets();
  const samples: number[] = [];
  const events: RollingUpdateEvent[] = [];
  let taintedAtSurge: string[] = [];
  const result = await rollingUpdateCluster(
    vfs,
    name,
    options(kube, vfs, {
      report: (e) => {
        events.push(e);
        samples.push(kube.schedulable(NODES_IG).length);
        if (e.type === 'detach' && taintedAtSurge.length === 0) {
          taintedAtSurge = kube.api.store
            .list('nodes')
            .filter((n) => n.spec?.taints?.some((t: { key: string; effect: string }) => t.key === 'kops.k8s.io/scheduled-for-update' && t.effect === 'PreferNoSchedule'))
            .map((n) => String(n.spec?.providerID).split('/').pop() as string)
            .sort();
        }
      },
    }),
  );
  expect(result.applied).toBe(true);
  expect(samples.length).toBeGreaterThan(10);
  expect(Math.min(...samples)).toBeGreaterThanOrEqual(4);
  // The surge first: the two last old instances detached, then each old one cordoned, drained, deleted, terminated.
  const old = before.members.map((m) => m.id);
  // kops's soft taint on every old node before anything moves, so evicted pods avoid the other old nodes.
  expect(taintedAtSurge).toEqual(old);
  expect(events.filter((e) => e.type === 'detach').map((e) => (e as { instance: string }).instance)).toEqual([old[3], old[2]]);
  expect(events.filter((e) => e.type === 'terminate').map((e) => (e as { instance: string }).instance).sort()).toEqual(old);
  expect(events.findIndex((e) => e.type === 'cordon')).toBeGreaterThan(events.findIndex((e) => e.type === 'detach'));
  const after = await describeGroup(asg, `${NODES_IG}.${name}`);
  expect(after.desired).toBe(4);
  expect(after.members.filter((m) => old.includes(m.id))).toEqual([]);
  const live = await liveInstances(ec2, name);
  expect(live.filter((i) => i.Tags?.some((t) => t.Key === DETACHED_TAG))).toEqual([]);
  expect(live).toHaveLength(5);
  await kube.register();
  expect(kube.schedulable(NODES_IG)).toHaveLength(4);
  expect((await rollingUpdateCluster(vfs, name, options(kube, vfs))).needsUpdate).toBe(false);
});

test('a drain blocked by a PodDisruptionBudget fails after --drain-timeout, naming the budget and the pod', async () => {
  const name = 'pdb.example.com';
  const { vfs, kube } = await setUp(name, 2, 0);
  kube.startKubelets();
  const first = (await describeGroup(asg, `${NODES_IG}.${name}`)).members[0].id;
  const node = kube.api.store.list('nodes').find((n) => String(n.spec?.providerID).endsWith(first))?.metadata.name as string;
  kube.api.store.put('pods', kubePod('db-0', { namespace: 'shop', nodeName: node, labels: { app: 'db' }, ownerKind: 'StatefulSet' }));
  kube.api.store.put('poddisruptionbudgets', { metadata: { name: 'db', namespace: 'shop' }, spec: { minAvailable: 1, selector: { matchLabels: { app: 'db' } } } });
  const events: RollingUpdateEvent[] = [];
  const run = rollingUpdateCluster(vfs, name, options(kube, vfs, { timings: { ...TIMINGS, drainTimeoutMs: 1500 }, report: (e) => events.push(e) }));
  const error = await run.then(
    () => undefined,
    (e: unknown) => e as { code?: string; message?: string },
  );
  expect(error?.code).toBe('DRAIN_FAILED');
  expect(error?.message).toContain(`node "${node}"`);
  expect(error?.message).toContain('pod shop/db-0 is protected by PodDisruptionBudget shop/db');
  expect(events.find((e) => e.type === 'drain-blocked')).toMatchObject({ blocked: { node, pod: 'shop/db-0', pdb: 'shop/db' } });
  // Stopped at the drain: the instance was not terminated, its pod is still there.
  expect(events.filter((e) => e.type === 'terminate')).toEqual([]);
  expect((await liveInstances(ec2, name)).map((i) => i.InstanceId)).toContain(first);
  expect(kube.api.store.list('pods', 'shop').map((p) => p.metadata.name)).toEqual(['db-0']);
});

test('with --force-drain the blocked drain is reported and the update goes on', async () => {
  const name = 'forcedrain.example.com';
  const { vfs, kube } = await setUp(name, 1, 0);
  kube.startKubelets();
  const only = (await describeGroup(asg, `${NODES_IG}.${name}`)).members[0].id;
  const node = kube.api.store.list('nodes').find((n) => String(n.spec?.providerID).endsWith(only))?.metadata.name as string;
  kube.api.store.put('pods', kubePod('db-0', { namespace: 'shop', nodeName: node, labels: { app: 'db' }, ownerKind: 'StatefulSet' }));
  kube.api.store.put('poddisruptionbudgets', { metadata: { name: 'db', namespace: 'shop' }, spec: { minAvailable: 1, selector: { matchLabels: { app: 'db' } } } });
  const events: RollingUpdateEvent[] = [];
  await rollingUpdateCluster(vfs, name, options(kube, vfs, { timings: { ...TIMINGS, drainTimeoutMs: 300, failOnDrainError: false }, report: (e) => events.push(e) }));
  expect(events.find((e) => e.type === 'drain-failed-ignored')).toMatchObject({ node });
  expect((await liveInstances(ec2, name)).map((i) => i.InstanceId)).not.toContain(only);
});

test('a cluster that does not validate stops the update within --validation-timeout, before anything is replaced', async () => {
  const name = 'invalid.example.com';
  const { vfs, kube } = await setUp(name, 2, 1);
  const cp = kube.api.store.list('nodes').find((n) => n.metadata.labels?.['node-role.kubernetes.io/control-plane'] !== undefined);
  if (!cp) throw new Error('no control-plane node');
  const notReady = { ...cp, status: { ...cp.status, conditions: cp.status.conditions.map((c: { type: string }) => (c.type === 'Ready' ? { ...c, status: 'False', reason: 'KubeletNotReady', message: 'container runtime is down' } : c)) } };
  kube.api.store.update('nodes', cp, notReady);
  const before = await describeGroup(asg, `${NODES_IG}.${name}`);
  const events: RollingUpdateEvent[] = [];
  const error = await rollingUpdateCluster(vfs, name, options(kube, vfs, { timings: { ...TIMINGS, validationTimeoutMs: 500 }, report: (e) => events.push(e) })).then(
    () => undefined,
    (e: unknown) => e as { code?: string; message?: string },
  );
  expect(error?.code).toBe('VALIDATION_FAILED');
  expect(error?.message).toContain(cp.metadata.name);
  expect(events.filter((e) => e.type === 'validate').length).toBeGreaterThan(1);
  expect(events.filter((e) => e.type === 'detach' || e.type === 'cordon' || e.type === 'terminate')).toEqual([]);
  expect(await describeGroup(asg, `${NODES_IG}.${name}`)).toEqual(before);
});
