import type { CallCounter } from '../cloud-provider';

/** Counts a GCE run's API calls: operations by name (`networks.insert`), attempts, throttled ones, mutations. */
export class GceCallCounter implements CallCounter {
  readonly api = 'GCE';
  calls = 0;
  attempts = 0;
  throttled = 0;
  mutating = 0;
  private readonly byOperation = new Map<string, number>();

  /** Records one operation (its retries are attempts, not calls). */
  count(name: string, mutating: boolean): void {
    this.calls++;
    if (mutating) this.mutating++;
    this.byOperation.set(name, (this.byOperation.get(name) ?? 0) + 1);
  }

  /** Operations per name, sorted. */
  snapshot(): Record<string, number> {
    return Object.fromEntries([...this.byOperation].sort(([a], [b]) => (a < b ? -1 : 1)));
  }
}
