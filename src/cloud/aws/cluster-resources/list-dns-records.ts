import type { ResourceRecordSet } from '@aws-sdk/client-route-53';
import type { AwsCloud } from '../aws-cloud';
import type { ClusterResource } from './cluster-resource';

// Records that are the zone's own, never the cluster's.
const ZONE_TYPES = new Set(['NS', 'SOA']);

/**
 * The cluster's DNS records: `api.<cluster>` and `api.internal.<cluster>` in `spec.dnsZone` (a zone name or
 * id) and nothing else, since a zone is shared with other clusters and services. Each is deleted with a
 * DELETE change that carries the record exactly as it was read (Route 53 refuses anything else).
 */
export async function listDnsRecords(cloud: AwsCloud, dnsZone: string | undefined): Promise<ClusterResource[]> {
  if (!dnsZone) return [];
  const { sdk, client } = await cloud.route53();
  const cluster = cloud.clusterName;
  const zoneName = dnsZone.replace(/\.$/, '');
  let zoneIds: string[];
  if (/^Z[A-Z0-9]+$/.test(zoneName)) {
    zoneIds = [zoneName];
  } else {
    // Public and private zones may share a name; the cluster's records may be in either.
    const zones = await client.send(new sdk.ListHostedZonesByNameCommand({ DNSName: zoneName }));
    zoneIds = (zones.HostedZones ?? []).filter((z) => z.Name?.replace(/\.$/, '') === zoneName && z.Id).map((z) => (z.Id as string).replace(/^\/hostedzone\//, ''));
  }
  const wanted = new Set([`api.${cluster}.`, `api.internal.${cluster}.`]);
  const out: ClusterResource[] = [];
  for (const zoneId of zoneIds) {
    const records: ResourceRecordSet[] = [];
    for (const start of wanted) {
      // Records come sorted by name: start at the name and stop paging once past it.
      const page = await client.send(new sdk.ListResourceRecordSetsCommand({ HostedZoneId: zoneId, StartRecordName: start }));
      records.push(...(page.ResourceRecordSets ?? []).filter((r) => r.Name === start));
    }
    for (const r of records) {
      if (!r.Name || !r.Type || ZONE_TYPES.has(r.Type)) continue;
      const record = r;
      const name = r.Name.replace(/\.$/, '');
      out.push({
        type: 'dns-record',
        name: `${name} ${r.Type}`,
        id: `${zoneId}/${name}/${r.Type}${r.SetIdentifier ? `/${r.SetIdentifier}` : ''}`,
        dependsOn: [],
        delete: async () => {
          try {
            await client.send(new sdk.ChangeResourceRecordSetsCommand({ HostedZoneId: zoneId, ChangeBatch: { Changes: [{ Action: 'DELETE', ResourceRecordSet: record }] } }));
          } catch (e) {
            // Route 53 answers a record that is gone (or changed) with the generic InvalidChangeBatch: look
            // instead of guessing from the message. Gone is done; changed by someone else stays an error.
            const now = await client.send(new sdk.ListResourceRecordSetsCommand({ HostedZoneId: zoneId, StartRecordName: record.Name, StartRecordType: record.Type, MaxItems: 1 }));
            const same = (now.ResourceRecordSets ?? []).some((x) => x.Name === record.Name && x.Type === record.Type && x.SetIdentifier === record.SetIdentifier);
            if (same) throw e;
          }
          return 'deleted';
        },
      });
    }
  }
  return out;
}
