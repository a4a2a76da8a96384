import { DependencyCycleError } from './dependency-cycle-error';
import { AnyTask, taskKey } from './task';

/** The tasks of a run and their dependency edges, checked: unique keys, no unknown dependency, no cycle. */
export class TaskGraph<C = unknown> {
  /** Every task, sorted by key so that runs are deterministic. */
  readonly tasks: readonly AnyTask<C>[];
  private readonly deps = new Map<AnyTask<C>, AnyTask<C>[]>();
  private readonly dependants = new Map<AnyTask<C>, AnyTask<C>[]>();

  constructor(tasks: readonly AnyTask<C>[]) {
    const byKey = new Map<string, AnyTask<C>>();
    for (const t of tasks) {
      const key = taskKey(t);
      if (byKey.has(key)) throw new Error(`two tasks are named ${key}: model builders must name each resource once`);
      byKey.set(key, t);
    }
    this.tasks = [...tasks].sort((a, b) => compare(taskKey(a), taskKey(b)));
    for (const t of this.tasks) this.dependants.set(t, []);
    for (const t of this.tasks) {
      const deps = ([...new Set(t.dependencies())] as AnyTask<C>[]).sort((a, b) => compare(taskKey(a), taskKey(b)));
      for (const d of deps) {
        if (byKey.get(taskKey(d)) !== d) throw new Error(`${taskKey(t)} depends on ${taskKey(d)}, which is not one of the tasks of this run`);
        this.dependants.get(d)?.push(t);
      }
      this.deps.set(t, deps);
    }
    const cycle = this.findCycle();
    if (cycle) throw new DependencyCycleError(cycle.map(taskKey));
  }

  /** The tasks `task` needs. */
  dependenciesOf(task: AnyTask<C>): readonly AnyTask<C>[] {
    return this.deps.get(task) ?? [];
  }

  /** The tasks that need `task`. */
  dependantsOf(task: AnyTask<C>): readonly AnyTask<C>[] {
    return this.dependants.get(task) ?? [];
  }

  /** A topological order (dependencies first), ties broken by key. */
  order(): AnyTask<C>[] {
    const out: AnyTask<C>[] = [];
    const done = new Set<AnyTask<C>>();
    const visit = (t: AnyTask<C>): void => {
      if (done.has(t)) return;
      done.add(t);
      for (const d of this.dependenciesOf(t)) visit(d);
      out.push(t);
    };
    for (const t of this.tasks) visit(t);
    return out;
  }

  /** Depth-first search with colours; returns the first cycle as a path that starts and ends on the same task. */
  private findCycle(): AnyTask<C>[] | undefined {
    const state = new Map<AnyTask<C>, 'open' | 'closed'>();
    const stack: AnyTask<C>[] = [];
    const visit = (t: AnyTask<C>): AnyTask<C>[] | undefined => {
      const s = state.get(t);
      if (s === 'closed') return undefined;
      if (s === 'open') return [...stack.slice(stack.indexOf(t)), t];
      state.set(t, 'open');
      stack.push(t);
      for (const d of this.dependenciesOf(t)) {
        const found = visit(d);
        if (found) return found;
      }
      stack.pop();
      state.set(t, 'closed');
      return undefined;
    };
    for (const t of this.tasks) {
      const found = visit(t);
      if (found) return found;
    }
    return undefined;
  }
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
