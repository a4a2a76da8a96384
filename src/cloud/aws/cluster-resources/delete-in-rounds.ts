import { DeleteBlockedError } from '../../../errors/delete-blocked-error';
import { LockLostError } from '../../../errors/lock-lost-error';
import { awsErrorMessage, classifyAwsError, isRetryableAwsError } from '../aws-errors';
import type { ClusterResource } from './cluster-resource';

/** How deleteInRounds paces itself; the defaults suit AWS, tests pass small numbers. */
export interface DeleteInRoundsOptions {
  /** Deletions running at once. Default 4. */
  concurrency?: number;
  /** Wait after a round with something in progress or failing; it doubles each such round up to maxBackoffMs. Default 2,000 ms. */
  backoffMs?: number;
  /** Longest wait between rounds. Default 30,000 ms. */
  maxBackoffMs?: number;
  /** Rounds in a row that delete nothing and start nothing before giving up. Default 20 (about 8 minutes with the default waits: an NLB's network interfaces can hold its subnets and groups for minutes). */
  maxStalledRounds?: number;
  /** Rounds in all. Default 200. */
  maxRounds?: number;
  /** Time in all. Default 30 minutes. */
  timeoutMs?: number;
  /** Called after each round, e.g. to print `round 2: deleted 7, 3 waiting`. */
  onRound?: (report: RoundReport) => void;
  /** The cluster lock's fence, awaited before each deletion: once it rejects, nothing more is deleted and its error is thrown when the deletions under way are done. */
  fence?: () => Promise<void>;
  /** Waits between rounds; tests replace it. Default setTimeout. */
  sleep?: (ms: number) => Promise<void>;
}

/** What one round did. */
export interface RoundReport {
  round: number;
  /** Resources deleted in this round. */
  deleted: ClusterResource[];
  /** Resources left after it (blocked, in progress or failed). */
  waiting: number;
}

/**
 * Deletes resources in dependency order, in rounds (kops's `DeleteResources`): each round tries every
 * resource whose `dependsOn` are all gone, a few at a time. A resource is done when its delete() says
 * `deleted` or the cloud says it is not found; `pending` (a deletion under way), a dependency violation,
 * "in use" and other retryable errors make it wait for the next round; any other error takes it out of the
 * rounds (it is reported with the rest). Between rounds it backs off. When a round neither deletes nor
 * starts anything for maxStalledRounds rounds in a row, or a limit is hit, it throws DeleteBlockedError
 * naming every resource left with its last error. Resolves with the number of rounds.
 */
export async function deleteInRounds(resources: readonly ClusterResource[], options: DeleteInRoundsOptions = {}): Promise<number> {
  const concurrency = options.concurrency ?? 4;
  const maxBackoff = options.maxBackoffMs ?? 30_000;
  const maxStalled = options.maxStalledRounds ?? 20;
  const maxRounds = options.maxRounds ?? 200;
  const deadline = Date.now() + (options.timeoutMs ?? 30 * 60_000);
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  let backoff = options.backoffMs ?? 2_000;

  const remaining = new Map(resources.map((r) => [r.id, r]));
  // Dependencies name ids: two resources with one id would make one wait for itself.
  if (remaining.size !== resources.length) throw new Error('deleteInRounds: resource ids are not unique');
  const order = new Map(resources.map((r, i) => [r.id, i]));
  const lastError = new Map<string, string>();
  const failed = new Set<string>();
  let stalled = 0;
  for (let round = 1; ; round++) {
    const ready = [...remaining.values()].filter((r) => !failed.has(r.id) && r.dependsOn.every((d) => !remaining.has(d)));
    const deleted: ClusterResource[] = [];
    let started = 0;
    let errors = 0;
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < ready.length) {
        // Taken before the fence's await: another worker may take the next one meanwhile.
        const r = ready[next++];
        await options.fence?.();
        try {
          const outcome = await r.delete();
          if (outcome === 'deleted') deleted.push(r);
          else {
            started++;
            lastError.set(r.id, 'deletion in progress');
          }
        } catch (e) {
          // The lock was lost during this deletion (the fence refused one of its calls): stop, as above.
          if (e instanceof LockLostError) throw e;
          if (classifyAwsError(e) === 'not-found') deleted.push(r);
          else {
            errors++;
            lastError.set(r.id, awsErrorMessage(e));
            if (!isRetryableAwsError(e)) failed.add(r.id);
          }
        }
      }
    };
    // Every worker ends its deletion under way before a lost lock's error is thrown.
    const stopped = (await Promise.allSettled(Array.from({ length: Math.min(concurrency, ready.length) }, worker))).find((w) => w.status === 'rejected');
    if (stopped) throw stopped.reason;
    // Reported in listing order, not in the order the cloud answered.
    deleted.sort((a, b) => order.get(a.id)! - order.get(b.id)!);
    for (const r of deleted) {
      remaining.delete(r.id);
      lastError.delete(r.id);
    }
    options.onRound?.({ round, deleted, waiting: remaining.size });
    if (remaining.size === 0) return round;

    stalled = deleted.length > 0 || started > 0 ? 0 : stalled + 1;
    const left = () =>
      [...remaining.values()].map((r) => ({
        type: r.type,
        name: r.name,
        id: r.id,
        lastError: lastError.get(r.id) ?? `waits for ${r.dependsOn.filter((d) => remaining.has(d)).join(', ')}`,
      }));
    // Nothing left that a later round could try: everything failed for good or waits on what did.
    const tryable = [...remaining.values()].some((r) => !failed.has(r.id) && r.dependsOn.every((d) => !remaining.has(d) || !failed.has(d)));
    if (!tryable) throw new DeleteBlockedError(left(), 'cannot delete the cluster\'s cloud resources');
    if (stalled >= maxStalled) throw new DeleteBlockedError(left(), `no progress deleting the cluster's cloud resources in ${stalled} rounds`);
    if (round >= maxRounds) throw new DeleteBlockedError(left(), `the cluster's cloud resources were not all deleted in ${round} rounds`);
    if (Date.now() + backoff > deadline) throw new DeleteBlockedError(left(), 'the cluster\'s cloud resources were not all deleted in time');
    // A round that deleted something starts the waits over: the cloud is moving. One that only deleted made
    // the next one's work ready at once; waiting is for the cloud to catch up, longer each round it does not.
    if (deleted.length > 0) backoff = options.backoffMs ?? 2_000;
    if (started === 0 && errors === 0 && deleted.length > 0) continue;
    await sleep(backoff);
    if (deleted.length === 0) backoff = Math.min(backoff * 2, maxBackoff);
  }
}
