import { toYaml } from '../api/to-yaml';
import type { Cluster, InstanceGroup } from '../api/types';
import { applySetFlags } from '../create/set-fields';
import { unsetFields } from '../create/unset-fields';
import { NotFoundError } from '../errors/not-found-error';
import { ValidationError } from '../errors/validation-error';
import { ClusterRepository } from '../state/cluster-repository';
import type { Vfs } from '../state/vfs/vfs';
import { saveCluster } from './save-cluster';

/** What `set`/`unset cluster|instancegroup` change: fields of the Cluster, or of one of its groups. */
export interface FieldChange {
  cluster: string;
  /** The instance group to change; undefined changes the Cluster. */
  instanceGroup?: string;
  /** `path=value` assignments (`set`). */
  set?: string[];
  /** Field paths to remove (`unset`). */
  unset?: string[];
}

/**
 * `set cluster` / `unset cluster` / `set instancegroup` / `unset instancegroup` (kops's commands): changes
 * fields of the stored object and saves it as `edit` does, validated as a whole cluster and
 * compare-and-swapped on the versions read. The caller holds the cluster lock. Nothing is written when
 * a field is unknown, a value does not fit its type, the result is invalid, or nothing changed.
 */
export async function changeFields(vfs: Vfs, change: FieldChange): Promise<'updated' | 'unchanged'> {
  const stored = await new ClusterRepository(vfs).get(change.cluster);
  const kind = change.instanceGroup === undefined ? 'Cluster' : 'InstanceGroup';
  const current = change.instanceGroup === undefined ? stored.cluster.object : stored.instanceGroups.find((v) => v.object.metadata.name === change.instanceGroup)?.object;
  if (!current) throw new NotFoundError(`instance group "${change.instanceGroup}" not found in cluster "${change.cluster}"`);
  const before = toYaml(current);
  const target = JSON.parse(JSON.stringify(current)) as Record<string, unknown>;
  const subject = kind === 'Cluster' ? `cluster ${change.cluster}` : `instance group ${change.instanceGroup} of cluster ${change.cluster}`;
  if (change.set) applySetFlags(target, kind, change.set, { flag: null, subject });
  if (change.unset) unsetFields(target, kind, change.unset, subject);
  const changed = target as unknown as Cluster | InstanceGroup;
  // The name is the object's identity in the store; renaming is not a field change (kops refuses it too).
  for (const [path, was, now] of [
    ['metadata.name', current.metadata.name, changed.metadata?.name],
    ['kind', current.kind, changed.kind],
    ['apiVersion', current.apiVersion, changed.apiVersion],
  ] as const) {
    if (was !== now) throw new ValidationError([{ object: `${kind}/${current.metadata.name}`, path, message: `cannot be changed by set or unset (is "${was}")` }], subject);
  }
  if (toYaml(changed) === before) return 'unchanged';
  const cluster = kind === 'Cluster' ? (changed as Cluster) : stored.cluster.object;
  const instanceGroups = stored.instanceGroups.map((v) => (kind === 'InstanceGroup' && v.object.metadata.name === change.instanceGroup ? (changed as InstanceGroup) : v.object));
  await saveCluster(vfs, { cluster, instanceGroups, previous: stored });
  return 'updated';
}
