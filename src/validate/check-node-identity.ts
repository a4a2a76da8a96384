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
 * the cloud (it runs on AWS and GCE control planes), and that Approval mode is AWS-only (on GCE the queue's
 * store writes are not granted), so the setting is not silently ignored elsewhere.
 */
export function checkNodeIdentity(cluster: Cluster): FieldError[] {
  const ni = cluster.spec.nodeIdentity;
  const cloud = cluster.spec.cloudProvider;
  if (ni === undefined || cloud === undefined || cloud === 'aws') return [];
  const object = `Cluster/${cluster.metadata.name}`;
  if (cloud === 'gce') return ni.mode === 'Approval' ? [{ object, path: 'spec.nodeIdentity.mode', message: 'Approval is not supported on gce yet: the approval queue runs on AWS control planes only (Automatic works on gce)' }] : [];
  return [{ object, path: 'spec.nodeIdentity', message: `is not supported on ${cloud} yet: the node-identity service runs on AWS and GCE control planes only` }];
}
