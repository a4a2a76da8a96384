import { loadManifests } from '../api/load-manifests';
import { toYaml } from '../api/to-yaml';
import type { Cluster, InstanceGroup } from '../api/types';
import { ValidationError } from '../errors/validation-error';
import { NotFoundError } from '../errors/not-found-error';
import { editLoop, EditOutcome } from '../edit/edit-loop';
import { ClusterRepository } from '../state/cluster-repository';
import type { Vfs } from '../state/vfs/vfs';
import { saveCluster } from './save-cluster';

/** `edit cluster`: edits the stored Cluster; saves only a valid result, compare-and-swap on the read version. */
export async function editCluster(vfs: Vfs, name: string, env: NodeJS.ProcessEnv = process.env): Promise<EditOutcome> {
  const stored = await new ClusterRepository(vfs).get(name);
  const igs = stored.instanceGroups.map((v) => v.object);
  return editLoop(
    toYaml(stored.cluster.object),
    async (text) => {
      const cluster = single<Cluster>(text, 'Cluster', name);
      await saveCluster(vfs, { cluster, instanceGroups: igs, previous: stored });
    },
    env,
  );
}

/** `edit instancegroup`: edits one stored InstanceGroup; the cluster is revalidated with the result. */
export async function editInstanceGroup(vfs: Vfs, clusterName: string, igName: string, env: NodeJS.ProcessEnv = process.env): Promise<EditOutcome> {
  const stored = await new ClusterRepository(vfs).get(clusterName);
  const current = stored.instanceGroups.find((v) => v.object.metadata.name === igName);
  if (!current) throw new NotFoundError(`instance group "${igName}" not found in cluster "${clusterName}"`);
  return editLoop(
    toYaml(current.object),
    async (text) => {
      const ig = single<InstanceGroup>(text, 'InstanceGroup', igName);
      const igs = stored.instanceGroups.map((v) => (v.object.metadata.name === igName ? ig : v.object));
      await saveCluster(vfs, { cluster: stored.cluster.object, instanceGroups: igs, previous: stored });
    },
    env,
  );
}

function single<T extends Cluster | InstanceGroup>(text: string, kind: 'Cluster' | 'InstanceGroup', name: string): T {
  const set = loadManifests(text, 'edited object');
  const objs: Array<Cluster | InstanceGroup> = [...set.clusters, ...set.instanceGroups];
  if (objs.length !== 1 || set.additionalObjects.length > 0 || objs[0].kind !== kind) throw new ValidationError([{ path: 'kind', message: `the file must hold exactly one ${kind}` }], 'edited object');
  if (objs[0].metadata.name !== name) {
    throw new ValidationError([{ path: 'metadata.name', message: `cannot rename "${name}" to "${objs[0].metadata.name}" by editing` }], 'edited object');
  }
  return objs[0] as T;
}
