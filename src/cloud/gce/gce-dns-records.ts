import { DnsZoneNotFoundError } from '../../errors/dns-zone-not-found-error';
import type { ListedResource } from '../cloud-provider';
import type { CloudDnsRest, CloudDnsRrset } from './cloud-dns-rest';
import type { GceCloud } from './gce-cloud';
import { resolveGceDnsZone } from './gce-dns-zones';
import { classifyGceError } from './gce-errors';

/** The records of the cluster's names kops's delete removes: the API's, kops-controller's and etcd's. */
function owned(name: string, cluster: string, extra: readonly string[]): boolean {
  const suffix = `.${cluster.replace(/\.$/, '')}.`;
  if (extra.some((n) => `${n.replace(/\.$/, '')}.` === name)) return true;
  if (!name.endsWith(suffix)) return false;
  const prefix = name.slice(0, -suffix.length);
  return prefix === 'api' || prefix === 'api.internal' || prefix === 'kops-controller.internal' || /^etcd-[a-z0-9-]+\.internal$/.test(prefix);
}

/**
 * `delete cluster`'s Cloud DNS records (kops's GCE lister does the same): the A and AAAA records of
 * `api.<cluster>`, `api.internal.<cluster>`, `kops-controller.internal.<cluster>`, the etcd members' names
 * and a custom public or internal API name, in the cluster's managed zone. The zone itself is never deleted
 * (it holds other names). A zone that is gone lists nothing.
 */
export async function listGceDnsRecords(cloud: GceCloud, dns: { zone: string | undefined; privateZone: boolean; names: readonly string[] }): Promise<ListedResource[]> {
  const client = await cloud.connectDns();
  let zone: string;
  try {
    zone = (await resolveGceDnsZone(client, dns.zone, dns.privateZone, cloud.clusterName)).name;
  } catch (e) {
    if (e instanceof DnsZoneNotFoundError) return [];
    throw e;
  }
  const records = (await client.listRecords(zone)).filter((r) => (r.type === 'A' || r.type === 'AAAA') && owned(r.name, cloud.clusterName, dns.names));
  return records.map((r) => ({
    type: 'dns-record',
    name: `${r.name.replace(/\.$/, '')} ${r.type}`,
    id: `${zone}/${r.name}/${r.type}`,
    dependsOn: [],
    delete: () => deleteRecord(client, zone, r),
  }));
}

/** Deletes the record as it is now (a deletion must match exactly: protokube may have changed it since the list). */
async function deleteRecord(client: CloudDnsRest, zone: string, listed: CloudDnsRrset): Promise<'deleted' | 'pending'> {
  let current: CloudDnsRrset | undefined = listed;
  for (let attempt = 1; current; attempt++) {
    try {
      await client.change(zone, { deletions: [current] });
      return 'deleted';
    } catch (e) {
      const kind = classifyGceError(e);
      if (kind === 'not-found') return 'deleted';
      if (kind !== 'precondition-failed' || attempt >= 5) throw e;
      [current] = await client.listRecords(zone, listed.name, listed.type);
    }
  }
  return 'deleted';
}
