/** EC2 tags as a plain map. */
export type TagMap = Record<string, string>;

/**
 * The tags kforge puts on every resource of a cluster, as kops does: the user's cloudLabels, then
 * `KubernetesCluster`, `kubernetes.io/cluster/<name>=owned` and `Name` (which the labels cannot override).
 */
export function clusterTags(clusterName: string, name: string, cloudLabels: TagMap = {}, extra: TagMap = {}): TagMap {
  return { ...cloudLabels, ...extra, KubernetesCluster: clusterName, [`kubernetes.io/cluster/${clusterName}`]: 'owned', Name: name };
}

/** Tags from an SDK `Tags` list. */
export function tagMap(tags: ReadonlyArray<{ Key?: string; Value?: string }> | undefined): TagMap {
  const out: TagMap = {};
  for (const t of tags ?? []) if (t.Key !== undefined) out[t.Key] = t.Value ?? '';
  return out;
}

/** A tag map as an SDK `Tags` list, sorted by key. */
export function tagList(tags: TagMap): { Key: string; Value: string }[] {
  return Object.keys(tags)
    .sort()
    .map((Key) => ({ Key, Value: tags[Key] }));
}
