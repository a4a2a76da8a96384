import { ValidationError } from '../../errors/validation-error';
import { DnsZoneNotFoundError } from '../../errors/dns-zone-not-found-error';
import type { CloudDnsRest, CloudDnsZone } from './cloud-dns-rest';
import { classifyGceError } from './gce-errors';

/** Whether a managed zone is of the wanted kind (Cloud DNS zones without `visibility` are public). */
function ofKind(z: CloudDnsZone, privateZone: boolean): boolean {
  return (z.visibility === 'private') === privateZone;
}

const bare = (name: string): string => name.replace(/\.$/, '');

/**
 * kops's FindDNSHostedZone on GCE: the Cloud DNS managed zone a cluster's records go in when no `--dns-zone`
 * was given. Walks up the cluster name: of the project's zones whose DNS name is a suffix of it and whose
 * visibility is the wanted one (kops checks visibility on Route 53 only; kforge on Cloud DNS too), the
 * longest wins and its numeric id is returned, as kops stores it. None, or several, is a ValidationError on
 * `--dns-zone` saying what to do.
 */
export async function findGceDnsZone(dns: CloudDnsRest, project: string, clusterName: string, privateZone: boolean): Promise<string> {
  const best = longestSuffixZones(await dns.listZones(), clusterName, privateZone);
  const kind = privateZone ? 'private' : 'public';
  const fail = (message: string) => new ValidationError([{ path: '--dns-zone', message }], 'create cluster flags');
  if (best.length === 0) {
    const suffix = clusterName.split('.').slice(-2).join('.');
    throw fail(`no ${kind} Cloud DNS managed zone in project ${project} is a suffix of "${clusterName}": create one (e.g. for "${suffix}.") first, give its name with --dns-zone, or use --dns none`);
  }
  if (best.length > 1) {
    const names = best.map((z) => z.name).sort();
    throw fail(`${best.length} ${kind} Cloud DNS managed zones for "${bare(best[0].dnsName)}" in project ${project} match "${clusterName}" (${names.join(', ')}): give the name of the one to use with --dns-zone`);
  }
  return best[0].id;
}

/** Of `zones`, those of the wanted visibility whose DNS name is the longest suffix of the cluster name. */
function longestSuffixZones(zones: readonly CloudDnsZone[], clusterName: string, privateZone: boolean): CloudDnsZone[] {
  const name = `.${bare(clusterName)}`;
  const matching = zones.filter((z) => name.endsWith(`.${bare(z.dnsName)}`) && ofKind(z, privateZone));
  const longest = Math.max(-1, ...matching.map((z) => bare(z.dnsName).length));
  return matching.filter((z) => bare(z.dnsName).length === longest);
}

/**
 * The one managed zone `spec.dnsZone` names: a DNS name (`example.com`, it has a dot) looked up with the DNS
 * type's visibility, or a managed zone's name or numeric id (checked to exist); unset, the one zone that is
 * the longest suffix of the cluster name. A DnsZoneNotFoundError
 * otherwise, raised while planning, before any change.
 */
export async function resolveGceDnsZone(dns: CloudDnsRest, dnsZone: string | undefined, privateZone: boolean, clusterName: string): Promise<CloudDnsZone> {
  const kind = privateZone ? 'private' : 'public';
  if (!dnsZone) {
    // A spec written without spec.dnsZone (kops's own inputs have none): walked up from the name, as create does.
    const best = longestSuffixZones(await dns.listZones(), clusterName, privateZone);
    if (best.length !== 1) throw new DnsZoneNotFoundError('', `unset, and ${best.length === 0 ? 'no' : best.length} ${kind} Cloud DNS managed zone(s) match "${clusterName}"${best.length > 1 ? ` (${best.map((z) => z.name).sort().join(', ')})` : ''}`);
    return best[0];
  }
  if (!dnsZone.includes('.')) {
    try {
      return await dns.getZone(dnsZone);
    } catch (e) {
      if (classifyGceError(e) === 'not-found') throw new DnsZoneNotFoundError(dnsZone, `no Cloud DNS managed zone named "${dnsZone}" exists in this project`);
      throw e;
    }
  }
  const zones = (await dns.listZones(`${bare(dnsZone)}.`)).filter((z) => ofKind(z, privateZone));
  if (zones.length === 0) throw new DnsZoneNotFoundError(dnsZone, `no ${kind} Cloud DNS managed zone for "${dnsZone}" exists in this project`);
  if (zones.length > 1) throw new DnsZoneNotFoundError(dnsZone, `${zones.length} ${kind} Cloud DNS managed zones are for "${dnsZone}" (${zones.map((z) => z.name).sort().join(', ')}); set spec.dnsZone to the name of the one to use`);
  return zones[0];
}
