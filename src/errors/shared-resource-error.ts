import { KforgeError } from './kforge-error';

/**
 * A resource the cluster uses but does not own (an existing VPC, subnet, NAT gateway, security group or
 * instance profile named by id in the spec) is missing, or does not fit the spec: `SHARED_RESOURCE`. Found
 * while planning, before any change; `field` names where the spec names it (`Cluster/<c> spec.subnets[0].id`).
 */
export class SharedResourceError extends KforgeError {
  constructor(
    readonly field: string,
    problem: string,
  ) {
    super('SHARED_RESOURCE', `${field}: ${problem}`);
  }
}
