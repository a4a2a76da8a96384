import type { InstanceGroup } from '../api/types';
import type { ComponentVersions } from './assets/asset-catalog';

/** What every expansion step may read besides the spec it fills in. */
export interface ExpandContext {
  /** metadata.name of the cluster. */
  clusterName: string;
  /** Base URL of the state store; the cluster's configBase is `<storeUrl>/<clusterName>`. */
  storeUrl: string;
  /** Kubernetes version without the leading `v`. */
  kubernetesVersion: string;
  /** Versions of node software that go with that Kubernetes version. */
  versions: ComponentVersions;
  /** All instance groups, sorted by name. */
  instanceGroups: InstanceGroup[];
}

/** True for control-plane instance groups (`ControlPlane`, or kops's older `Master`). */
export function isControlPlane(ig: InstanceGroup): boolean {
  return ig.spec.role === 'ControlPlane' || ig.spec.role === 'Master';
}

/** The role with kops's `Master` alias resolved. */
export function normalizedRole(ig: InstanceGroup): string {
  return ig.spec.role === 'Master' ? 'ControlPlane' : ig.spec.role;
}
