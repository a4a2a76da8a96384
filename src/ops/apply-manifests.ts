import { CLUSTER_LABEL } from '../api/api-versions';
import { loadManifests } from '../api/load-manifests';
import type { Cluster, InstanceGroup } from '../api/types';
import { AlreadyExistsError } from '../errors/already-exists-error';
import { NotFoundError } from '../errors/not-found-error';
import { ValidationError } from '../errors/validation-error';
import { ClusterRepository } from '../state/cluster-repository';
import type { Vfs } from '../state/vfs/vfs';
import { saveCluster } from './save-cluster';

/** One line of what `create -f` / `replace -f` did. */
export interface AppliedObject {
  kind: 'Cluster' | 'InstanceGroup';
  name: string;
  cluster: string;
  action: 'created' | 'replaced';
}

/**
 * `create -f` and `replace -f`: reads Clusters and InstanceGroups from a manifest and stores them.
 * Create refuses objects that exist; replace refuses objects that do not (kops's semantics). Each
 * cluster is validated as a whole (with its stored instance groups) and saved in one transaction.
 */
export async function applyManifests(vfs: Vfs, text: string, file: string, mode: 'create' | 'replace'): Promise<AppliedObject[]> {
  const set = loadManifests(text, file);
  const repo = new ClusterRepository(vfs);
  const groups = groupByCluster(set.clusters, set.instanceGroups, file);
  const applied: AppliedObject[] = [];
  for (const [clusterName, { cluster, instanceGroups }] of groups) {
    const stored = (await repo.exists(clusterName)) ? await repo.get(clusterName) : undefined;
    if (mode === 'create' && cluster && stored) throw new AlreadyExistsError(`cluster "${clusterName}" already exists in ${vfs.url}; use "kforge replace -f ${file}" to change it`);
    if (!stored && (mode === 'replace' || !cluster)) {
      throw new NotFoundError(`cluster "${clusterName}" not found in ${vfs.url}${mode === 'replace' ? `; use "kforge create -f ${file}" to create it` : ''}`);
    }
    const igs = new Map((stored?.instanceGroups ?? []).map((v) => [v.object.metadata.name, v.object]));
    for (const ig of instanceGroups) {
      const exists = igs.has(ig.metadata.name);
      if (mode === 'create' && exists) throw new AlreadyExistsError(`instance group "${ig.metadata.name}" already exists in cluster "${clusterName}"`);
      if (mode === 'replace' && !exists) throw new NotFoundError(`instance group "${ig.metadata.name}" not found in cluster "${clusterName}"; use "kforge create -f ${file}" to create it`);
      igs.set(ig.metadata.name, ig);
    }
    const finalCluster = cluster ?? (stored as NonNullable<typeof stored>).cluster.object;
    await saveCluster(vfs, finalCluster, [...igs.values()], stored, set.sources);
    if (cluster) applied.push({ kind: 'Cluster', name: clusterName, cluster: clusterName, action: stored ? 'replaced' : 'created' });
    for (const ig of instanceGroups) applied.push({ kind: 'InstanceGroup', name: ig.metadata.name, cluster: clusterName, action: mode === 'create' ? 'created' : 'replaced' });
  }
  return applied;
}

function groupByCluster(clusters: Cluster[], igs: InstanceGroup[], file: string): Map<string, { cluster?: Cluster; instanceGroups: InstanceGroup[] }> {
  const out = new Map<string, { cluster?: Cluster; instanceGroups: InstanceGroup[] }>();
  for (const c of clusters) out.set(c.metadata.name, { cluster: c, instanceGroups: [] });
  for (const ig of igs) {
    const label = ig.metadata.labels?.[CLUSTER_LABEL];
    const name = label ?? (clusters.length === 1 ? clusters[0].metadata.name : undefined);
    if (!name) {
      throw new ValidationError(
        [{ object: `InstanceGroup/${ig.metadata.name}`, path: `metadata.labels["${CLUSTER_LABEL}"]`, message: 'is required to say which cluster the instance group belongs to', file }],
        file,
      );
    }
    if (!out.has(name)) out.set(name, { instanceGroups: [] });
    out.get(name)?.instanceGroups.push(ig);
  }
  return out;
}
