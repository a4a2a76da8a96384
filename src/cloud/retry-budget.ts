/** How often, how patiently and for how long a call the cloud answered "busy" is tried again. */
export interface RetryBudget {
  /** Attempts, the first included. */
  maxAttempts: number;
  /** Delay before the first retry; it doubles for each one after. */
  firstDelayMs: number;
  /** Time from the first attempt after which the next failure is final. */
  deadlineMs: number;
}

/**
 * The budget of kforge's cloud calls, which the cloud tasks and the state store share: 8 attempts, waiting
 * 0.5 s, then 1, 2, 4, 8, 16 and 32 s (63.5 s of waiting), within 3 minutes. A throttling storm of about a
 * minute is ridden out; a longer one fails with the operation named. Each attempt is itself the SDK's
 * (up to 3 requests with its own short backoff).
 */
export const CLOUD_RETRY_BUDGET: Readonly<RetryBudget> = { maxAttempts: 8, firstDelayMs: 500, deadlineMs: 180_000 };

/** The time source and the wait of a retry loop; tests pass their own to exhaust a budget at once. */
export interface RetryClock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

/** The wall clock and a real timer. */
export const REAL_CLOCK: RetryClock = { now: () => Date.now(), sleep: (ms) => new Promise((r) => setTimeout(r, ms)) };

/** How the last attempt ended when a budget ran out. */
export interface RetriesExhausted {
  error: unknown;
  attempts: number;
  elapsedMs: number;
}

/**
 * Runs `fn` until it succeeds, fails with an error `isRetryable` refuses (thrown as it is), or the budget
 * runs out: then the error `giveUp` makes of the last failure is thrown.
 */
export async function withRetryBudget<T>(
  fn: () => Promise<T>,
  isRetryable: (error: unknown) => boolean,
  giveUp: (last: RetriesExhausted) => unknown,
  budget: Readonly<RetryBudget> = CLOUD_RETRY_BUDGET,
  clock: RetryClock = REAL_CLOCK,
): Promise<T> {
  const start = clock.now();
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn();
    } catch (error) {
      if (!isRetryable(error)) throw error;
      const elapsedMs = clock.now() - start;
      const delay = budget.firstDelayMs * 2 ** (attempt - 1);
      // A retry that could only start after the deadline is not made.
      if (attempt >= budget.maxAttempts || elapsedMs + delay > budget.deadlineMs) throw giveUp({ error, attempts: attempt, elapsedMs });
      await clock.sleep(delay);
    }
  }
}

/**
 * The budget KFORGE_TEST_STORE_RETRY sets, `<attempts>/<first delay ms>` (e.g. `3/10`), so that tests can
 * exhaust the store's budget in milliseconds; undefined when unset or malformed. Not for users.
 */
export function testRetryBudget(env: NodeJS.ProcessEnv): RetryBudget | undefined {
  const m = /^(\d+)\/(\d+)$/.exec(env.KFORGE_TEST_STORE_RETRY ?? '');
  if (!m || Number(m[1]) < 1) return undefined;
  return { maxAttempts: Number(m[1]), firstDelayMs: Number(m[2]), deadlineMs: CLOUD_RETRY_BUDGET.deadlineMs };
}
