import { KforgeError } from '../errors/kforge-error';

/** Up to this many tasks that did not run are named in the message; more are counted by kind. */
const NAMED_NOT_RUN = 5;

/** A task failed for good (a hard error, or retries used up); names it, its cause, and what did not run. */
export class TaskFailedError extends KforgeError {
  constructor(
    readonly taskKey: string,
    readonly phase: 'find' | 'apply',
    override readonly cause: unknown,
    readonly attempts: number,
    readonly notRun: readonly string[],
  ) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    const tries = attempts > 1 ? ` after ${attempts} attempts` : '';
    super('TASK_FAILED', `${taskKey}: ${phase} failed${tries}: ${reason}${notRunSummary(notRun)}`);
  }

  /** Every task that did not run, one `Kind/name` a line, sorted: what `--verbose` adds below the message. */
  override get details(): string[] {
    return this.notRun.length > NAMED_NOT_RUN ? [`not run (${this.notRun.length}):`, ...[...this.notRun].sort().map((k) => `  ${k}`)] : [];
  }
}

/**
 * A few tasks that did not run are named; many (a failure early in a big cluster's apply leaves ~80) are
 * counted by kind, `not run: 79 tasks (6 AutoScalingGroup, 12 SecurityGroupRule, …)`, and --verbose lists them.
 */
function notRunSummary(notRun: readonly string[]): string {
  if (notRun.length === 0) return '';
  if (notRun.length <= NAMED_NOT_RUN) return `; not run: ${notRun.join(', ')}`;
  const byKind = new Map<string, number>();
  for (const key of notRun) {
    const kind = key.slice(0, key.indexOf('/'));
    byKind.set(kind, (byKind.get(kind) ?? 0) + 1);
  }
  const kinds = [...byKind].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([kind, n]) => `${n} ${kind}`);
  return `; not run: ${notRun.length} tasks (${kinds.join(', ')}); --verbose lists them`;
}
