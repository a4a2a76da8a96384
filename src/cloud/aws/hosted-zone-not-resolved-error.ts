import { KforgeError } from '../../errors/kforge-error';

/** A policy naming the cluster's hosted zone was used before the zone's id was found (a pipeline bug: find or resolve first). */
export class HostedZoneNotResolvedError extends KforgeError {
  constructor(task: string) {
    super('HOSTED_ZONE_NOT_RESOLVED', `${task}: the hosted zone of spec.dnsZone was not resolved to its id before the policy was used`);
  }
}
