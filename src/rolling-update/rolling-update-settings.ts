import type { Cluster, InstanceGroup, RollingUpdate } from '../api/types';
import { isControlPlane } from '../expand/expand-context';

/** How many instances of one group a rolling update replaces at a time. */
export interface ResolvedRollingUpdate {
  /** Extra instances launched before old ones go (0 for the control plane). */
  maxSurge: number;
  /** Instances that may be down at once, besides the surge. */
  maxUnavailable: number;
  /** `drainAndTerminate: false`: instances are neither drained nor terminated (a surge still happens). */
  drainAndTerminate: boolean;
}

/** `10%` of `n`, rounded up or down, or a plain number (a number in a string too). */
function intOrPercent(v: string | number, n: number, roundUp: boolean): number {
  if (typeof v === 'number') return v;
  const m = /^(\d+)%$/.exec(v.trim());
  if (!m) return Number.parseInt(v, 10);
  const exact = (Number(m[1]) * n) / 100;
  return roundUp ? Math.ceil(exact) : Math.floor(exact);
}

/**
 * kops's resolveSettings: the group's `rollingUpdate`, else the cluster's, else the defaults: maxSurge 1 on
 * AWS (0 elsewhere), maxUnavailable 1 when maxSurge is 0 and 0 otherwise. A percentage is of the group's
 * instances, surge rounded up and unavailability rounded down but at least 1. The control plane never
 * surges (its members register through their own etcd member), and goes one machine at a time unless
 * maxUnavailable says more.
 */
export function resolveRollingUpdate(cluster: Cluster, ig: InstanceGroup, instances: number): ResolvedRollingUpdate {
  const own: RollingUpdate = ig.spec.rollingUpdate ?? {};
  const def: RollingUpdate = cluster.spec?.rollingUpdate ?? {};
  const surgeSetting = own.maxSurge ?? def.maxSurge ?? (cluster.spec?.cloudProvider === 'aws' ? 1 : 0);
  let maxSurge = Math.max(0, intOrPercent(surgeSetting, instances, true) || 0);
  const unavailableSetting = own.maxUnavailable ?? def.maxUnavailable;
  let maxUnavailable = unavailableSetting === undefined ? (maxSurge === 0 ? 1 : 0) : intOrPercent(unavailableSetting, instances, false);
  if (Number.isNaN(maxUnavailable) || maxUnavailable < 0) maxUnavailable = maxSurge === 0 ? 1 : 0;
  else if (typeof unavailableSetting === 'string' && unavailableSetting.endsWith('%') && maxUnavailable <= 0) maxUnavailable = 1;
  if (isControlPlane(ig)) {
    maxSurge = 0;
    if (maxUnavailable === 0) maxUnavailable = 1;
  }
  return { maxSurge, maxUnavailable, drainAndTerminate: own.drainAndTerminate ?? def.drainAndTerminate ?? true };
}
