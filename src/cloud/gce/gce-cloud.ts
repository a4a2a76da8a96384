import type { CallCounter, CloudConnection } from '../cloud-provider';

/** Counts a GCE run's API calls (the Compute client is not wired yet: nothing is counted so far). */
class GceCallCounter implements CallCounter {
  readonly api = 'GCE';
  calls = 0;
  attempts = 0;
  throttled = 0;
  mutating = 0;
  private readonly byOperation = new Map<string, number>();

  /** Operations per name, sorted. */
  snapshot(): Record<string, number> {
    return Object.fromEntries([...this.byOperation].sort(([a], [b]) => (a < b ? -1 : 1)));
  }
}

/**
 * One cluster's GCE: its project and region. The Compute client (direct apply) is not built yet, so this
 * connection makes no call: it serves `--target terraform`, which needs none.
 */
export class GceCloud implements CloudConnection {
  readonly calls: CallCounter = new GceCallCounter();
  clusterUid: string | undefined;
  fence?: () => Promise<void>;
  constructor(
    readonly clusterName: string,
    readonly project: string,
    readonly region: string,
  ) {}
}
