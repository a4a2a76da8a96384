import type { Cluster } from '../api/types';
import { channelKubernetesVersion } from './assets/asset-catalog';

/**
 * kops's PerformAssignments: values that are chosen once and then written into the user's stored spec,
 * so they stay explicit from then on. Today: `kubernetesVersion`, when absent, becomes the recommendation
 * of the spec's `channel` (default `stable`). Returns a copy; an unknown channel is left for validation.
 */
export function performAssignments(cluster: Cluster): Cluster {
  if (cluster.spec?.kubernetesVersion !== undefined) return cluster;
  const version = channelKubernetesVersion(cluster.spec?.channel ?? 'stable');
  if (!version) return cluster;
  return { ...cluster, spec: { ...cluster.spec, kubernetesVersion: version } };
}
