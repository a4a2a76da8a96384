import type { ApiCallCounter } from './api-call-counter';

/**
 * The one-line summary a command that called AWS ends with: `AWS API: 42 calls (3 throttled, 1 retried) in
 * 4.2 s`; with `verbose`, one more line per operation, sorted by name.
 */
export function formatCallSummary(calls: ApiCallCounter, elapsedMs: number, verbose = false): string {
  const line = `AWS API: ${calls.calls} calls (${calls.throttled} throttled, ${calls.attempts - calls.calls} retried) in ${(elapsedMs / 1000).toFixed(1)} s`;
  if (!verbose) return line;
  return [line, ...Object.entries(calls.snapshot()).map(([op, n]) => `  ${op}: ${n}`)].join('\n');
}
