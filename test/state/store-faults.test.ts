import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import * as yaml from 'js-yaml';
import type { Cluster } from '../../src/api/types';
import { createCluster } from '../../src/ops/create-cluster';
import { deleteClusterState } from '../../src/ops/delete-cluster';
import { planManagedFiles, writeManagedFiles } from '../../src/ops/plan-managed-files';
import { saveCluster } from '../../src/ops/save-cluster';
import { ClusterRepository } from '../../src/state/cluster-repository';
import { LockOptions, withClusterLocks } from '../../src/state/lock/cluster-lock';
import { StatePaths } from '../../src/state/state-paths';
import { S3Vfs } from '../../src/state/vfs/s3-vfs';
import type { Vfs } from '../../src/state/vfs/vfs';
import { Fault, FaultProxy, FaultRule, startFaultProxy } from '../helpers/fault-proxy';
import { MotoServer, startMotoServer } from '../helpers/moto-server';

// The S3 store through a proxy in front of moto that loses responses of applied requests, drops
// connections, answers 503 and delays: after every run the store holds the whole cluster, nothing of a
// new one, a leftover that the next command removes, or (an update cut short) a cluster whose PKI and
// managed files the next update completes; a fault-free re-run always succeeds. Create and edit are
// followed by what `update --yes` does to the store (planManagedFiles + writeManagedFiles, under the
// lock), since create and edit write only the user's objects, as in kops.

const BUCKET = 'kforge-faults';
const LOCK: LockOptions = { command: 'kforge test', ttlSeconds: 60, warn: () => undefined };

let moto: MotoServer;
let proxy: FaultProxy;
let vfs: Vfs;
let saved: Record<string, string | undefined> = {};
let reference: string[];

/** Keys of a cluster relative to its prefix, sorted, the lock left out. */
async function clusterObjects(name: string): Promise<string[]> {
  return (await vfs.list(StatePaths.clusterPrefix(name))).filter((k) => k !== StatePaths.lock(name)).map((k) => k.slice(name.length + 1));
}

/**
 * What is stored under a name: the whole cluster with its PKI and managed files up to date, a cluster
 * whose update did not complete (a re-run of update completes it), nothing, a leftover (no config), or
 * something broken (objects that belong to no complete cluster).
 */
async function stateOf(name: string): Promise<'complete' | 'needs-update' | 'absent' | 'leftover' | 'broken'> {
  const keys = await clusterObjects(name);
  if (keys.length === 0) return 'absent';
  if (!keys.includes('config')) return 'leftover';
  if (keys.some((k) => !reference.includes(k))) return 'broken';
  if (keys.length < reference.length || (await planManagedFiles(vfs, name)).hasChanges) return 'needs-update';
  // The managed files belong to the stored config.
  const config = yaml.load((await vfs.read(StatePaths.config(name)))!.data.toString()) as Cluster;
  const completed = await new ClusterRepository(vfs).getCompleted(name);
  return config.spec.kubelet?.maxPods === undefined || completed.spec.kubelet?.maxPods === config.spec.kubelet.maxPods ? 'complete' : 'broken';
}

/** What `update --yes` does to the store: the missing keysets and the changed managed files, under the lock. */
const update = (name: string) => withClusterLocks(vfs, [name], LOCK, async () => writeManagedFiles(vfs, await planManagedFiles(vfs, name)));
/** create cluster, then update; a re-run completes whatever an interrupted one left. */
async function create(name: string): Promise<void> {
  if (!(await new ClusterRepository(vfs).exists(name))) await createCluster(vfs, { name, zones: ['us-east-1a'] }, [], undefined, LOCK);
  await update(name);
}
const remove = (name: string) => withClusterLocks(vfs, [name], LOCK, () => deleteClusterState(vfs, name));
/** An edit of spec.kubelet.maxPods, then update. */
async function edit(name: string, maxPods: number): Promise<void> {
  await withClusterLocks(vfs, [name], LOCK, async () => {
    const stored = await new ClusterRepository(vfs).get(name);
    const cluster = stored.cluster.object;
    const changed = { ...cluster, spec: { ...cluster.spec, kubelet: { ...cluster.spec.kubelet, maxPods } } };
    await saveCluster(vfs, { cluster: changed, instanceGroups: stored.instanceGroups.map((v) => v.object), previous: stored });
  });
  await update(name);
}

/** Faults the last `underFaults` applied. */
let lastApplied: string[] = [];

/** Runs `fn` under `rule`, returning whether it succeeded; the rule is lifted afterwards. */
async function underFaults(rule: FaultRule, fn: () => Promise<unknown>): Promise<boolean> {
  proxy.setRule(rule);
  try {
    await fn();
    return true;
  } catch {
    return false;
  } finally {
    lastApplied = [...proxy.applied];
    proxy.setRule(undefined);
  }
}

/** Every `period`-th request of `method`, from the `start`-th on, gets `fault`. */
function every(method: string, start: number, period: number, fault: Fault): FaultRule {
  return (r) => (r.method === method && r.nthOfMethod >= start && (r.nthOfMethod - start) % period === 0 ? fault : undefined);
}

beforeAll(async () => {
  moto = await startMotoServer();
  proxy = await startFaultProxy(moto.endpoint);
  const env = { ...moto.env, AWS_ENDPOINT_URL: proxy.endpoint };
  // The SDK's credential chain reads process.env.
  for (const k of Object.keys(env)) saved[k] = process.env[k];
  Object.assign(process.env, env);
  const admin = new S3Client({ region: 'us-east-1', endpoint: moto.endpoint, forcePathStyle: true, credentials: { accessKeyId: 'test', secretAccessKey: 'test' } });
  await admin.send(new CreateBucketCommand({ Bucket: BUCKET }));
  admin.destroy();
  vfs = new S3Vfs(`s3://${BUCKET}/state`, process.env);
  await create('reference.k8s.local');
  reference = await clusterObjects('reference.k8s.local');
}, 60_000);

afterAll(async () => {
  await proxy?.stop();
  await moto?.stop();
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  saved = {};
});

describe('the S3 store under lost responses (moto behind a fault proxy)', () => {
  it('0 of 20 creates leave a name unusable when PUT responses are lost (every 4th-7th)', async () => {
    const outcomes: string[] = [];
    for (let i = 0; i < 20; i++) {
      const name = `lost${i}.k8s.local`;
      const ok = await underFaults(every('PUT', 4 + (i % 4), 4 + (i % 4), 'lose-response'), () => create(name));
      const after = await stateOf(name);
      // A create that reported success stored the whole cluster; one that failed left nothing a reader
      // sees, or a cluster whose update the re-run completes.
      expect(ok ? after === 'complete' : after !== 'broken').toBe(true);
      if (!ok) await create(name);
      expect(await stateOf(name)).toBe('complete');
      expect(lastApplied.length).toBeGreaterThan(0);
      outcomes.push(`${ok ? 'ok' : 'failed'}:${after}`);
    }
    // The faults really hit: without the own-write check, every create here reported "already exists".
    expect(outcomes.filter((o) => o.startsWith('ok')).length).toBeGreaterThan(10);
  }, 240_000);

  it('an edit whose compare-and-swap response is lost succeeds, and readers see the old or the new spec, never a mix', async () => {
    await create('edit.k8s.local');
    for (let i = 0; i < 6; i++) {
      const ok = await underFaults(every('PUT', 2 + i, 3, 'lose-response'), () => edit('edit.k8s.local', 100 + i));
      if (!ok) {
        expect(['complete', 'needs-update']).toContain(await stateOf('edit.k8s.local'));
        await update('edit.k8s.local');
      }
      expect(await stateOf('edit.k8s.local')).toBe('complete');
      if (ok) expect((await new ClusterRepository(vfs).getCompleted('edit.k8s.local')).spec.kubelet?.maxPods).toBe(100 + i);
    }
  }, 120_000);

  it('the lock write whose response is lost is recognised as our own lease', async () => {
    await create('lock.k8s.local');
    // The first PUT of the edit is the lease's create-only write.
    expect(await underFaults(every('PUT', 1, 1000, 'lose-response'), () => edit('lock.k8s.local', 150))).toBe(true);
    expect(lastApplied).toEqual([expect.stringMatching(/^PUT \/kforge-faults\/state\/lock\.k8s\.local\/kforge-lock\.json.* lose-response$/)]);
    expect((await new ClusterRepository(vfs).getCompleted('lock.k8s.local')).spec.kubelet?.maxPods).toBe(150);
    expect(await vfs.read(StatePaths.lock('lock.k8s.local'))).toBeUndefined();
  }, 60_000);

  const faults: Array<[Fault, string]> = [
    ['lose-response', 'PUT'],
    ['lose-response', 'DELETE'],
    ['drop-before', 'PUT'],
    ['unavailable', 'PUT'],
    ['unavailable', 'GET'],
    ['delay', 'PUT'],
  ];
  it.each(faults)('create, edit and delete under %s of %s requests: the whole cluster, nothing, or a leftover the next command removes', async (fault, method) => {
    const name = `${fault}-${method.toLowerCase()}.k8s.local`;
    const rule = every(method, 3, 3, fault);
    if (!(await underFaults(rule, () => create(name)))) await create(name);
    expect(await stateOf(name)).toBe('complete');
    if (!(await underFaults(rule, () => edit(name, 120)))) {
      expect(['complete', 'needs-update']).toContain(await stateOf(name));
      await update(name);
    }
    expect(await stateOf(name)).toBe('complete');
    await underFaults(rule, () => remove(name));
    expect(['complete', 'absent', 'leftover']).toContain(await stateOf(name));
    // A delete that stopped midway has removed config first: the name reads as gone, and a re-run finishes.
    if ((await stateOf(name)) !== 'absent') await remove(name);
    expect(await stateOf(name)).toBe('absent');
  }, 120_000);
});
