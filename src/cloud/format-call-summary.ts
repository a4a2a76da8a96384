import type { CallCounter } from './cloud-provider';

/**
 * The one-line summary of a command's AWS calls, e.g. `AWS API: 42 calls (3 throttled, 1 retried) in 4.2 s`;
 * with `byOperation`, followed by one indented line per operation, sorted by name (`  DescribeVpcs 1`).
 */
export function formatCallSummary(calls: CallCounter, elapsedMs: number, byOperation = false): string {
  const line = `${calls.api ?? 'AWS'} API: ${calls.calls} calls (${calls.throttled} throttled, ${Math.max(0, calls.attempts - calls.calls)} retried) in ${(elapsedMs / 1000).toFixed(1)} s`;
  if (!byOperation) return line;
  return [line, ...Object.entries(calls.snapshot()).map(([op, n]) => `  ${op} ${n}`)].join('\n');
}
