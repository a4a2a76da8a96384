import { Lifecycle, lifecycleApplies, lifecycleOfKind } from './lifecycle';
import { LifecycleCheckError, LifecycleProblem } from './lifecycle-check-error';
import { describeChanges, missingHeldDependencies, planWithLifecycle } from './plan-with-lifecycle';
import { AnyTask, Change, taskKey } from './task';
import { TaskFailedError } from './task-failed-error';
import { TaskGraph } from './task-graph';
import type { PlannedTask, TaskPlan, TaskWarning } from './task-plan';

/** How the executor runs tasks. */
export interface TaskExecutorOptions {
  /** Tasks running at once. Default 4: enough to overlap round trips, few enough not to be throttled. */
  concurrency?: number;
  /** Attempts per task and phase, the first included. Default 5. */
  maxAttempts?: number;
  /** Delay before the first retry; doubles each time. Default 500 ms. */
  backoffMs?: number;
  /** Whether an error is worth retrying (throttling, eventual consistency); others fail the run at once. */
  isRetryable?: (error: unknown) => boolean;
  /** Called before a task is retried, so cached cloud state can be dropped and the task finds afresh. */
  beforeRetry?: (task: AnyTask) => void;
  /** The API family a task calls (e.g. `ec2`, `iam`), for `familyConcurrency`. Default: one family for all. */
  familyOf?: (task: AnyTask) => string;
  /** Tasks of one family running at once, by family; a family not listed is bounded by `concurrency` only. */
  familyConcurrency?: Readonly<Record<string, number>>;
  /** Time a task may spend retrying, from its first attempt; once past it, the next failure is final. Default: no limit but `maxAttempts`. */
  taskDeadlineMs?: number;
  /** Lifecycles by task kind (`--lifecycle-overrides`); a kind not listed is Sync. See lifecycle.ts. */
  lifecycles?: Readonly<Record<string, Lifecycle>>;
  /** Whether an error means the caller may not make the call (the cloud's classifier); WarnIfInsufficientAccess turns those into warnings. Default: none does. */
  isAccessDenied?: (error: unknown) => boolean;
  /**
   * The cluster lock's fence, awaited before every apply attempt of a task (first ones and retries): once it
   * rejects (the lock was lost), no task starts or retries, running ones finish, and the run rejects with its error.
   */
  fence?: () => Promise<void>;
  /** Progress events, e.g. for a progress line or a log. */
  onEvent?: (event: { type: 'start' | 'done' | 'retry'; phase: 'find' | 'apply'; task: string; attempt: number; error?: unknown }) => void;
}

/**
 * Runs tasks in dependency order with bounded parallelism: `plan` finds every task and diffs it, `apply`
 * creates and updates what the plan says. A retryable error is retried with backoff, finding the task's
 * actual state again first (a create whose answer was lost is then found, not made twice); any other
 * error stops the run: running tasks finish, nothing new starts, and a TaskFailedError names the task.
 */
export class TaskExecutor<C> {
  private readonly graph: TaskGraph<C>;
  private readonly concurrency: number;
  private readonly maxAttempts: number;
  private readonly backoffMs: number;
  private readonly warned: TaskWarning[] = [];

  constructor(
    private readonly cloud: C,
    tasks: readonly AnyTask<C>[] | TaskGraph<C>,
    private readonly options: TaskExecutorOptions = {},
  ) {
    this.graph = tasks instanceof TaskGraph ? tasks : new TaskGraph<C>(tasks);
    this.concurrency = Math.max(1, options.concurrency ?? 4);
    this.maxAttempts = Math.max(1, options.maxAttempts ?? 5);
    this.backoffMs = options.backoffMs ?? 500;
  }

  /**
   * Finds every task (dependencies first, so that their outputs are known), diffs and checks it, under its
   * lifecycle. Tasks whose lifecycle is not met (a resource that must exist and does not, …) fail the plan
   * with a LifecycleCheckError once every task was found, so all of them are named and nothing is applied.
   */
  async plan(): Promise<TaskPlan<C>> {
    const byTask = new Map<AnyTask<C>, PlannedTask<C>>();
    const problems: LifecycleProblem[] = [];
    const warnings: TaskWarning[] = [];
    await this.run('find', async (task) => {
      const lifecycle = this.lifecycleOf(task);
      let actual: unknown;
      let denied: string | undefined;
      try {
        actual = await task.find(this.cloud);
      } catch (error) {
        // A resource the user told us to leave alone, or to warn about when we may not read it: a refusal to
        // read it is theirs to know about, not a reason to stop. Access denied is never retryable, so this is final.
        if (!(lifecycle === 'Ignore' || lifecycle === 'WarnIfInsufficientAccess') || !this.options.isAccessDenied?.(error)) throw error;
        denied = error instanceof Error ? error.message : String(error);
      }
      const changes = denied === undefined ? task.diff(actual) : [];
      const planned = planWithLifecycle(task, lifecycle, actual, changes, denied);
      // Only what will be applied is checked: a held difference is never made, so it cannot be refused.
      if (planned.entry.action !== 'none' && changes.length > 0) task.check(actual, changes);
      byTask.set(task, planned.entry);
      if (planned.warning) warnings.push(planned.warning);
      if (planned.problem) problems.push(planned.problem);
    });
    const entries = this.graph.order().map((t) => byTask.get(t) as PlannedTask<C>);
    problems.push(...missingHeldDependencies(entries, (t) => this.graph.dependenciesOf(t)));
    if (problems.length > 0) throw new LifecycleCheckError(problems.sort((a, b) => cmp(a.task, b.task) || cmp(a.problem, b.problem)));
    const sorted = warnings.sort((a, b) => cmp(a.task, b.task));
    this.warned.push(...sorted);
    return { entries, hasChanges: entries.some((e) => e.action !== 'none'), ...(sorted.length > 0 ? { warnings: sorted } : {}) };
  }

  /**
   * Applies a plan made by this executor; tasks without changes only pass their outputs on, tasks their
   * lifecycle holds are never applied (a difference that appears only now, from an output of this run, is a warning).
   */
  async apply(plan: TaskPlan<C>): Promise<void> {
    const byTask = new Map(plan.entries.map((e) => [e.task, e]));
    await this.run('apply', async (task, attempt) => {
      const entry = byTask.get(task);
      if (!entry) throw new Error(`${taskKey(task)} is not in the plan`);
      const lifecycle = this.lifecycleOf(task);
      if (entry.held === 'unchecked') return;
      let actual = entry.actual;
      // The last attempt may have worked without us hearing of it: look again before acting.
      if (attempt > 1) actual = await task.find(this.cloud);
      // Diff again even on the first attempt (no API call): a dependency made in this run has set outputs
      // the plan could not know, e.g. the id of a new VPC that an existing gateway must be attached to.
      const changes: Change[] = task.diff(actual);
      if (!lifecycleApplies(lifecycle)) {
        const fresh = changes.filter((c) => !entry.changes.some((p) => p.field === c.field));
        if (actual !== undefined && fresh.length > 0) this.warn({ task: taskKey(task), lifecycle, message: `now differs from the model; left as it is: ${describeChanges(fresh)}` });
        return;
      }
      if (changes.length > 0) task.check(actual, changes);
      if (changes.length === 0 && actual !== undefined) return;
      try {
        await task.apply(this.cloud, actual, changes);
      } catch (error) {
        if (lifecycle !== 'WarnIfInsufficientAccess' || !this.options.isAccessDenied?.(error)) throw error;
        const reason = error instanceof Error ? error.message : String(error);
        this.warn({ task: taskKey(task), lifecycle, message: `could not be ${actual === undefined ? 'created' : 'changed'} (${reason}); left as it is` });
      }
    });
  }

  /** Everything the lifecycles let pass in this executor's plan and apply so far, sorted by task. */
  get warnings(): readonly TaskWarning[] {
    return [...this.warned].sort((a, b) => cmp(a.task, b.task));
  }

  private lifecycleOf(task: AnyTask<C>): Lifecycle {
    return lifecycleOfKind(this.options.lifecycles, task.kind);
  }

  private warn(w: TaskWarning): void {
    this.warned.push(w);
  }

  /** Runs `fn` for every task once its dependencies are done, at most `concurrency` at a time; a lost lock's error wins over the task's. */
  private async run(phase: 'find' | 'apply', fn: (task: AnyTask<C>, attempt: number) => Promise<void>): Promise<void> {
    try {
      await this.runTasks(phase, fn);
    } catch (e) {
      await this.options.fence?.();
      throw e;
    }
  }

  private runTasks(phase: 'find' | 'apply', fn: (task: AnyTask<C>, attempt: number) => Promise<void>): Promise<void> {
    const waiting = new Map(this.graph.tasks.map((t) => [t, this.graph.dependenciesOf(t).length]));
    const ready = this.graph.tasks.filter((t) => waiting.get(t) === 0);
    const finished = new Set<AnyTask<C>>();
    let running = 0;
    const perFamily = new Map<string, number>();
    const family = (t: AnyTask<C>): string => this.options.familyOf?.(t) ?? '';
    // The first ready task whose family has room; tasks of a busy family wait without blocking the others.
    const nextReady = (): AnyTask<C> | undefined => {
      const i = ready.findIndex((t) => (perFamily.get(family(t)) ?? 0) < (this.options.familyConcurrency?.[family(t)] ?? Infinity));
      return i < 0 ? undefined : ready.splice(i, 1)[0];
    };
    let failure: { task: AnyTask<C>; error: unknown; attempts: number } | undefined;
    return new Promise<void>((resolve, reject) => {
      const pump = (): void => {
        while (!failure && running < this.concurrency) {
          const task = nextReady();
          if (!task) break;
          running++;
          perFamily.set(family(task), (perFamily.get(family(task)) ?? 0) + 1);
          void this.attempt(phase, task, fn).then(
            () => {
              finished.add(task);
              for (const d of this.graph.dependantsOf(task)) {
                const left = (waiting.get(d) ?? 0) - 1;
                waiting.set(d, left);
                if (left === 0) ready.push(d);
              }
            },
            (f: { error: unknown; attempts: number }) => {
              failure ??= { task, ...f };
            },
          ).finally(() => {
            running--;
            perFamily.set(family(task), (perFamily.get(family(task)) ?? 1) - 1);
            pump();
          });
        }
        if (running > 0) return;
        if (failure) {
          const notRun = this.graph.tasks.filter((t) => !finished.has(t) && t !== failure?.task).map(taskKey);
          reject(new TaskFailedError(taskKey(failure.task), phase, failure.error, failure.attempts, notRun));
        } else {
          resolve();
        }
      };
      pump();
    });
  }

  /** One task with retries; rejects with the last error and the number of attempts made. */
  private async attempt(phase: 'find' | 'apply', task: AnyTask<C>, fn: (task: AnyTask<C>, attempt: number) => Promise<void>): Promise<void> {
    const emit = this.options.onEvent;
    const deadline = this.options.taskDeadlineMs === undefined ? Infinity : Date.now() + this.options.taskDeadlineMs;
    for (let attempt = 1; ; attempt++) {
      try {
        if (phase === 'apply') await this.options.fence?.();
      } catch (error) {
        throw { error, attempts: attempt - 1 };
      }
      emit?.({ type: 'start', phase, task: taskKey(task), attempt });
      try {
        await fn(task, attempt);
        emit?.({ type: 'done', phase, task: taskKey(task), attempt });
        return;
      } catch (error) {
        const retryable = this.options.isRetryable?.(error) ?? false;
        if (!retryable || attempt >= this.maxAttempts || Date.now() >= deadline) throw { error, attempts: attempt };
        emit?.({ type: 'retry', phase, task: taskKey(task), attempt, error });
        await new Promise((r) => setTimeout(r, this.backoffMs * 2 ** (attempt - 1)));
        this.options.beforeRetry?.(task);
      }
    }
  }
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
