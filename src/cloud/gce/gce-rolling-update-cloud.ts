import type { RollingUpdateCloud } from '../../rolling-update/update-instance-group';
import type { CloudInstance, CloudInstanceGroup } from '../aws/cloud-instance-groups';
import type { GceCloud } from './gce-cloud';
import { lifecycleOf, migsByInstanceGroup, readGceMigs } from './gce-cluster-groups';
import { GCE_COLLECTIONS } from './gce-compute';
import { classifyGceError } from './gce-errors';

/**
 * A rolling update's cloud on GCE, as kops's (upup/pkg/fi/cloudup/gce/instancegroups.go): an instance group's
 * zonal MIGs are one group (keyed `<group>.<cluster>`, as the plan looks groups up; sizes summed), an instance
 * needs an update when its template is not its MIG's, and replacing one is the MIG's `recreateInstances`
 * (kops's DeleteInstance): GCE recreates it under the same name from the MIG's current template, so the group
 * never shrinks. Its operation is DONE once the instance is flagged; the wait for the replacement is the
 * shared one (every member running with no MIG action, and its Node Ready). A MIG cannot surge here: kops's
 * DetachInstance on GCE fails ("gce cloud provider does not support surging"), so there is no `detach` and
 * `rolling-update cluster` refuses a group whose maxSurge is above 0 before changing anything.
 */
export function gceRollingUpdateCloud(cloud: GceCloud): RollingUpdateCloud {
  // Where each instance was at the last read: recreateInstances names its MIG and zone.
  const located = new Map<string, { zone: string; mig: string }>();
  const groups = async (): Promise<Map<string, CloudInstanceGroup>> => {
    const out = new Map<string, CloudInstanceGroup>();
    for (const [ig, migs] of migsByInstanceGroup(await readGceMigs(cloud))) {
      const key = `${ig}.${cloud.clusterName}`;
      const size = migs.reduce((n, m) => n + m.targetSize, 0);
      const instances = migs.flatMap((m) =>
        m.members.map((i): CloudInstance => {
          located.set(i.name, { zone: m.zone, mig: m.name });
          return { id: i.name, launchedFrom: i.template, state: lifecycleOf(i), detached: false, needsUpdate: m.template !== undefined && i.template !== m.template };
        }),
      );
      out.set(key, { asgName: key, minSize: size, maxSize: size, desired: size, currentVersion: migs[0].template, instances: instances.sort((a, b) => a.id.localeCompare(b.id)) });
    }
    return out;
  };
  return {
    groups,
    terminate: async (instance) => {
      if (!located.has(instance)) await groups();
      const where = located.get(instance);
      // Gone from every MIG already (a re-run after the recreate): nothing to replace.
      if (!where) return;
      const compute = await cloud.connectCompute();
      try {
        await compute.method(GCE_COLLECTIONS.instanceGroupManagers, where.zone, 'recreateInstances', where.mig, { instanceGroupManagersRecreateInstancesRequestResource: { instances: [`zones/${where.zone}/instances/${instance}`] } });
      } catch (e) {
        // As kops: an instance that is not found is taken as deleted.
        if (classifyGceError(e) !== 'not-found') throw e;
      }
    },
  };
}
