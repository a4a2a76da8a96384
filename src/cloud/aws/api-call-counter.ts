import { classifyAwsError } from './aws-errors';

/** The part of an SDK v3 client the counter needs: its middleware stack. */
export interface CountableClient {
  middlewareStack: {
    // The SDK's overloads per step do not unify; each caller passes a middleware valid for its step.
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    add: (...args: any[]) => void;
  };
}

// Operations that only read; everything else counts as mutating.
const READ_ONLY = /^(Describe|Get|List)/;

/**
 * Counts the API calls of a run, per operation, through a middleware on each SDK client: `calls` counts
 * operations once, `attempts` counts HTTP requests including the SDK's retries. Tests assert on it; a
 * command can print it as its one-line summary.
 */
export class ApiCallCounter {
  /** Operations per name, e.g. `DescribeVpcs` → 1. */
  readonly byOperation = new Map<string, number>();
  /** Operations made (a retried operation counts once). */
  calls = 0;
  /** HTTP requests made, retries included. */
  attempts = 0;
  /** Requests the cloud throttled. */
  throttled = 0;
  /** Operations that change something. */
  mutating = 0;

  /** Installs the counting middleware on an SDK client. */
  attach(client: CountableClient): void {
    client.middlewareStack.add(
      (next: (args: unknown) => Promise<unknown>, context: { commandName?: string }) => async (args: unknown) => {
        const op = context.commandName?.replace(/Command$/, '') ?? 'unknown';
        this.calls++;
        this.byOperation.set(op, (this.byOperation.get(op) ?? 0) + 1);
        if (!READ_ONLY.test(op)) this.mutating++;
        return next(args);
      },
      { step: 'initialize', name: 'kforgeCountCalls', priority: 'high' },
    );
    // Below the deserializer: counts every HTTP request the SDK's retries make.
    client.middlewareStack.add(
      (next: (args: unknown) => Promise<unknown>) => async (args: unknown) => {
        this.attempts++;
        return next(args);
      },
      { step: 'deserialize', name: 'kforgeCountAttempts', priority: 'low' },
    );
    // Above the deserializer, still inside the retry loop: only there has an error answer become the SDK
    // error whose code (RequestLimitExceeded, Throttling, SlowDown) says it was throttled; below it, an
    // error answer is a plain HTTP response, so a storm of throttling was once counted as 0.
    client.middlewareStack.add(
      (next: (args: unknown) => Promise<unknown>) => async (args: unknown) => {
        try {
          return await next(args);
        } catch (e) {
          if (classifyAwsError(e) === 'throttled') this.throttled++;
          throw e;
        }
      },
      { step: 'deserialize', name: 'kforgeCountThrottled', priority: 'high' },
    );
  }

  /** The operations called, sorted, e.g. `{ DescribeVpcs: 1 }`. */
  snapshot(): Record<string, number> {
    return Object.fromEntries([...this.byOperation].sort(([a], [b]) => (a < b ? -1 : 1)));
  }

  /** Forgets everything counted so far. */
  reset(): void {
    this.byOperation.clear();
    this.calls = this.attempts = this.throttled = this.mutating = 0;
  }

  /** One line for the end of a command: `12 API calls (0 throttled, 0 retried)`. */
  summary(): string {
    return `${this.calls} API calls (${this.throttled} throttled, ${this.attempts - this.calls} retried)`;
  }
}
