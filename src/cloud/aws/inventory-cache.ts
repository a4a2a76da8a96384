/**
 * A run's cache of cloud reads: one load per key, shared by concurrent callers; a failed load is
 * forgotten so a retry reloads; `invalidate` drops everything (before a retry, or after an apply).
 */
export class InventoryCache {
  private readonly entries = new Map<string, Promise<unknown>>();

  /** The value of `key`, loaded once per run. */
  once<T>(key: string, load: () => Promise<T>): Promise<T> {
    let p = this.entries.get(key) as Promise<T> | undefined;
    if (!p) {
      p = load();
      this.entries.set(key, p);
      p.catch(() => this.entries.delete(key));
    }
    return p;
  }

  /** Follows a paged API's NextToken (or marker) to the end. */
  async pages<T>(page: (token: string | undefined) => Promise<[T[], string | undefined]>): Promise<T[]> {
    const all: T[] = [];
    let token: string | undefined;
    do {
      const [items, next] = await page(token);
      all.push(...items);
      token = next || undefined;
    } while (token);
    return all;
  }

  /** Drops everything cached. */
  invalidate(): void {
    this.entries.clear();
  }
}
