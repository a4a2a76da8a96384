import type { Cluster, InstanceGroup } from '../api/types';
import { toYaml, toYamlStream } from '../api/to-yaml';
import type { YamlDocument } from '../api/yaml-documents';
import { AlreadyExistsError } from '../errors/already-exists-error';
import { ConflictError } from '../errors/conflict-error';
import type { StoredCluster } from '../state/cluster-repository';
import { StatePaths } from '../state/state-paths';
import { StoreTransaction } from '../state/store-transaction';
import type { Vfs } from '../state/vfs/vfs';
import * as yaml from 'js-yaml';
import { isTableKubernetesVersion, ReleaseHashes } from '../expand/assets/asset-catalog';
import { resolveReleaseHashes } from '../expand/assets/resolve-release-hashes';
import { kubernetesVersionProblem, normalizeKubernetesVersion } from '../expand/kubernetes-version';
import { Keystore } from '../state/keystore';
import { performAssignments } from '../expand/perform-assignments';
import { completeCluster, derivedFiles, ExpandedCluster } from './expand-cluster';
import { etcdClusterNames, PkiPlan, planExistingClusterPki, planNewClusterPki } from './plan-cluster-pki';

/** What a save wrote and removed. */
export interface SaveResult {
  expanded: ExpandedCluster;
  written: string[];
  deleted: string[];
}

/** One cluster's desired state, as a save takes it. */
export interface ClusterChange {
  cluster: Cluster;
  instanceGroups: InstanceGroup[];
  /** What was read from the store; undefined for a create. */
  previous?: StoredCluster;
  /** Manifest documents of the objects, so errors can name file and line. */
  sources?: Map<string, YamlDocument>;
  /** Objects of other kinds kept with the cluster (`clusteraddons/default`); undefined leaves the stored ones. */
  additionalObjects?: Array<Record<string, unknown>>;
  /** Further objects to write with the cluster (e.g. the SSH public key). */
  extraFiles?: Array<[string, string]>;
  /** The keystore changes, when the caller made them (create keypair). Default: generate what is missing. */
  pki?: PkiPlan;
}

/**
 * Validates and expands one cluster and stages all its writes in `tx`. `config` is the commit point,
 * written last (docs/state-stores.md): until it is written, a new cluster does not exist for any reader,
 * and an edited one still reads as before. With no `previous` it is a create: the caller holds the
 * cluster's lock and has removed what an interrupted command left, and every object is written
 * create-only. With `previous`, the user's objects are compare-and-swapped against the versions read.
 */
export async function stageClusterSave(vfs: Vfs, tx: StoreTransaction, change: ClusterChange): Promise<SaveResult> {
  const { instanceGroups, previous } = change;
  // Assigned values (the channel's Kubernetes version) are stored in `config`, explicit from then on.
  const cluster = performAssignments(change.cluster);
  const name = cluster.metadata.name;
  const keystore = new Keystore(vfs, name);
  // Keys are generated on the thread pool while the main thread validates and expands the spec.
  const pkiPlan = change.pki
    ? Promise.resolve(change.pki)
    : previous
      ? planExistingClusterPki(keystore, etcdClusterNames(cluster))
      : planNewClusterPki(etcdClusterNames(cluster));
  pkiPlan.catch(() => undefined);
  const releaseHashes = await releaseHashesFor(vfs, cluster, previous);
  // The hashes go into the completed spec only: `config` stays the user's.
  const forExpansion = releaseHashes ? { ...cluster, spec: { ...cluster.spec, assets: { ...cluster.spec.assets, releaseHashes } } } : cluster;
  const completed = completeCluster(forExpansion, instanceGroups, vfs.url, change.sources);
  const pki = await pkiPlan;
  const expanded: ExpandedCluster = { completed, files: derivedFiles(completed, instanceGroups, pki.certificates) };
  const written: string[] = [];
  const deleted: string[] = [];
  const put = (key: string, data: string, opts = {}) => {
    tx.put(key, data, opts);
    written.push(key);
  };
  const before = new Map((previous?.instanceGroups ?? []).map((v) => [v.object.metadata.name, v]));
  for (const ig of [...instanceGroups].sort((a, b) => a.metadata.name.localeCompare(b.metadata.name))) {
    const old = before.get(ig.metadata.name);
    put(StatePaths.instanceGroup(name, ig.metadata.name), toYaml(ig), old ? { ifVersion: old.version } : { ifNotExists: true });
  }
  for (const [igName] of before) {
    if (!instanceGroups.some((ig) => ig.metadata.name === igName)) {
      tx.remove(StatePaths.instanceGroup(name, igName));
      deleted.push(StatePaths.instanceGroup(name, igName));
    }
  }
  // In a create nothing of the cluster exists yet, so every write is create-only: an object that appears
  // anyway (a writer that ignored the lock) fails the create instead of being overwritten.
  const additional: Array<[string, string]> = change.additionalObjects ? [[StatePaths.additionalObjects(name), toYamlStream(change.additionalObjects)]] : [];
  for (const [key, content] of [...expanded.files, ...(change.extraFiles ?? []), ...additional]) put(key, content, previous ? {} : { ifNotExists: true });
  for (const keyset of pki.created) written.push(...keystore.stage(tx, keyset));
  // Nodeup configs of groups that no longer exist (or changed role) must not linger. A create has none:
  // whatever an interrupted command left is removed under the lock before the commit.
  for (const key of previous ? await vfs.list(StatePaths.igconfigPrefix(name)) : []) {
    if (!expanded.files.has(key)) {
      tx.remove(key);
      deleted.push(key);
    }
  }
  tx.putLast(StatePaths.config(name), toYaml(cluster), previous ? { ifVersion: previous.cluster.version } : { ifNotExists: true });
  written.unshift(StatePaths.config(name));
  return { expanded, written, deleted };
}

/**
 * The kubelet/kubectl hashes of a Kubernetes version the built-in table lacks: those already recorded in
 * the stored completed spec, else fetched from the release's .sha256 files. Undefined for table versions
 * (and invalid ones, which validation reports).
 */
async function releaseHashesFor(vfs: Vfs, cluster: Cluster, previous: StoredCluster | undefined): Promise<ReleaseHashes | undefined> {
  const raw = cluster.spec.kubernetesVersion;
  if (raw === undefined || kubernetesVersionProblem(String(raw))) return undefined;
  const version = normalizeKubernetesVersion(String(raw));
  if (isTableKubernetesVersion(version)) return undefined;
  const given = cluster.spec.assets?.releaseHashes;
  if (given?.version === version && !given.unresolved) return given;
  if (previous) {
    const stored = await vfs.read(StatePaths.completedSpec(cluster.metadata.name)).catch(() => undefined);
    const recorded = stored ? (yaml.load(stored.data.toString('utf8')) as Cluster | undefined)?.spec?.assets?.releaseHashes : undefined;
    if (recorded?.version === version && !recorded.unresolved) return recorded;
  }
  const resolved = await resolveReleaseHashes(version, cluster.spec.assets?.fileRepository);
  if (resolved.unresolved) {
    process.stderr.write(
      `Warning: could not fetch the kubelet and kubectl hashes of Kubernetes ${version} (not in kforge's table); they are recorded as unresolved and the next command that writes this cluster fetches them again. Nodes will not install unverified files.\n`,
    );
  }
  return resolved;
}

/** Commits a transaction of cluster saves; a create that lost a race becomes "already exists". */
export async function commitClusterSaves(vfs: Vfs, tx: StoreTransaction, changes: ClusterChange[]): Promise<void> {
  try {
    await tx.commit();
  } catch (e) {
    const created = changes.find((c) => !c.previous);
    if (e instanceof ConflictError && created) {
      throw new AlreadyExistsError(`cluster "${created.cluster.metadata.name}" already exists in ${vfs.url}; use "kforge replace -f" or "kforge edit cluster ${created.cluster.metadata.name}" to change it`);
    }
    throw e;
  }
}

/** Validates, expands and stores one cluster in one all-or-nothing transaction. */
export async function saveCluster(vfs: Vfs, change: ClusterChange): Promise<SaveResult> {
  const tx = new StoreTransaction(vfs);
  const result = await stageClusterSave(vfs, tx, change);
  await commitClusterSaves(vfs, tx, [change]);
  return result;
}
