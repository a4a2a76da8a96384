import { createHash } from 'node:crypto';
import type { Cluster } from '../api/types';
import { normalizedRole } from '../expand/expand-context';
import type { Keyset } from '../pki/keyset';
import { ClusterRepository } from '../state/cluster-repository';
import { Keystore } from '../state/keystore';
import { StatePaths } from '../state/state-paths';
import { StoreTransaction } from '../state/store-transaction';
import type { Vfs } from '../state/vfs/vfs';
import { completeCluster, derivedFiles } from './expand-cluster';
import { etcdClusterNames, planExistingClusterPki } from './plan-cluster-pki';

/** One managed object of the plan. */
export interface ManagedFileChange {
  path: string;
  action: 'create' | 'update' | 'delete' | 'none';
  /** A unified-style diff (update) or a size summary (create); never holds a private key. */
  diff?: string;
}

/** What update will write to the state store. */
export interface ManagedFilesPlan {
  cluster: string;
  /** Keysets that do not exist yet and will be created, sorted. */
  keysetsToCreate: string[];
  /** Sorted by path. */
  files: ManagedFileChange[];
  /** sha256 (hex) of each instance group's nodeupconfig.yaml as it will be written, by instance group name. */
  nodeupConfigHashes: Record<string, string>;
  /** The completed spec, as it will be written. */
  completed: Cluster;
  hasChanges: boolean;
}

// The new keysets and file contents stay out of the plan object, so printing a plan can never print a key.
const pending = new WeakMap<ManagedFilesPlan, { keysets: Keyset[]; contents: Map<string, string> }>();

/** The managed files (completed spec, nodeup configs) and missing keysets of a stored cluster, compared with the store. */
export async function planManagedFiles(vfs: Vfs, clusterName: string): Promise<ManagedFilesPlan> {
  const stored = await new ClusterRepository(vfs).get(clusterName);
  const cluster = stored.cluster.object;
  const instanceGroups = stored.instanceGroups.map((v) => v.object);
  const completed = completeCluster(cluster, instanceGroups, vfs.url);
  const pki = await planExistingClusterPki(new Keystore(vfs, clusterName), etcdClusterNames(completed));
  const contents = derivedFiles(completed, instanceGroups, pki.certificates);
  const nodeupConfigHashes: Record<string, string> = {};
  for (const ig of instanceGroups) {
    const text = contents.get(StatePaths.nodeupConfig(clusterName, normalizedRole(ig), ig.metadata.name)) ?? '';
    nodeupConfigHashes[ig.metadata.name] = createHash('sha256').update(text).digest('hex');
  }
  const existing = await vfs.list(StatePaths.igconfigPrefix(clusterName));
  const files: ManagedFileChange[] = [];
  for (const [path, text] of contents) {
    const old = await vfs.read(path);
    const before = old?.data.toString('utf8');
    files.push(before === undefined ? { path, action: 'create', diff: `${text.split('\n').length - 1} lines` } : before === text ? { path, action: 'none' } : { path, action: 'update', diff: lineDiff(before, text) });
  }
  for (const path of existing) if (!contents.has(path)) files.push({ path, action: 'delete' });
  files.sort((a, b) => (a.path < b.path ? -1 : 1));
  const keysetsToCreate = pki.created.map((k) => k.name).sort();
  const plan: ManagedFilesPlan = { cluster: clusterName, keysetsToCreate, files, nodeupConfigHashes, completed, hasChanges: keysetsToCreate.length > 0 || files.some((f) => f.action !== 'none') };
  pending.set(plan, { keysets: pki.created, contents });
  return plan;
}

/** Writes a plan's new keysets (create-only) and changed files, and removes the files it deletes; the caller holds the lock. */
export async function writeManagedFiles(vfs: Vfs, plan: ManagedFilesPlan): Promise<void> {
  const data = pending.get(plan);
  if (!data) throw new Error('writeManagedFiles: the plan was not made by planManagedFiles');
  const tx = new StoreTransaction(vfs);
  const keystore = new Keystore(vfs, plan.cluster);
  for (const keyset of data.keysets) keystore.stage(tx, keyset);
  for (const f of plan.files) {
    if (f.action === 'create' || f.action === 'update') tx.put(f.path, data.contents.get(f.path) ?? '');
    if (f.action === 'delete') tx.remove(f.path);
  }
  await tx.commit();
}

/** A minimal line diff: the changed lines of `before` as `-`, of `after` as `+`, common prefix and suffix dropped. */
function lineDiff(before: string, after: string): string {
  const a = before.split('\n');
  const b = after.split('\n');
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  return [...a.slice(start, endA).map((l) => `- ${l}`), ...b.slice(start, endB).map((l) => `+ ${l}`)].join('\n');
}
