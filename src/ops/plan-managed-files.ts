import { createHash, X509Certificate } from 'node:crypto';
import { KOPS_CONTROLLER_CA_KEYSET } from '../model/config-server';
import * as fs from 'node:fs';
import type { Cluster } from '../api/types';
import { ConflictError } from '../errors/conflict-error';
import { UsageError } from '../errors/usage-error';
import { normalizedRole } from '../expand/expand-context';
import { performAssignments } from '../expand/perform-assignments';
import { nodeupInStateStore, StateStoreNodeup } from '../model/nodeup-artifacts';
import { SERVICE_ACCOUNT } from '../pki/cluster-pki';
import type { Keyset } from '../pki/keyset';
import { ClusterRepository, StoredCluster } from '../state/cluster-repository';
import { Keystore } from '../state/keystore';
import { StatePaths } from '../state/state-paths';
import { StoreTransaction } from '../state/store-transaction';
import type { Vfs } from '../state/vfs/vfs';
import { unifiedDiff } from '../util/unified-diff';
import { completeWithReleaseHashes } from './complete-with-release-hashes';
import { derivedFiles } from './expand-cluster';
import { etcdClusterNames, planExistingClusterPki } from './plan-cluster-pki';

/** One managed object of the plan. */
export interface ManagedFileChange {
  path: string;
  action: 'create' | 'update' | 'delete' | 'none';
  /** unified diff (for update), or the new content's line count summary for create; never contains a private key */
  diff?: string;
}

/** What update will write to the state store. */
export interface ManagedFilesPlan {
  cluster: string;
  /** Keysets that do not exist yet and will be created (names, sorted), e.g. kubernetes-ca, etcd-clients-ca-main… */
  keysetsToCreate: string[];
  /** The completed spec, the nodeup configs, the addons' channel and manifests and the nodeup bundle (keysets are in keysetsToCreate), sorted by path. */
  files: ManagedFileChange[];
  /** sha256 hex of each instance group's nodeupconfig.yaml content as it will be written, by IG name */
  nodeupConfigHashes: Record<string, string>;
  /** The completed spec (cluster-completed.spec) as it will be written */
  completed: Cluster;
  /** The kops-controller-ca bundle (PEM, public; workers' user-data pins the node-identity service to it). */
  kopsControllerCa?: string;
  /** The service-account keyset's public keys (PEM, every key, existing or new): what the OIDC discovery JWKS publishes. */
  serviceAccountPublicKeys: string[];
  hasChanges: boolean;
}

/** What writeManagedFiles needs beyond the printable plan: new keysets (with private keys) and contents. */
interface PlanMaterial {
  keysets: Keyset[];
  /** New content of each file to create or update, by path. */
  contents: Map<string, string>;
  /** Version read at plan time of each file to update or delete, by path (compare-and-swap). */
  versions: Map<string, string>;
  /** This build's nodeup bundle, when the store lacks it. */
  nodeup?: StateStoreNodeup;
}

// Kept outside the plan object, so that nothing that prints or serializes a plan can reach a private key.
const material = new WeakMap<ManagedFilesPlan, PlanMaterial>();

/**
 * What `update cluster` writes besides cloud resources (kops's fitasks.Keypair and ManagedFile tasks):
 * the keysets the cluster lacks (generated now, in memory; existing keysets are reused, never replaced),
 * the completed spec, one nodeup config per instance group, rendered with the CA certificates, and the
 * addons (kops's bootstrap channel and manifests under `addons/`), each compared with what is stored.
 * Nodeup configs of groups that no longer exist (or changed role), and addon files no longer rendered, are
 * deleted. Read-only: nothing is written until writeManagedFiles. `loaded` is the stored cluster when the
 * caller has read it already. For an unchanged cluster whose keysets
 * all exist, two plans are identical and have no changes.
 */
/** What planManagedFiles may ask of the caller. */
export interface PlanManagedFilesOptions {
  /**
   * The AWS account of the cluster, asked once the spec is completed (update connects there): the addons name it
   * (the node-termination-handler's queue URL). Without it the manifests hold a placeholder.
   */
  awsAccountId?: (completed: Cluster) => Promise<string | undefined>;
}

export async function planManagedFiles(vfs: Vfs, clusterName: string, loaded?: StoredCluster, options: PlanManagedFilesOptions = {}): Promise<ManagedFilesPlan> {
  // The caller may have read the cluster already (update's load step): not read twice.
  const stored = loaded ?? (await new ClusterRepository(vfs).get(clusterName));
  const cluster = performAssignments(stored.cluster.object);
  const instanceGroups = stored.instanceGroups.map((v) => v.object);
  // Missing keys are generated on the thread pool while the main thread expands the spec.
  const pkiPlan = planExistingClusterPki(new Keystore(vfs, clusterName), etcdClusterNames(cluster));
  pkiPlan.catch(() => undefined);
  const completed = await completeWithReleaseHashes(vfs, cluster, instanceGroups, { useRecorded: true });
  const pki = await pkiPlan;
  const awsAccountId = completed.spec.cloudProvider === 'aws' ? await options.awsAccountId?.(completed) : undefined;
  const wanted = derivedFiles(completed, instanceGroups, pki.certificates, awsAccountId);
  const [igconfigs, addonFiles] = await Promise.all([vfs.list(StatePaths.igconfigPrefix(clusterName)), vfs.list(StatePaths.addonsPrefix(clusterName))]);
  const storedKeys = new Set([StatePaths.completedSpec(clusterName), ...igconfigs, ...addonFiles]);
  const paths = [...new Set([...wanted.keys(), ...storedKeys])].sort();
  const current = await Promise.all(paths.map((p) => (storedKeys.has(p) ? vfs.read(p) : undefined)));
  const own: PlanMaterial = { keysets: pki.created, contents: new Map(), versions: new Map() };
  const files: ManagedFileChange[] = [];
  paths.forEach((path, i) => {
    const now = current[i];
    const next = wanted.get(path);
    if (now) own.versions.set(path, now.version);
    if (next === undefined) {
      if (now) files.push({ path, action: 'delete', diff: `-${countLines(now.data.toString('utf8'))} lines` });
      return;
    }
    if (!now) {
      own.contents.set(path, next);
      files.push({ path, action: 'create', diff: `+${countLines(next)} lines` });
      return;
    }
    const before = now.data.toString('utf8');
    if (before === next) {
      files.push({ path, action: 'none' });
      return;
    }
    own.contents.set(path, next);
    files.push({ path, action: 'update', diff: redact(unifiedDiff(before, next)) });
  });
  // The nodeup bundle user-data fetches from the store (S3 stores on AWS, GCS on GCE): content-addressed, so an
  // object at its key already holds these bytes (a node checks its hash anyway), and it is only ever created.
  const cloud = completed.spec.cloudProvider;
  const nodeup = cloud === 'aws' || cloud === 'gce' ? nodeupInStateStore(clusterName, completed.spec.configBase, completed.spec.assets?.fileRepository, undefined, undefined, cloud === 'gce' ? 'gs' : 's3') : undefined;
  if (nodeup) {
    const present = (await vfs.list(StatePaths.nodeupArtifactPrefix(clusterName))).includes(nodeup.key);
    if (!present) own.nodeup = nodeup;
    files.push(present ? { path: nodeup.key, action: 'none' } : { path: nodeup.key, action: 'create', diff: `+${fs.statSync(nodeup.file).size} bytes, sha256 ${nodeup.sha256}` });
    files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  }
  const nodeupConfigHashes: Record<string, string> = {};
  for (const ig of [...instanceGroups].sort((a, b) => a.metadata.name.localeCompare(b.metadata.name))) {
    const content = wanted.get(StatePaths.nodeupConfig(clusterName, normalizedRole(ig), ig.metadata.name)) as string;
    nodeupConfigHashes[ig.metadata.name] = createHash('sha256').update(content).digest('hex');
  }
  const keysetsToCreate = pki.created.map((k) => k.name).sort();
  const plan: ManagedFilesPlan = {
    cluster: clusterName,
    keysetsToCreate,
    files,
    nodeupConfigHashes,
    completed,
    kopsControllerCa: pki.certificates.bundles[KOPS_CONTROLLER_CA_KEYSET],
    serviceAccountPublicKeys: publicKeysOf(pki.certificates.bundles[SERVICE_ACCOUNT]),
    hasChanges: keysetsToCreate.length > 0 || files.some((f) => f.action !== 'none'),
  };
  material.set(plan, own);
  return plan;
}

/**
 * Writes a plan made by planManagedFiles: the new keysets first, create-only (a concurrent writer that
 * created one meanwhile makes this fail with ConflictError before any file is written; the next plan
 * reuses its keyset), then the nodeup bundle, create-only (one a concurrent update wrote has the same
 * bytes: its key is their sha256; it stays if a later write fails, and the next plan finds it), then the changed files and the deletions, compare-and-swapped against the
 * versions the plan read, in one all-or-nothing transaction. The caller holds the cluster lock.
 */
export async function writeManagedFiles(vfs: Vfs, plan: ManagedFilesPlan): Promise<void> {
  const own = material.get(plan);
  if (!own) throw new UsageError('writeManagedFiles takes a plan made by planManagedFiles (a copy carries no keys)');
  if (own.keysets.length > 0) {
    const keystore = new Keystore(vfs, plan.cluster);
    const tx = new StoreTransaction(vfs);
    for (const keyset of own.keysets) keystore.stage(tx, keyset);
    await tx.commit();
  }
  if (own.nodeup) {
    try {
      await vfs.write(own.nodeup.key, fs.readFileSync(own.nodeup.file), { ifNotExists: true });
    } catch (e) {
      if (!(e instanceof ConflictError)) throw e;
    }
  }
  const tx = new StoreTransaction(vfs);
  for (const f of plan.files) {
    if (f.path === own.nodeup?.key) continue;
    const version = own.versions.get(f.path);
    if (f.action === 'delete') tx.remove(f.path);
    else if (f.action === 'create') tx.put(f.path, own.contents.get(f.path) as string, { ifNotExists: true });
    else if (f.action === 'update') tx.put(f.path, own.contents.get(f.path) as string, version ? { ifVersion: version } : {});
  }
  await tx.commit();
}

/** The public keys (PEM) of the certificates of a bundle, in its order. */
function publicKeysOf(bundle: string | undefined): string[] {
  const certs = (bundle ?? '').match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
  return certs.map((pem) => new X509Certificate(pem).publicKey.export({ type: 'spki', format: 'pem' }).toString());
}

function countLines(text: string): number {
  return text === '' ? 0 : text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}

/**
 * The managed files hold certificates only; should a private key ever reach one (a user's spec could
 * carry one in a file asset), its lines are left out of what the plan shows.
 */
function redact(diff: string): string {
  let secret = false;
  return diff
    .split('\n')
    .map((line) => {
      const body = line.slice(1);
      if (/-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----/.test(body)) secret = true;
      const out = secret ? `${line[0] ?? ''}(private key material not shown)` : line;
      if (/-----END [A-Z0-9 ]*PRIVATE KEY-----/.test(body)) secret = false;
      return out;
    })
    .filter((line, i, all) => !(line.endsWith('(private key material not shown)') && all[i - 1] === line))
    .join('\n');
}
