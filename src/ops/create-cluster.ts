import { applySetFlags } from '../create/set-fields';
import type { SshPublicKey } from '../create/ssh-public-key';
import { StatePaths } from '../state/state-paths';
import { newCluster, NewCluster, NewClusterOptions } from '../create/new-cluster';
import { AlreadyExistsError } from '../errors/already-exists-error';
import { ClusterRepository } from '../state/cluster-repository';
import { removeLeftovers } from '../state/cluster-leftovers';
import { LockOptions, withClusterLocks } from '../state/lock/cluster-lock';
import { fencedVfs } from '../state/lock/lock-fence';
import type { Vfs } from '../state/vfs/vfs';
import { expandCluster } from './expand-cluster';
import { StoreTransaction } from '../state/store-transaction';
import { commitClusterSaves, SaveResult, stageClusterSave } from './save-cluster';

/** Builds the new cluster's objects from flags and `--set` assignments (not yet validated as a whole). */
function buildNewCluster(options: NewClusterOptions, sets: string[]): NewCluster {
  const planned = newCluster(options);
  applySetFlags(planned.cluster as unknown as Record<string, unknown>, 'Cluster', sets);
  return planned;
}

/** `create cluster --dry-run`: the new cluster's objects, validated and expanded but not written. */
export async function planNewCluster(vfs: Vfs, options: NewClusterOptions, sets: string[], env?: NodeJS.ProcessEnv): Promise<NewCluster> {
  const planned = buildNewCluster(options, sets);
  await resolveDnsZone(planned, env);
  expandCluster(planned.cluster, planned.instanceGroups, vfs.url);
  return planned;
}

/**
 * As kops: a cluster whose API has DNS records (`--dns public|private`) but no `--dns-zone` gets the Route 53
 * (AWS) or Cloud DNS (GCE) zone found by walking up its name (kops's FindDNSHostedZone), stored as the zone's
 * id, so that `update` never meets a spec it cannot build. Only then does `create` call the cloud.
 */
async function resolveDnsZone(planned: NewCluster, env?: NodeJS.ProcessEnv): Promise<void> {
  const spec = planned.cluster.spec;
  const dnsType = spec.topology?.dns?.type;
  const cloudName = spec.cloudProvider ?? 'aws';
  if (spec.dnsZone || (dnsType !== 'Public' && dnsType !== 'Private') || (cloudName !== 'aws' && cloudName !== 'gce')) return;
  const { loadCloudProvider } = await import('../cloud/cloud-provider');
  const provider = await loadCloudProvider(cloudName, 'create cluster');
  const name = planned.cluster.metadata.name;
  const service = cloudName === 'gce' ? 'Cloud DNS' : 'Route 53';
  const cloud = await provider.connect(planned.cluster, { env, consequence: `; finding the ${service} zone of ${name} needs them (or give --dns-zone); nothing was written` });
  spec.dnsZone = await provider.findDnsZone(cloud, name, dnsType === 'Private');
}

/**
 * `create cluster`: under the name's lock, refuses an existing cluster, removes what an interrupted
 * command left under the name, then writes the instance groups and the SSH public key, and `config` last.
 * The PKI and the managed files come with the first `update cluster`, as in kops.
 */
export async function createCluster(
  vfs: Vfs,
  options: NewClusterOptions,
  sets: string[],
  sshKey: SshPublicKey | undefined,
  lock: LockOptions,
  env?: NodeJS.ProcessEnv,
): Promise<SaveResult & NewCluster> {
  // saveCluster validates and expands; doing it here too would expand the cluster twice.
  const planned = buildNewCluster(options, sets);
  const extra: Array<[string, string]> = sshKey ? [[StatePaths.sshPublicKey(options.name, sshKey.fingerprint), sshKey.text]] : [];
  // A quick answer for the common mistake; the check that counts is made again under the lock.
  if (await new ClusterRepository(vfs).exists(options.name)) throw existsError(vfs, options.name, `use "kforge edit cluster ${options.name}" instead`);
  await resolveDnsZone(planned, env);
  const change = { cluster: planned.cluster, instanceGroups: planned.instanceGroups, extraFiles: extra };
  // Validated and expanded before the lock is taken: a spec error leaves the store untouched, the
  // lock object (and its versions, in a versioned bucket) included.
  // The transaction writes through the lock's fence once the lock is held (nothing is written before).
  let verify = (): Promise<void> => Promise.resolve();
  const store = fencedVfs(vfs, () => verify());
  const tx = new StoreTransaction(store);
  const result = await stageClusterSave(vfs, tx, change);
  await withClusterLocks(vfs, [options.name], lock, async (fence) => {
    verify = fence.verify;
    await prepareNewClusterName(store, options.name, `use "kforge edit cluster ${options.name}" instead`);
    await commitClusterSaves(store, tx, [change]);
  });
  return { ...result, ...planned };
}

/**
 * Before a create, with the name's lock held: AlreadyExistsError if the cluster exists (`hint` says what
 * to do instead); otherwise removes leftovers of an interrupted create or delete, with a warning.
 */
export async function prepareNewClusterName(vfs: Vfs, name: string, hint: string): Promise<void> {
  if (await new ClusterRepository(vfs).exists(name)) throw existsError(vfs, name, hint);
  const removed = await removeLeftovers(vfs, name);
  if (removed.length > 0) {
    process.stderr.write(`Warning: removed ${removed.length} objects of an incomplete cluster "${name}" (no config), left by an interrupted command\n`);
  }
}

function existsError(vfs: Vfs, name: string, hint: string): AlreadyExistsError {
  return new AlreadyExistsError(`cluster "${name}" already exists in ${vfs.url}; ${hint}`);
}
