import type { ClusterSpec } from '../../api/types';
import type { ExpandContext } from '../expand-context';

/**
 * Whether the cloud-controller-manager's route controller programs pod routes, by kops's rule
 * (pkg/model/components/awscloudcontrollermanager.go): yes for kubenet, whose pods are reachable only through
 * the VPC route table entries it writes; no for external networking and every CNI, which route pods themselves.
 */
export function cloudRoutesForNetworking(spec: ClusterSpec): boolean {
  return spec.networking?.kubenet !== undefined && spec.networking?.kubenet !== null;
}

/**
 * kops's CCM default for `configureCloudRoutes`, on a spec that has a `cloudControllerManager` block (the CCM
 * addon's expansion creates it; this step only decides the flag the network mode dictates). The user's value wins.
 */
export function expandCloudRoutes(spec: ClusterSpec, _ctx: ExpandContext): void {
  if (spec.cloudControllerManager) spec.cloudControllerManager.configureCloudRoutes ??= cloudRoutesForNetworking(spec);
}
