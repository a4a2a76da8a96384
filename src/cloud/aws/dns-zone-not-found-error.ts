import { KforgeError } from '../../errors/kforge-error';

/** `spec.dnsZone` names no usable Route 53 hosted zone (none, or several of that name); raised while planning, before any change. */
export class DnsZoneNotFoundError extends KforgeError {
  constructor(
    readonly dnsZone: string,
    detail: string,
  ) {
    super('DNS_ZONE_NOT_FOUND', `spec.dnsZone: ${detail}; create the hosted zone, or set spec.dnsZone to its name or id`);
  }
}
