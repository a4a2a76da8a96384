import { KforgeError } from '../errors/kforge-error';

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
    const rest = notRun.length ? `; not run: ${notRun.join(', ')}` : '';
    super('TASK_FAILED', `${taskKey}: ${phase} failed${tries}: ${reason}${rest}`);
  }
}
