import type { Cluster, InstanceGroup } from '../../api/types';
import { GceNames } from '../../model/gce/gce-names';
import type { DeleteTarget, ListedResource } from '../cloud-provider';
import type { GceCloud } from './gce-cloud';
import { GCE_COLLECTIONS, GceCollection, GceResource } from './gce-compute';
import { classifyGceError } from './gce-errors';

/** Where a GCE cluster's resources are, for `delete cluster`. */
export interface GceDeleteTarget extends DeleteTarget {
  cloud: GceCloud;
  /** The zones of the cluster's instance groups (MIGs, disks). */
  zones: string[];
  /** `spec.networkID` and the subnets' ids: existing resources the cluster used, never deleted. */
  sharedNetwork?: string;
  sharedSubnetworks: string[];
  /** `spec.dnsZone` and its visibility, when the cluster has DNS records (topology.dns Public or Private). */
  dns?: { zone: string | undefined; privateZone: boolean; names: string[] };
}

/** The roles whose service accounts the model makes (kops's `<role>-<cluster>` account ids). */
const ACCOUNT_ROLES = ['control-plane', 'node', 'bastion'];

/** The delete target of a stored cluster. */
export function gceDeleteTarget(cloud: GceCloud, cluster: Cluster, groups: readonly InstanceGroup[]): GceDeleteTarget {
  const zones = [...new Set(groups.flatMap((g) => g.spec.zones ?? []))].sort();
  const spec = cluster.spec ?? {};
  const dnsType = spec.topology?.dns?.type;
  const names = [spec.api?.publicName, spec.masterPublicName, spec.masterInternalName].filter((n): n is string => !!n);
  const dns = (dnsType === 'Public' || dnsType === 'Private') && !cluster.metadata.name.endsWith('.k8s.local') ? { zone: spec.dnsZone, privateZone: dnsType === 'Private', names } : undefined;
  return { cloud, zones, sharedNetwork: spec.networkID || undefined, sharedSubnetworks: (spec.subnets ?? []).flatMap((s) => (s.id ? [s.id] : [])), ...(dns ? { dns } : {}) };
}

/**
 * The cluster's resources, found as kops finds them: by the cluster label (`k8s-io-cluster-name`: disks,
 * templates, forwarding rules) and by kops's names (`<object>-<cluster>`, the network named after the
 * cluster, the `<role>-<cluster>` service accounts). A shared network or subnetwork is never listed. Each
 * resource depends on the listed resources that reference it (GCE refuses to delete what is referenced),
 * and a zone's disks on its MIGs (their instances attach them).
 */
export async function listGceClusterResources(target: GceDeleteTarget): Promise<ListedResource[]> {
  const { cloud } = target;
  const compute = cloud.compute;
  const name = cloud.clusterName;
  const safe = GceNames.safeClusterName(name);
  const networkName = GceNames.truncate(safe, 63);
  const labelled = (r: GceResource, labels = r.labels) => (labels as Record<string, string> | undefined)?.['k8s-io-cluster-name'] === safe;
  const suffixed = (r: GceResource) => String(r.name).endsWith(`-${safe}`) || String(r.name).endsWith(`-${GceNames.truncate(safe, 50)}`);
  const found: Array<{ collection: GceCollection; where?: string; r: GceResource; type: string }> = [];
  const take = async (type: string, collection: GceCollection, where: string | undefined, mine: (r: GceResource) => boolean) => {
    for (const r of await compute.list(collection, where)) if (mine(r)) found.push({ collection, where, r, type });
  };
  const region = cloud.region;
  await take('forwarding-rule', GCE_COLLECTIONS.forwardingRules, region, (r) => labelled(r) || suffixed(r));
  await take('target-pool', GCE_COLLECTIONS.targetPools, region, suffixed);
  await take('backend-service', GCE_COLLECTIONS.regionBackendServices, region, suffixed);
  await take('health-check', GCE_COLLECTIONS.regionHealthChecks, region, suffixed);
  await take('http-health-check', GCE_COLLECTIONS.httpHealthChecks, undefined, suffixed);
  await take('address', GCE_COLLECTIONS.addresses, region, suffixed);
  await take('router', GCE_COLLECTIONS.routers, region, suffixed);
  await take('instance-template', GCE_COLLECTIONS.instanceTemplates, undefined, (r) => labelled(r, (r.properties as GceResource | undefined)?.labels));
  for (const zone of target.zones) {
    await take('instance-group-manager', GCE_COLLECTIONS.instanceGroupManagers, zone, suffixed);
    await take('disk', GCE_COLLECTIONS.disks, zone, labelled);
  }
  await take('firewall', GCE_COLLECTIONS.firewalls, undefined, suffixed);
  await take('subnetwork', GCE_COLLECTIONS.subnetworks, region, (r) => suffixed(r) && !target.sharedSubnetworks.includes(String(r.name)));
  if (!target.sharedNetwork) await take('network', GCE_COLLECTIONS.networks, undefined, (r) => r.name === networkName);

  const text = new Map(found.map((f) => [f, JSON.stringify({ ...f.r, selfLink: undefined, region: undefined, zone: undefined, users: undefined })]));
  const resources: ListedResource[] = found.map((f) => {
    const id = String(f.r.selfLink);
    const dependsOn = found.filter((o) => o !== f && (text.get(o)!.includes(`"${id}"`) || (f.type === 'disk' && o.type === 'instance-group-manager' && o.where === f.where))).map((o) => String(o.r.selfLink));
    return { type: f.type, name: String(f.r.name), id, dependsOn: [...new Set(dependsOn)].sort(), delete: () => deleteOne(cloud, f.collection, f.where, String(f.r.name)) };
  });
  for (const account of await listAccounts(cloud)) resources.push(account);
  if (target.dns) {
    const { listGceDnsRecords } = await import('./gce-dns-records');
    resources.push(...(await listGceDnsRecords(cloud, target.dns)));
  }
  return resources.sort((a, b) => (a.type < b.type ? -1 : a.type > b.type ? 1 : a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** The model's service accounts (`<role>-<cluster>` cut to 30): deleted once nothing else is left. */
async function listAccounts(cloud: GceCloud): Promise<ListedResource[]> {
  const ids = new Set(ACCOUNT_ROLES.map((role) => GceNames.clusterSuffixed(role, cloud.clusterName, 30)));
  const { accounts } = await cloud.compute.iam<{ accounts?: GceResource[] }>('serviceAccounts.list', 'GET', `projects/${cloud.project}/serviceAccounts`);
  return (accounts ?? [])
    .filter((a) => ids.has(String(a.email).split('@')[0]))
    .map((a) => ({
      type: 'service-account',
      name: String(a.email),
      id: String(a.name),
      dependsOn: [],
      delete: async () => {
        // Its project role bindings first: a deleted account's bindings would stay as `deleted:serviceAccount:…`.
        const member = `serviceAccount:${String(a.email)}`;
        await cloud.compute.updateProjectPolicy((bindings) => bindings.map((b) => ({ role: b.role, members: b.members.filter((m) => m !== member) })).filter((b) => b.members.length > 0));
        try {
          await cloud.compute.iam('serviceAccounts.delete', 'DELETE', String(a.name));
        } catch (e) {
          if (classifyGceError(e) !== 'not-found') throw e;
        }
        return 'deleted' as const;
      },
    }));
}

/** Deletes one resource and waits for its operation; gone already is done, still referenced waits a round. */
async function deleteOne(cloud: GceCloud, collection: GceCollection, where: string | undefined, name: string): Promise<'deleted' | 'pending'> {
  try {
    await cloud.compute.delete(collection, where, name);
    return 'deleted';
  } catch (e) {
    const kind = classifyGceError(e);
    if (kind === 'not-found') return 'deleted';
    if (kind === 'in-use') return 'pending';
    throw e;
  }
}
