import type { GceCollection, GceCompute, GceIamPolicy, GceResource } from './gce-compute';

/**
 * What find reads: each collection (per region or zone) listed once per run and cached, so a no-op update
 * makes one list call per collection and scope however many groups the cluster has. A retry invalidates it,
 * so the retried task sees what a failed attempt may have made.
 */
export class GceInventory {
  private readonly lists = new Map<string, Promise<GceResource[]>>();

  constructor(private readonly compute: () => GceCompute) {}

  /** The collection's resources in a scope (undefined: global). */
  all(collection: GceCollection, where?: string): Promise<GceResource[]> {
    const key = `${collection.path}/${where ?? ''}`;
    let list = this.lists.get(key);
    if (!list) {
      list = this.compute().list(collection, where);
      // A failed list is not cached: the retry lists again.
      list.catch(() => this.lists.delete(key));
      this.lists.set(key, list);
    }
    return list;
  }

  /** The project's service accounts (IAM), listed once per run. */
  serviceAccounts(project: string): Promise<GceResource[]> {
    const key = `iam/${project}`;
    let list = this.lists.get(key);
    if (!list) {
      list = this.compute()
        .iam<{ accounts?: GceResource[] }>('serviceAccounts.list', 'GET', `projects/${project}/serviceAccounts`)
        .then((r) => r.accounts ?? []);
      list.catch(() => this.lists.delete(key));
      this.lists.set(key, list);
    }
    return list;
  }

  /** The project's IAM policy, read once per run. */
  projectPolicy(): Promise<GceIamPolicy> {
    const key = 'crm/policy';
    let policy = this.lists.get(key) as Promise<GceIamPolicy> | undefined;
    if (!policy) {
      policy = this.compute().projectPolicy();
      policy.catch(() => this.lists.delete(key));
      this.lists.set(key, policy as unknown as Promise<GceResource[]>);
    }
    return policy;
  }

  /** One resource by name, or undefined. */
  async get(collection: GceCollection, where: string | undefined, name: string): Promise<GceResource | undefined> {
    return (await this.all(collection, where)).find((r) => r.name === name);
  }

  /** Drops every cached list. */
  invalidate(): void {
    this.lists.clear();
  }
}
