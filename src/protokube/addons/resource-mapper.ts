import type { KubeApiClient } from './kube-api-client';

/** Where a kind is served: its plural, version and scope, from discovery. */
export interface ResourceMapping {
  group: string;
  version: string;
  resource: string;
  namespaced: boolean;
}

interface ApiResource {
  name: string;
  kind: string;
  namespaced: boolean;
}

/**
 * kops's RESTMapper (a deferred discovery mapper) for one pass: maps an apiVersion and kind, or a group and
 * kind (pruning), to the resource URL, reading `/api/v1`, `/apis/<group>` and `/apis/<group>/<version>` once
 * per pass. A group or version the server does not serve (a CRD not Established yet) is not remembered, so
 * it is asked again once the CRD is there.
 */
export class ResourceMapper {
  private readonly lists = new Map<string, ApiResource[]>();
  private readonly preferred = new Map<string, string>();

  constructor(private readonly client: KubeApiClient) {}

  /** The resource of `apiVersion`/`kind`, or undefined when the server does not serve it (now). */
  async forKind(apiVersion: string, kind: string): Promise<ResourceMapping | undefined> {
    const [group, version] = apiVersion.includes('/') ? apiVersion.split('/', 2) : ['', apiVersion];
    const list = await this.resources(group, version);
    const r = list?.find((x) => x.kind === kind && !x.name.includes('/'));
    return r && { group, version, resource: r.name, namespaced: r.namespaced };
  }

  /** The resource of a group and kind at the group's preferred version (kops's `RESTMapping(groupKind)`). */
  async forGroupKind(group: string, kind: string): Promise<ResourceMapping | undefined> {
    let version = group === '' ? 'v1' : this.preferred.get(group);
    if (version === undefined) {
      const reply = await this.client.request('GET', `/apis/${group}`);
      if (reply.status === 404) return undefined;
      if (reply.status !== 200) throw new Error(`discovery of API group ${group}: ${reply.status} ${reply.body?.message ?? ''}`.trim());
      version = String(reply.body?.preferredVersion?.version ?? reply.body?.versions?.[0]?.version ?? '');
      if (!version) return undefined;
      this.preferred.set(group, version);
    }
    return this.forKind(group ? `${group}/${version}` : version, kind);
  }

  private async resources(group: string, version: string): Promise<ApiResource[] | undefined> {
    const gv = group ? `${group}/${version}` : version;
    const known = this.lists.get(gv);
    if (known) return known;
    const reply = await this.client.request('GET', group ? `/apis/${gv}` : `/api/${version}`);
    if (reply.status === 404) return undefined;
    if (reply.status !== 200) throw new Error(`discovery of ${gv}: ${reply.status} ${reply.body?.message ?? ''}`.trim());
    const list = (reply.body?.resources ?? []) as ApiResource[];
    this.lists.set(gv, list);
    return list;
  }
}
