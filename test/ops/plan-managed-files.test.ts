import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as yaml from 'js-yaml';
import type { Cluster } from '../../src/api/types';
import { ConflictError } from '../../src/errors/conflict-error';
import { createCluster } from '../../src/ops/create-cluster';
import { deleteInstanceGroup, createInstanceGroup } from '../../src/ops/instance-group-ops';
import { ManagedFilesPlan, planManagedFiles, writeManagedFiles } from '../../src/ops/plan-managed-files';
import { saveCluster } from '../../src/ops/save-cluster';
import { ClusterRepository } from '../../src/state/cluster-repository';
import type { LockOptions } from '../../src/state/lock/cluster-lock';
import { StatePaths } from '../../src/state/state-paths';
import { openVfs } from '../../src/state/vfs/open-vfs';
import type { Vfs } from '../../src/state/vfs/vfs';
import { tempDir } from '../helpers/cli';
import { CLUSTER_KEYSETS, KEYSTORE_FILES } from '../helpers/cluster-layout';

const LOCK: LockOptions = { command: 'kforge test', ttlSeconds: 60, warn: () => undefined };
const NAME = 'm.k8s.local';
const ZONE = 'us-east-1a';
const CP = `${NAME}/igconfig/controlplane/control-plane-${ZONE}/nodeupconfig.yaml`;
const NODES = `${NAME}/igconfig/node/nodes-${ZONE}/nodeupconfig.yaml`;
const COMPLETED = `${NAME}/cluster-completed.spec`;
const ADDONS = `${NAME}/addons/`;
const CHANNEL = `${ADDONS}bootstrap-channel.yaml`;
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

async function newCluster(): Promise<{ vfs: Vfs; dir: string }> {
  const dir = tempDir('kforge-managed-');
  dirs.push(dir);
  const vfs = openVfs(dir);
  await createCluster(vfs, { name: NAME, zones: [ZONE] }, [], undefined, LOCK);
  return { vfs, dir };
}

async function setMaxPods(vfs: Vfs, maxPods: number): Promise<void> {
  const stored = await new ClusterRepository(vfs).get(NAME);
  const cluster = stored.cluster.object;
  const changed: Cluster = { ...cluster, spec: { ...cluster.spec, kubelet: { ...cluster.spec.kubelet, maxPods } } };
  await saveCluster(vfs, { cluster: changed, instanceGroups: stored.instanceGroups.map((v) => v.object), previous: stored });
}

/** The action on each file but the addons' (their own tests are in test/model/addons; other builders add files there). */
const actions = (plan: ManagedFilesPlan) => Object.fromEntries(plan.files.filter((f) => !f.path.startsWith(ADDONS)).map((f) => [f.path, f.action]));
const addonFiles = (plan: ManagedFilesPlan) => plan.files.filter((f) => f.path.startsWith(ADDONS));
const PRIVATE_KEY = /PRIVATE KEY|privateMaterial/;

describe('create cluster writes only the user objects', () => {
  it('no pki/, no igconfig/, no completed spec', async () => {
    const { vfs } = await newCluster();
    expect(await vfs.list(`${NAME}/`)).toEqual([`${NAME}/config`, `${NAME}/instancegroup/control-plane-${ZONE}`, `${NAME}/instancegroup/nodes-${ZONE}`]);
  });
});

describe('planManagedFiles / writeManagedFiles', () => {
  it('plans every keyset and file of a fresh cluster, writes them, and then plans no change', async () => {
    const { vfs, dir } = await newCluster();
    const before = await vfs.list('');
    const plan = await planManagedFiles(vfs, NAME);
    // Planning writes nothing.
    expect(await vfs.list('')).toEqual(before);
    expect(plan.cluster).toBe(NAME);
    expect(plan.keysetsToCreate).toEqual(CLUSTER_KEYSETS);
    expect(plan.files.filter((f) => !f.path.startsWith(ADDONS)).map((f) => f.path)).toEqual([COMPLETED, CP, NODES]);
    // The addons: kops's channel and one manifest per addon, e.g. limit-range's.
    expect(addonFiles(plan).map((f) => f.path)).toEqual(expect.arrayContaining([CHANNEL, `${ADDONS}limit-range.addons.k8s.io/v1.5.0.yaml`]));
    expect(plan.files.every((f) => f.action === 'create' && /^\+\d+ lines$/.test(f.diff ?? ''))).toBe(true);
    expect(plan.hasChanges).toBe(true);
    expect(Object.keys(plan.nodeupConfigHashes)).toEqual([`control-plane-${ZONE}`, `nodes-${ZONE}`]);
    expect(plan.completed.metadata.name).toBe(NAME);
    expect(JSON.stringify(plan)).not.toMatch(PRIVATE_KEY);

    await writeManagedFiles(vfs, plan);
    const keys = (await vfs.list(`${NAME}/`)).map((k) => k.slice(NAME.length + 1));
    expect(keys).toEqual(expect.arrayContaining([...KEYSTORE_FILES, 'cluster-completed.spec']));
    // The hashes are those of the files written, which carry the CA certificates.
    const nodes = (await vfs.read(NODES))!.data;
    expect(plan.nodeupConfigHashes[`nodes-${ZONE}`]).toBe(createHash('sha256').update(nodes).digest('hex'));
    const cas = (yaml.load(nodes.toString()) as { CAs: Record<string, string> }).CAs;
    expect(cas['kubernetes-ca']).toMatch(/^-----BEGIN CERTIFICATE-----/);
    expect(nodes.toString()).not.toMatch(PRIVATE_KEY);
    expect(yaml.load((await vfs.read(COMPLETED))!.data.toString())).toEqual(JSON.parse(JSON.stringify(plan.completed)));
    // Private keysets are secrets (0600), issued ones hold no key.
    for (const k of CLUSTER_KEYSETS) {
      expect(fs.statSync(`${dir}/${StatePaths.privateKeyset(NAME, k)}`).mode & 0o777).toBe(0o600);
      expect(fs.readFileSync(`${dir}/${StatePaths.issuedKeyset(NAME, k)}`, 'utf8')).not.toMatch(/privateMaterial/);
    }

    const again = await planManagedFiles(vfs, NAME);
    const third = await planManagedFiles(vfs, NAME);
    expect(again.hasChanges).toBe(false);
    expect(again.keysetsToCreate).toEqual([]);
    expect(again.files.every((f) => f.action === 'none' && f.diff === undefined)).toBe(true);
    expect(again.nodeupConfigHashes).toEqual(plan.nodeupConfigHashes);
    expect(JSON.stringify(third)).toBe(JSON.stringify(again));
  });

  it('an edit of a kubelet setting makes exactly the affected files "update", with a diff', async () => {
    const { vfs } = await newCluster();
    await writeManagedFiles(vfs, await planManagedFiles(vfs, NAME));
    const stored = await vfs.list('');
    await setMaxPods(vfs, 42);
    // The edit wrote config only.
    expect(await vfs.list('')).toEqual(stored);
    const plan = await planManagedFiles(vfs, NAME);
    expect(plan.keysetsToCreate).toEqual([]);
    expect(actions(plan)).toEqual({ [COMPLETED]: 'update', [CP]: 'update', [NODES]: 'update' });
    const completed = plan.files.find((f) => f.path === COMPLETED)!.diff!;
    expect(completed).toMatch(/^@@ -\d+,\d+ \+\d+,\d+ @@\n/);
    expect(completed).toMatch(/^\+ {4}maxPods: 42$/m);
    expect(JSON.stringify(plan)).not.toMatch(PRIVATE_KEY);
    await writeManagedFiles(vfs, plan);
    expect((await planManagedFiles(vfs, NAME)).hasChanges).toBe(false);
    expect((yaml.load((await vfs.read(COMPLETED))!.data.toString()) as Cluster).spec.kubelet?.maxPods).toBe(42);
  });

  it('an instance group added is "create"; one removed leaves its nodeup config to the plan, as "delete"', async () => {
    const { vfs } = await newCluster();
    await writeManagedFiles(vfs, await planManagedFiles(vfs, NAME));
    await createInstanceGroup(vfs, { cluster: NAME, name: 'extra', role: 'Node', subnets: [ZONE], sets: [] }, false);
    const added = await planManagedFiles(vfs, NAME);
    const EXTRA = `${NAME}/igconfig/node/extra/nodeupconfig.yaml`;
    expect(actions(added)[EXTRA]).toBe('create');
    // The completed spec does not list instance groups: only the new group's config changes.
    expect(added.files.filter((f) => f.action !== 'none').map((f) => f.path)).toEqual([EXTRA]);
    await writeManagedFiles(vfs, added);

    await deleteInstanceGroup(vfs, NAME, 'extra');
    expect((await vfs.read(EXTRA)) !== undefined).toBe(true);
    const removed = await planManagedFiles(vfs, NAME);
    expect(actions(removed)).toEqual({ [COMPLETED]: 'none', [CP]: 'none', [EXTRA]: 'delete', [NODES]: 'none' });
    expect(removed.nodeupConfigHashes).not.toHaveProperty('extra');
    await writeManagedFiles(vfs, removed);
    expect(await vfs.read(EXTRA)).toBeUndefined();
    expect((await planManagedFiles(vfs, NAME)).hasChanges).toBe(false);
  });

  it('reuses existing keysets and creates only the missing ones (an etcd cluster added later)', async () => {
    const { vfs } = await newCluster();
    await writeManagedFiles(vfs, await planManagedFiles(vfs, NAME));
    const ca = (await vfs.read(StatePaths.privateKeyset(NAME, 'kubernetes-ca')))!.data.toString();
    await vfs.delete(StatePaths.issuedKeyset(NAME, 'etcd-peers-ca-events'));
    await vfs.delete(StatePaths.privateKeyset(NAME, 'etcd-peers-ca-events'));
    const plan = await planManagedFiles(vfs, NAME);
    expect(plan.keysetsToCreate).toEqual(['etcd-peers-ca-events']);
    expect(actions(plan)[CP]).toBe('update');
    expect(actions(plan)[NODES]).toBe('none');
    await writeManagedFiles(vfs, plan);
    expect((await vfs.read(StatePaths.privateKeyset(NAME, 'kubernetes-ca')))!.data.toString()).toBe(ca);
  });

  it('a keyset created meanwhile by another writer makes the write fail cleanly: no file written, the keyset kept', async () => {
    const { vfs } = await newCluster();
    const plan = await planManagedFiles(vfs, NAME);
    const other = await planManagedFiles(vfs, NAME);
    await writeManagedFiles(vfs, other);
    const winner = await vfs.read(StatePaths.privateKeyset(NAME, 'kubernetes-ca'));
    const files = await Promise.all(plan.files.map((f) => vfs.read(f.path)));
    await expect(writeManagedFiles(vfs, plan)).rejects.toBeInstanceOf(ConflictError);
    expect((await vfs.read(StatePaths.privateKeyset(NAME, 'kubernetes-ca')))!.data).toEqual(winner!.data);
    expect(await Promise.all(plan.files.map((f) => vfs.read(f.path)))).toEqual(files);
    expect((await planManagedFiles(vfs, NAME)).hasChanges).toBe(false);
  });

  it('a plan copied (e.g. through JSON) carries no keys and cannot be written', async () => {
    const { vfs } = await newCluster();
    const plan = await planManagedFiles(vfs, NAME);
    const copy = JSON.parse(JSON.stringify(plan)) as ManagedFilesPlan;
    await expect(writeManagedFiles(vfs, copy)).rejects.toMatchObject({ code: 'USAGE' });
    expect(Object.values(plan).some((v) => JSON.stringify(v).includes('PRIVATE KEY'))).toBe(false);
  });

  it('a crash after any single write of the PKI and files leaves a store that the next plan completes', async () => {
    const { vfs: base, dir } = await newCluster();
    // How many writes a complete write makes.
    let total = 0;
    const counting = crashingVfs(openVfs(copyDir(dir)), Infinity, () => total++);
    await writeManagedFiles(counting, await planManagedFiles(counting, NAME));
    const addons = addonFiles(await planManagedFiles(openVfs(dir), NAME)).length;
    expect(total).toBe(2 * CLUSTER_KEYSETS.length + 3 + addons);
    for (let n = 1; n <= total; n++) {
      const copy = copyDir(dir);
      const crashing = crashingVfs(openVfs(copy), n);
      const outcome = await writeManagedFiles(crashing, await planManagedFiles(crashing, NAME)).then(() => 'written', (e: Error) => e.message);
      // Killed after its last write (or in the last parallel batch of writes, all under way), the write was complete.
      expect({ n, outcome }).toEqual({ n, outcome: n < total - 8 - addons ? 'crashed' : expect.stringMatching(/^(crashed|written)$/) });
      const vfs = openVfs(copy);
      const plan = await planManagedFiles(vfs, NAME);
      expect({ n, hasChanges: plan.hasChanges }).toEqual({ n, hasChanges: outcome === 'crashed' });
      await writeManagedFiles(vfs, plan);
      const after = await planManagedFiles(vfs, NAME);
      expect({ n, hasChanges: after.hasChanges }).toEqual({ n, hasChanges: false });
      // The nodeup configs carry the CA that is stored, whichever write crashed.
      const ca = (await vfs.read(StatePaths.issuedKeyset(NAME, 'kubernetes-ca')))!.data.toString();
      const nodes = yaml.load((await vfs.read(NODES))!.data.toString()) as { KeypairIDs: Record<string, string> };
      expect(ca).toContain(nodes.KeypairIDs['kubernetes-ca']);
      for (const k of CLUSTER_KEYSETS) expect(fs.readFileSync(`${copy}/${StatePaths.issuedKeyset(NAME, k)}`, 'utf8')).not.toMatch(/privateMaterial/);
    }
    expect(await base.list(`${NAME}/pki/`)).toEqual([]);
  }, 60_000);
});

/** A copy of a store directory. */
function copyDir(dir: string): string {
  const copy = tempDir('kforge-managed-copy-');
  dirs.push(copy);
  fs.cpSync(dir, copy, { recursive: true });
  return copy;
}

/**
 * A store that "crashes" after its nth mutation: that write happens, and from then on every operation
 * fails, so nothing (not even a transaction's undo) reaches the store, as when the process is killed.
 */
function crashingVfs(inner: Vfs, n: number, onWrite: () => void = () => undefined): Vfs {
  let writes = 0;
  const check = () => {
    if (writes >= n) throw new Error('crashed');
  };
  return {
    url: inner.url,
    read: async (key) => (check(), inner.read(key)),
    list: async (prefix) => (check(), inner.list(prefix)),
    write: async (key, data, options) => {
      check();
      const v = await inner.write(key, data, options);
      writes++;
      onWrite();
      return v;
    },
    delete: async (key, options) => {
      check();
      await inner.delete(key, options);
      writes++;
      onWrite();
    },
  } as Vfs;
}
