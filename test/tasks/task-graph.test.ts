import { DependencyCycleError } from '../../src/tasks/dependency-cycle-error';
import { TaskGraph } from '../../src/tasks/task-graph';
import { FakeTask } from './fake-task';

describe('TaskGraph', () => {
  it('orders dependencies first, ties by key', () => {
    const vpc = new FakeTask('vpc');
    const a = new FakeTask('subnet-a');
    const b = new FakeTask('subnet-b');
    const rt = new FakeTask('route-table');
    a.deps = [vpc];
    b.deps = [vpc];
    rt.deps = [b, a, vpc];
    const order = new TaskGraph([rt, b, a, vpc]).order().map((t) => t.name);
    expect(order).toEqual(['vpc', 'subnet-a', 'subnet-b', 'route-table']);
  });

  it('names the cycle, as a path that closes on itself', () => {
    const a = new FakeTask('a');
    const b = new FakeTask('b');
    const c = new FakeTask('c');
    const free = new FakeTask('free');
    a.deps = [b];
    b.deps = [c];
    c.deps = [a];
    let error: unknown;
    try {
      new TaskGraph([free, a, b, c]);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(DependencyCycleError);
    expect((error as DependencyCycleError).code).toBe('DEPENDENCY_CYCLE');
    expect((error as DependencyCycleError).cycle).toEqual(['Fake/a', 'Fake/b', 'Fake/c', 'Fake/a']);
    expect((error as Error).message).toBe('tasks depend on each other in a cycle: Fake/a -> Fake/b -> Fake/c -> Fake/a');
  });

  it('refuses a self-dependency, a duplicate name and a dependency outside the run', () => {
    const a = new FakeTask('a');
    a.deps = [a];
    expect(() => new TaskGraph([a])).toThrow('Fake/a -> Fake/a');
    expect(() => new TaskGraph([new FakeTask('x'), new FakeTask('x')])).toThrow(/two tasks are named Fake\/x/);
    const b = new FakeTask('b');
    b.deps = [new FakeTask('ghost')];
    expect(() => new TaskGraph([b])).toThrow(/Fake\/b depends on Fake\/ghost, which is not one of the tasks/);
  });
});
