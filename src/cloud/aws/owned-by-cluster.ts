import { tagMap } from './aws-tags';

/**
 * Whether a resource's tags say the cluster owns it: `KubernetesCluster=<cluster>` AND
 * `kubernetes.io/cluster/<cluster>=owned`. Checked again after every tag-filtered Describe, because some
 * APIs (ELBv2, Auto Scaling) have no such filter or ignore parts of it, and a `shared` or untagged
 * resource must never be deleted.
 */
export function ownedByCluster(tags: ReadonlyArray<{ Key?: string; Value?: string }> | undefined, clusterName: string): boolean {
  const t = tagMap(tags);
  return t.KubernetesCluster === clusterName && t[`kubernetes.io/cluster/${clusterName}`] === 'owned';
}
