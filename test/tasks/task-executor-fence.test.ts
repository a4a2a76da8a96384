import { LockLostError } from '../../src/errors/lock-lost-error';
import { TaskExecutor } from '../../src/tasks/task-executor';
import { FakeTask, fakeCloud } from './fake-task';

describe('TaskExecutor with a lock fence', () => {
  it('once the fence rejects, starts no task and retries none; the running ones finish; apply rejects with the fence error', async () => {
    const cloud = fakeCloud();
    const lost = new LockLostError('lost the cluster lock of "c" to someone');
    let held = true;
    // The fence is lost while the first wave runs: a (slow) and b run, c waits for a, d waits for c.
    const a = new FakeTask('a', 1, 50);
    const b = Object.assign(new FakeTask('b', 1, 5), { failures: 1 });
    const c = Object.assign(new FakeTask('c'), { deps: [a] });
    const d = Object.assign(new FakeTask('d'), { deps: [c] });
    const started: string[] = [];
    const executor = new TaskExecutor(cloud, [a, b, c, d], {
      backoffMs: 20,
      isRetryable: (e) => (e as { retryable?: boolean }).retryable === true,
      fence: async () => {
        if (!held) throw lost;
      },
      onEvent: (e) => {
        if (e.type === 'start' && e.phase === 'apply') started.push(`${e.task}#${e.attempt}`);
        // b's first attempt failed (retryable): the lock is lost before its retry.
        if (e.type === 'retry') held = false;
      },
    });
    const plan = await executor.plan();
    await expect(executor.apply(plan)).rejects.toBe(lost);
    expect(started.sort()).toEqual(['Fake/a#1', 'Fake/b#1']);
    // a was running when the lock was lost: it finished. b was not retried, c and d never started.
    expect(cloud.log).toEqual(['a']);
    expect([a.applyCalls, b.applyCalls, c.applyCalls, d.applyCalls]).toEqual([1, 1, 0, 0]);
  });

  it('a task that fails because the fence refused one of its calls ends the run with the fence error, not a task failure', async () => {
    const cloud = fakeCloud();
    const lost = new LockLostError('lost');
    let held = true;
    const a = Object.assign(new FakeTask('a'), { failures: 1, failWith: lost });
    const b = Object.assign(new FakeTask('b'), { deps: [a] });
    const executor = new TaskExecutor(cloud, [a, b], {
      fence: async () => {
        if (!held) throw lost;
      },
    });
    const plan = await executor.plan();
    held = false;
    // The fence is not consulted by plan; apply finds it lost before the first task.
    await expect(executor.apply(plan)).rejects.toBe(lost);
    expect(a.applyCalls + b.applyCalls).toBe(0);
    held = true;
    const failing = new TaskExecutor(cloud, [a, b], { fence: async () => (a.applyCalls > 0 ? Promise.reject(lost) : undefined) });
    await expect(failing.apply(await failing.plan())).rejects.toBe(lost);
    expect([a.applyCalls, b.applyCalls]).toEqual([1, 0]);
  });
});
