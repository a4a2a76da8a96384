import { KforgeError } from '../errors/kforge-error';

/** One task that fails its lifecycle: `Kind/name` and what is wrong. */
export interface LifecycleProblem {
  task: string;
  problem: string;
}

/**
 * The plan found tasks that their lifecycle override does not allow (a resource that must exist and does
 * not, one that must match and differs, one to create that needs an ignored resource that does not exist).
 * Raised after every task was found and before anything is applied, listing every problem at once.
 */
export class LifecycleCheckError extends KforgeError {
  constructor(readonly problems: readonly LifecycleProblem[]) {
    const lines = problems.map((p) => `  ${p.task}: ${p.problem}`);
    const n = problems.length;
    super('LIFECYCLE_CHECK_FAILED', `--lifecycle-overrides: ${n} ${n === 1 ? 'resource fails its' : 'resources fail their'} lifecycle; nothing was changed:\n${lines.join('\n')}`);
  }
}
