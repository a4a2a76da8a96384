import type { PruneKind } from './addon-channel';
import type { KubeApiClient } from './kube-api-client';
import type { ManifestObject } from './manifest-objects';
import type { ResourceMapper } from './resource-mapper';
import { collectionPath } from './collection-path';

/**
 * kops's Pruner (channels/pkg/channels/prune.go): for each kind of the addon's `prune` list, lists the
 * objects its label selector (and field selector) matches, in each listed namespace or cluster-wide, and
 * deletes every one the manifest no longer holds (same group and kind, same namespace/name). Returns the
 * deleted objects as `Kind namespace/name`; throws (a plain Error, the caller names the addon) on a kind
 * the server does not serve or a refused call.
 */
export async function pruneAddon(client: KubeApiClient, mapper: ResourceMapper, kinds: PruneKind[], objects: ManifestObject[]): Promise<string[]> {
  const pruned: string[] = [];
  for (const k of kinds) {
    const mapping = await mapper.forGroupKind(k.group, k.kind);
    if (!mapping) throw new Error(`unable to find resource for ${k.kind}${k.group ? `.${k.group}` : ''}`);
    const keep = new Set(
      objects
        .filter((o) => o.kind === k.kind && (o.apiVersion.includes('/') ? o.apiVersion.split('/')[0] : '') === k.group)
        .map((o) => `${mapping.namespaced ? (o.metadata.namespace ?? 'default') : ''}/${o.metadata.name}`),
    );
    const query = { ...(k.labelSelector ? { labelSelector: k.labelSelector } : {}), ...(k.fieldSelector ? { fieldSelector: k.fieldSelector } : {}) };
    for (const ns of k.namespaces && k.namespaces.length > 0 ? k.namespaces : [undefined]) {
      const list = await client.request('GET', collectionPath(mapping, ns), { query });
      if (list.status !== 200) throw new Error(`listing ${k.kind}${ns ? ` in namespace ${ns}` : ''}: ${list.status} ${list.body?.message ?? ''}`.trim());
      for (const item of (list.body?.items ?? []) as ManifestObject[]) {
        const namespace = item.metadata.namespace;
        if (keep.has(`${namespace ?? ''}/${item.metadata.name}`)) continue;
        const del = await client.request('DELETE', `${collectionPath(mapping, namespace)}/${encodeURIComponent(item.metadata.name)}`);
        // Gone already (deleted by someone else in between): what pruning wanted.
        if (del.status !== 200 && del.status !== 202 && del.status !== 404) throw new Error(`deleting ${k.kind} ${namespace ? `${namespace}/` : ''}${item.metadata.name}: ${del.status} ${del.body?.message ?? ''}`.trim());
        pruned.push(`${k.kind} ${namespace ? `${namespace}/` : ''}${item.metadata.name}`);
      }
    }
  }
  return pruned;
}
