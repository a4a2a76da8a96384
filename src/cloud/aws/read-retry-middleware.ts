import type { CountableClient } from './api-call-counter';
import { isReadOnlyOperation } from './api-call-counter';
import { isTransientAwsError } from './aws-errors';
import { REAL_CLOCK, RetryBudget, RetryClock, withRetryBudget } from '../retry-budget';

/**
 * The budget of one read: 3 attempts, 0.2 s then 0.4 s apart, each the SDK's own (with its retries). Reads
 * are made outside the task executor too (listing a cluster for `delete`, finding orphans, `validate`),
 * whose callers retry a whole listing: one throttled Describe among twenty used to fail the listing's
 * attempt, and a few such attempts the command. Retrying the call itself is always safe; the budget stays
 * small because the callers' own retries come on top.
 */
export const READ_RETRY_BUDGET: Readonly<RetryBudget> = { maxAttempts: 3, firstDelayMs: 200, deadlineMs: 60_000 };

// STS GetCallerIdentity is the credentials check, which has its own attempts and names their count.
const OWN_RETRIES = new Set(['GetCallerIdentity']);

/**
 * Installs a middleware that sends a read (Describe*, Get*, List*) again after a transient failure
 * (throttling, a 5xx, a dropped connection, a lost answer), each attempt being the SDK's own (with its
 * retries). The credentials check retries itself. Mutating calls are left to the task executor, which knows whether resending is safe; a read's
 * other errors (NotFound, AccessDenied) are thrown at once.
 */
export function installReadRetries(client: CountableClient, budget: Readonly<RetryBudget> = READ_RETRY_BUDGET, clock: RetryClock = REAL_CLOCK): void {
  client.middlewareStack.add(
    (next: (args: unknown) => Promise<unknown>, context: { commandName?: string }) => (args: unknown) => {
      const op = context.commandName?.replace(/Command$/, '') ?? '';
      if (!isReadOnlyOperation(op) || OWN_RETRIES.has(op)) return next(args);
      return withRetryBudget(() => next(args), isTransientAwsError, (last) => last.error, budget, clock);
    },
    // Below the call counter (a retried read counts once), above the SDK's retry middleware.
    { step: 'initialize', name: 'kforgeReadRetries', priority: 'low' },
  );
}
