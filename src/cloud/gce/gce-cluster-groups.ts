import { GceNames } from '../../model/gce/gce-names';
import { migName } from '../../model/gce/instance-group-model-builder';
import type { CloudGroup, CloudInstance, ClusterInstances } from '../aws/cluster-instances';
import type { GceCloud } from './gce-cloud';
import { GCE_COLLECTIONS, GceResource } from './gce-compute';

/** One instance of a cluster's MIG. */
export interface GceMember {
  /** The instance's name: what kops and the Node's providerID (`gce://<project>/<zone>/<name>`) call it. */
  name: string;
  zone: string;
  /** GCE's status: PROVISIONING, STAGING, RUNNING, STOPPING, TERMINATED, … */
  status: string;
  /** The MIG's current action on it (`listManagedInstances`): NONE, CREATING, RECREATING, DELETING, … */
  action: string;
  /** The instance template it was made from (its name). */
  template?: string;
  internalIp?: string;
  externalIp?: string;
}

/** One of the cluster's zonal MIGs (an instance group has one per zone). */
export interface GceMig {
  name: string;
  zone: string;
  /** Its instance group: kforge and kops name a MIG's instances after the group (`baseInstanceName`). */
  instanceGroup: string;
  /** From its instances' `k8s-io-role-*` labels; unknown while it has none. */
  role: CloudGroup['role'];
  targetSize: number;
  /** The template new instances get (its name). */
  template?: string;
  /** No action in progress and the target size reached (`status.isStable`). */
  stable: boolean;
  members: GceMember[];
}

const last = (v: unknown): string | undefined => (typeof v === 'string' && v ? v.split('/').pop() : undefined);

function metadataItem(r: GceResource, key: string): string | undefined {
  const items = ((r.metadata as GceResource | undefined)?.items ?? []) as Array<{ key?: string; value?: string }>;
  return items.find((i) => i.key === key)?.value;
}

function roleOf(labels: Record<string, string> | undefined): CloudGroup['role'] {
  const keys = Object.keys(labels ?? {});
  if (keys.includes('k8s-io-role-control-plane') || keys.includes('k8s-io-role-master')) return 'control-plane';
  if (keys.includes('k8s-io-role-bastion')) return 'bastion';
  if (keys.includes('k8s-io-role-node')) return 'node';
  return 'unknown';
}

/**
 * The cluster's MIGs and their instances, as kops's GetCloudGroups finds them but in a fixed number of calls:
 * the project's MIGs (`aggregated/instanceGroupManagers`, kept when named as kforge names its group's MIG in
 * that zone) and the cluster's instances (`aggregated/instances`, by the cluster label), each tied to its MIG
 * and template by the metadata GCE gives a MIG's instances (`created-by`, `instance-template`). Only a MIG
 * that is not stable (an action in progress) costs one more call, `listManagedInstances`, for each
 * instance's current action.
 */
export async function readGceMigs(cloud: GceCloud): Promise<GceMig[]> {
  const compute = await cloud.connectCompute();
  const cluster = cloud.clusterName;
  const [migs, instances] = await Promise.all([
    compute.aggregated(GCE_COLLECTIONS.instanceGroupManagers),
    compute.aggregated(GCE_COLLECTIONS.instances, `labels.k8s-io-cluster-name = "${GceNames.safeClusterName(cluster)}"`),
  ]);
  const out: GceMig[] = [];
  for (const { where: zone, resource: m } of migs) {
    const base = String(m.baseInstanceName ?? '');
    if (!base || m.name !== migName(cluster, base, zone)) continue;
    const mine = instances.filter((i) => i.where === zone && last(metadataItem(i.resource, 'created-by')) === m.name);
    const stable = (m.status as { isStable?: boolean } | undefined)?.isStable !== false;
    const actions = new Map<string, string>();
    if (!stable) for (const mi of await compute.listManagedInstances(zone, String(m.name))) actions.set(last(mi.instance) ?? String(mi.name), String(mi.currentAction ?? 'NONE'));
    const members = mine.map(({ resource: i }): GceMember => {
      const nic = ((i.networkInterfaces ?? []) as GceResource[])[0];
      const natIp = ((nic?.accessConfigs ?? []) as GceResource[])[0]?.natIP;
      return {
        name: String(i.name),
        zone,
        status: String(i.status ?? 'UNKNOWN'),
        action: actions.get(String(i.name)) ?? 'NONE',
        template: last(metadataItem(i, 'instance-template')),
        ...(typeof nic?.networkIP === 'string' ? { internalIp: nic.networkIP } : {}),
        ...(typeof natIp === 'string' ? { externalIp: natIp } : {}),
      };
    });
    const role = mine.map((i) => roleOf(i.resource.labels as Record<string, string> | undefined)).find((r) => r !== 'unknown') ?? 'unknown';
    out.push({ name: String(m.name), zone, instanceGroup: base, role, targetSize: Number(m.targetSize ?? 0), template: last(m.instanceTemplate), stable, members: members.sort((a, b) => a.name.localeCompare(b.name)) });
  }
  return out.sort((a, b) => a.name.localeCompare(b.name));
}

/** The MIGs by instance group, in name order. */
export function migsByInstanceGroup(migs: readonly GceMig[]): Map<string, GceMig[]> {
  const groups = new Map<string, GceMig[]>();
  for (const m of migs) groups.set(m.instanceGroup, [...(groups.get(m.instanceGroup) ?? []), m]);
  return new Map([...groups].sort(([a], [b]) => a.localeCompare(b)));
}

/** A member in service: running, and its MIG doing nothing to it (Auto Scaling's `InService`); else its action or status. */
export function lifecycleOf(m: GceMember): string {
  if (m.action !== 'NONE') return m.action;
  return m.status === 'RUNNING' ? 'InService' : m.status;
}

/** GCE's instance status in EC2's words, which validate's and get instances' readers share. */
function stateOf(status: string): string {
  if (status === 'RUNNING') return 'running';
  if (status === 'STOPPING' || status === 'SUSPENDING') return 'stopping';
  if (status === 'TERMINATED' || status === 'SUSPENDED' || status === 'STOPPED') return 'stopped';
  return 'pending';
}

/**
 * The cluster's machines in the shape `get instances` and `validate cluster` read: one group per instance
 * group (its zonal MIGs together: sizes summed, named by its MIGs), members `InService` when running with no
 * MIG action, the template as the "version" (an instance needs an update when its template is not its
 * MIG's, as kops's GCE rolling update decides), and each instance named as its Node is.
 */
export async function gceClusterInstances(cloud: GceCloud): Promise<ClusterInstances> {
  const groups: CloudGroup[] = [];
  const instances: CloudInstance[] = [];
  for (const [ig, migs] of migsByInstanceGroup(await readGceMigs(cloud))) {
    const name = migs.map((m) => m.name).join(',');
    const size = migs.reduce((n, m) => n + m.targetSize, 0);
    groups.push({
      name,
      instanceGroup: ig,
      role: migs.map((m) => m.role).find((r) => r !== 'unknown') ?? 'unknown',
      desired: size,
      min: size,
      max: size,
      members: migs.flatMap((m) => m.members.map((i) => ({ instanceId: i.name, lifecycleState: lifecycleOf(i), launchTemplateVersion: i.template }))).sort((a, b) => a.instanceId.localeCompare(b.instanceId)),
      currentTemplateVersion: migs[0].template,
    });
    for (const m of migs) {
      for (const i of m.members) {
        instances.push({ instanceId: i.name, state: stateOf(i.status), ...(i.action !== 'NONE' ? { stateReason: `its MIG ${m.name} is ${i.action.toLowerCase()} it` } : {}), privateDnsName: i.name, zone: i.zone, instanceGroup: ig, group: name });
      }
    }
  }
  return { groups, instances: instances.sort((a, b) => a.instanceId.localeCompare(b.instanceId)), groupKind: 'managed instance group', targetSizeOnly: true };
}

