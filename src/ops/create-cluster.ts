import { applySetFlags } from '../create/set-fields';
import type { SshPublicKey } from '../create/ssh-public-key';
import { StatePaths } from '../state/state-paths';
import { newCluster, NewCluster, NewClusterOptions } from '../create/new-cluster';
import { AlreadyExistsError } from '../errors/already-exists-error';
import { ClusterRepository } from '../state/cluster-repository';
import type { Vfs } from '../state/vfs/vfs';
import { expandCluster } from './expand-cluster';
import { saveCluster, SaveResult } from './save-cluster';

/** Builds the new cluster's objects from flags and `--set` assignments (not yet validated as a whole). */
function buildNewCluster(options: NewClusterOptions, sets: string[]): NewCluster {
  const planned = newCluster(options);
  applySetFlags(planned.cluster as unknown as Record<string, unknown>, 'Cluster', sets);
  return planned;
}

/** `create cluster --dry-run`: the new cluster's objects, validated and expanded but not written. */
export function planNewCluster(vfs: Vfs, options: NewClusterOptions, sets: string[]): NewCluster {
  const planned = buildNewCluster(options, sets);
  expandCluster(planned.cluster, planned.instanceGroups, vfs.url);
  return planned;
}

/** `create cluster`: refuses an existing name, then writes config, instance groups and derived files. */
export async function createCluster(vfs: Vfs, options: NewClusterOptions, sets: string[], sshKey?: SshPublicKey): Promise<SaveResult & NewCluster> {
  // saveCluster validates and expands; doing it here too would expand the cluster twice.
  const planned = buildNewCluster(options, sets);
  if (await new ClusterRepository(vfs).exists(options.name)) {
    throw new AlreadyExistsError(`cluster "${options.name}" already exists in ${vfs.url}; use "kforge edit cluster ${options.name}" instead`);
  }
  const extra: Array<[string, string]> = sshKey ? [[StatePaths.sshPublicKey(options.name, sshKey.fingerprint), sshKey.text]] : [];
  const result = await saveCluster(vfs, { cluster: planned.cluster, instanceGroups: planned.instanceGroups, extraFiles: extra });
  return { ...result, ...planned };
}
