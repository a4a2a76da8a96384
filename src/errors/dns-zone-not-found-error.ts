import { KforgeError } from './kforge-error';

/** `spec.dnsZone` names no usable DNS zone (a Route 53 hosted zone, a Cloud DNS managed zone: none, or several of that name); raised before any change. */
export class DnsZoneNotFoundError extends KforgeError {
  constructor(
    readonly dnsZone: string,
    detail: string,
  ) {
    super('DNS_ZONE_NOT_FOUND', `spec.dnsZone: ${detail}; create the zone, or set spec.dnsZone to its name or id`);
  }
}
