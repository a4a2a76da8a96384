import type { Cluster } from '../api/types';
import type { FieldError } from '../errors/field-error';

/**
 * kforge renders metrics-server in kops's default insecure mode only: the secure mode serves a certificate that
 * cert-manager issues (kops requires `certManager` for it), and kforge renders no cert-manager yet.
 */
export function checkMetricsServer(cluster: Cluster): FieldError[] {
  const m = cluster.spec.metricsServer;
  if (m?.enabled !== true || m.insecure !== false) return [];
  return [{
    object: `Cluster/${cluster.metadata.name}`,
    path: 'spec.metricsServer.insecure',
    message: 'false is not supported yet: the secure metrics-server needs the certificate cert-manager issues, and kforge renders no cert-manager yet; leave insecure unset or true',
  }];
}
