import type { Cluster, InstanceGroup } from '../../api/types';
import { GceNames } from '../../model/gce/gce-names';
import { migName } from '../../model/gce/instance-group-model-builder';
import type { GceCloud } from './gce-cloud';
import { GCE_COLLECTIONS } from './gce-compute';
import { classifyGceError } from './gce-errors';

/**
 * `delete instancegroup` on GCE, as kops's DeleteCloudInstanceGroup: the group's MIG in each of its zones
 * (GCE's delete removes the MIG's instances and finishes once they are gone), then its instance templates
 * (kforge's `<prefix>-<content hash>` names, labelled with the group; more than one if an update was
 * interrupted before the old one was deleted). Idempotent: what is gone already is skipped, so a re-run after
 * an interruption finishes the job. The nodes' service account is the role's, shared: it stays. Returns
 * `InstanceGroupManager <name>` / `InstanceTemplate <name>` for what was deleted, sorted.
 */
export async function deleteGceInstanceGroup(cloud: GceCloud, cluster: Cluster, group: InstanceGroup | undefined, name: string): Promise<string[]> {
  const compute = await cloud.connectCompute();
  const c = cluster.metadata.name;
  const zones = group?.spec.zones?.length ? group.spec.zones : cloud.zones;
  const deleted: string[] = [];
  const gone = async (fn: () => Promise<void>): Promise<boolean> => {
    try {
      await fn();
      return true;
    } catch (e) {
      if (classifyGceError(e) === 'not-found') return false;
      throw e;
    }
  };
  for (const zone of [...zones].sort()) {
    const mig = migName(c, name, zone);
    if (await gone(() => compute.delete(GCE_COLLECTIONS.instanceGroupManagers, zone, mig))) deleted.push(`InstanceGroupManager ${mig}`);
  }
  const prefix = `${GceNames.truncate(GceNames.safeObject(name, c), 32)}-`;
  const safe = GceNames.safeClusterName(c);
  const templates = (await compute.list(GCE_COLLECTIONS.instanceTemplates)).filter((t) => {
    const labels = ((t.properties as { labels?: Record<string, string> } | undefined)?.labels ?? {});
    const n = String(t.name);
    return n.startsWith(prefix) && /^[0-9a-f]{8}$/.test(n.slice(prefix.length)) && labels['k8s-io-cluster-name'] === safe && labels['k8s-io-instance-group'] === name;
  });
  for (const t of templates) if (await gone(() => compute.delete(GCE_COLLECTIONS.instanceTemplates, undefined, String(t.name)))) deleted.push(`InstanceTemplate ${String(t.name)}`);
  return deleted.sort();
}
