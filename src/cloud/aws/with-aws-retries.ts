import { isRetryableAwsError } from './aws-errors';

/**
 * Runs `fn` again after a retryable AWS error (throttling, 5xx, a dropped connection), up to `attempts`
 * times with doubling delays: for the reads a command makes outside the task executor (the preflight),
 * which retries its tasks itself. Other errors, and the last attempt's, are thrown as they are.
 */
export async function withAwsRetries<T>(fn: () => Promise<T>, attempts = 5, firstDelayMs = 250): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn();
    } catch (e) {
      if (attempt >= attempts || !isRetryableAwsError(e)) throw e;
      await new Promise((r) => setTimeout(r, firstDelayMs * 2 ** (attempt - 1)));
    }
  }
}
