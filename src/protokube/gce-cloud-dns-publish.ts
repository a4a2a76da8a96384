import { CloudDnsRest, CloudDnsRrset } from '../cloud/gce/cloud-dns-rest';
import { resolveGceDnsZone } from '../cloud/gce/gce-dns-zones';
import { classifyGceError, gceErrorMessage } from '../cloud/gce/gce-errors';
import { KforgeError } from '../errors/kforge-error';
import { GceComputeRest } from './gce-compute-rest';
import type { EtcdVolume } from './etcd-volumes';
import type { NameRecord } from './publish-names';
import { ProtokubeError } from './protokube-error';

/** kops's TTL of the records dns-controller writes. */
const TTL = 60;
/** Changes tried before giving up when others keep changing the records between the read and the change. */
const ATTEMPTS = 5;

/**
 * `api.<cluster>` (or `spec.api.publicName`) at the control plane's addresses when the API has no load
 * balancer (kops's dns-controller does this from the API server's annotations): the instances' external IPs
 * with a public topology, their internal IPs otherwise. The machines are those holding a main etcd volume,
 * read with Instances.Get in their zones. Undefined with a load balancer (update points the record at it).
 */
export async function gceApiRecord(
  spec: { api?: { loadBalancer?: unknown; publicName?: string }; masterPublicName?: string; subnets?: Array<{ type?: string }> },
  clusterName: string,
  project: string,
  volumes: readonly EtcdVolume[],
  env: NodeJS.ProcessEnv,
): Promise<NameRecord | undefined> {
  if (spec.api?.loadBalancer) return undefined;
  const external = (spec.subnets ?? []).some((s) => s.type === 'Public');
  const holders = [...new Map(volumes.filter((v) => v.etcdName === 'main' && v.attachedTo).map((v) => [v.attachedTo as string, v.zone])).entries()].sort();
  const addresses = new Set<string>();
  for (const [name, zone] of holders) {
    const i = await new GceComputeRest(project, zone, env).call<{ networkInterfaces?: Array<{ networkIP?: string; accessConfigs?: Array<{ natIP?: string }> }> }>('GET', `instances/${encodeURIComponent(name)}`);
    const nic = i.networkInterfaces?.[0];
    const ip = external ? nic?.accessConfigs?.find((a) => a.natIP)?.natIP : nic?.networkIP;
    if (ip) addresses.add(ip);
  }
  return addresses.size > 0 ? { name: spec.api?.publicName ?? spec.masterPublicName ?? `api.${clusterName}`, addresses: [...addresses].sort() } : undefined;
}

/**
 * Publishes the names in the cluster's Cloud DNS managed zone (`spec.dnsZone`: a DNS name looked up with the
 * DNS type's visibility, or a zone's name or id; unset, found from the cluster name), as protokube does in Route 53 on AWS: an A record (TTL 60)
 * per name, skipping those that already have these addresses. Cloud DNS has no UPSERT: one atomic change
 * deletes each old record exactly as read and adds the new one; when a record changed since the read (412
 * conditionNotMet, or 409 alreadyExists for one that appeared) the zone is read again and the change remade.
 * The token is the instance's service account's (metadata server, scope ndev.clouddns.readwrite). Returns the
 * names it changed.
 */
export async function publishCloudDns(project: string, clusterName: string, dnsZone: string | undefined, privateZone: boolean, records: readonly NameRecord[], env: NodeJS.ProcessEnv): Promise<string[]> {
  // GceComputeRest keeps the metadata server's token until it expires; its zone is not used for Cloud DNS.
  const tokens = new GceComputeRest(project, '', env);
  const dns = new CloudDnsRest({ project, env, token: () => tokens.accessToken() });
  try {
    const zone = (await resolveGceDnsZone(dns, dnsZone, privateZone, clusterName)).name;
    for (let attempt = 1; ; attempt++) {
      const existing = new Map<string, CloudDnsRrset>();
      for (const r of await dns.listRecords(zone)) if (r.type === 'A') existing.set(r.name, r);
      const wanted = records
        .filter((r) => r.addresses.length > 0)
        .map((r) => ({ name: `${r.name.replace(/\.$/, '')}.`, type: 'A', ttl: TTL, rrdatas: [...r.addresses].sort() }))
        .filter((r) => { const old = existing.get(r.name); return !old || old.ttl !== r.ttl || [...old.rrdatas].sort().join(',') !== r.rrdatas.join(','); });
      if (wanted.length === 0) return [];
      const deletions = wanted.flatMap((r) => (existing.has(r.name) ? [existing.get(r.name) as CloudDnsRrset] : []));
      try {
        await dns.change(zone, { additions: wanted, deletions });
        return wanted.map((r) => r.name.replace(/\.$/, ''));
      } catch (e) {
        const kind = classifyGceError(e);
        if (attempt >= ATTEMPTS || (kind !== 'precondition-failed' && kind !== 'already-exists' && kind !== 'not-found')) throw e;
      }
    }
  } catch (e) {
    if (e instanceof KforgeError) throw e;
    throw new ProtokubeError(`publishing ${records.map((r) => r.name).join(', ')} in Cloud DNS zone ${dnsZone ?? `of ${clusterName}`}: ${gceErrorMessage(e)}`);
  }
}
