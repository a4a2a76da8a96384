import type { AwsCloud } from './aws-cloud';
import { DnsZoneNotFoundError } from '../../errors/dns-zone-not-found-error';

/** The hosted zone id `dnsZone` is, when it is one (`Z…` or `/hostedzone/Z…`); undefined for a zone name. */
export function literalHostedZoneId(dnsZone: string): string | undefined {
  return /^(\/hostedzone\/)?Z[A-Z0-9]+$/.test(dnsZone) ? dnsZone.replace(/^\/hostedzone\//, '') : undefined;
}

/**
 * The id of the one hosted zone `spec.dnsZone` names (an id checked to exist, a name looked up with the DNS
 * type's privacy), through the run's inventory, or a DnsZoneNotFoundError, raised while planning before any change.
 */
export async function findHostedZoneId(cloud: AwsCloud, dnsZone: string, privateZone: boolean): Promise<string> {
  const zones = await cloud.inventory.endpoint.hostedZones(dnsZone, privateZone);
  const kind = privateZone ? 'private' : 'public';
  if (zones.length === 0) throw new DnsZoneNotFoundError(dnsZone, `no ${kind} Route 53 hosted zone "${dnsZone}" exists in this account`);
  if (zones.length > 1) throw new DnsZoneNotFoundError(dnsZone, `${zones.length} ${kind} hosted zones are named "${dnsZone}"; set spec.dnsZone to the id of the one to use`);
  return (zones[0].Id ?? '').replace(/^\/hostedzone\//, '');
}
