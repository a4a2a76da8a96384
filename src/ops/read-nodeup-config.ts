import { NotFoundError } from '../errors/not-found-error';
import { NotUpdatedError } from '../errors/not-updated-error';
import { normalizedRole } from '../expand/expand-context';
import { ClusterRepository } from '../state/cluster-repository';
import { StatePaths } from '../state/state-paths';
import type { Vfs } from '../state/vfs/vfs';

/**
 * An instance group's nodeupconfig.yaml as `update cluster` stored it: what `kforge nodeup --conf` takes
 * on a machine with no cloud. NotFoundError for an unknown group; NotUpdatedError before the first update.
 */
export async function readNodeupConfig(vfs: Vfs, cluster: string, instanceGroup: string): Promise<{ path: string; text: string }> {
  const stored = await new ClusterRepository(vfs).get(cluster);
  const ig = stored.instanceGroups.find((v) => v.object.metadata.name === instanceGroup)?.object;
  if (!ig) throw new NotFoundError(`instance group "${instanceGroup}" not found in cluster "${cluster}"`);
  const path = StatePaths.nodeupConfig(cluster, normalizedRole(ig), instanceGroup);
  const object = await vfs.read(path);
  if (!object) throw new NotUpdatedError(`${vfs.url.replace(/\/+$/, '')}/${path} does not exist yet: run "kforge update cluster ${cluster} --yes" first, which writes the nodeup configs`);
  return { path, text: object.data.toString('utf8') };
}
