import type { Cluster } from '../api/types';
import type { FieldError } from '../errors/field-error';

/** How the node-identity service trusts workers when the spec does not say (kforge's default on AWS). */
export const DEFAULT_NODE_IDENTITY_MODE = 'Automatic';

/** The cluster's node-identity mode: `spec.nodeIdentity.mode`, or Automatic. */
export function nodeIdentityMode(cluster: Cluster): 'Automatic' | 'Approval' {
  return cluster.spec.nodeIdentity?.mode ?? DEFAULT_NODE_IDENTITY_MODE;
}

/**
 * `spec.nodeIdentity`: the schema checks the mode's values; here, that the node-identity service exists for
 * the cloud (it runs on AWS control planes only), so the setting is not silently ignored elsewhere.
 */
export function checkNodeIdentity(cluster: Cluster): FieldError[] {
  const ni = cluster.spec.nodeIdentity;
  if (ni === undefined || cluster.spec.cloudProvider === undefined || cluster.spec.cloudProvider === 'aws') return [];
  return [{ object: `Cluster/${cluster.metadata.name}`, path: 'spec.nodeIdentity', message: `is not supported on ${cluster.spec.cloudProvider} yet: the node-identity service runs on AWS control planes only` }];
}
