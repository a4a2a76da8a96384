import { TaskExecutor } from '../../src/tasks/task-executor';
import { TaskFailedError } from '../../src/tasks/task-failed-error';
import { FakeTask, fakeCloud } from './fake-task';

const retryable = (e: unknown): boolean => (e as { retryable?: boolean }).retryable === true;

describe('TaskExecutor', () => {
  it('plans creates, applies dependencies first, then plans nothing', async () => {
    const cloud = fakeCloud();
    const vpc = new FakeTask('vpc', 1, 20);
    const subnets = ['a', 'b', 'c'].map((z) => Object.assign(new FakeTask(`subnet-${z}`), { deps: [vpc] }));
    const rt = Object.assign(new FakeTask('rt'), { deps: [...subnets] });
    const tasks = [rt, ...subnets, vpc];
    const first = await new TaskExecutor(cloud, tasks).plan();
    expect(first.hasChanges).toBe(true);
    expect(first.entries.map((e) => `${e.task.name}:${e.action}`)).toEqual(['vpc:create', 'subnet-a:create', 'subnet-b:create', 'subnet-c:create', 'rt:create']);
    await new TaskExecutor(cloud, tasks).apply(first);
    expect(cloud.log[0]).toBe('vpc');
    expect(cloud.log[4]).toBe('rt');
    const again = await new TaskExecutor(cloud, tasks).plan();
    expect(again.hasChanges).toBe(false);
    expect(again.entries.every((e) => e.action === 'none')).toBe(true);
  });

  it('shows an update with the field change, and applies nothing when nothing changed', async () => {
    const cloud = fakeCloud();
    cloud.existing.set('x', 1);
    const x = new FakeTask('x', 2);
    const y = new FakeTask('y', 1);
    cloud.existing.set('y', 1);
    const ex = new TaskExecutor(cloud, [x, y]);
    const plan = await ex.plan();
    expect(plan.entries.map((e) => [e.task.name, e.action, e.changes])).toEqual([
      ['x', 'update', [{ field: 'value', from: 1, to: 2 }]],
      ['y', 'none', []],
    ]);
    await ex.apply(plan);
    expect(x.applyCalls).toBe(1);
    expect(y.applyCalls).toBe(0);
  });

  it('never runs more tasks at once than the bound', async () => {
    const cloud = fakeCloud();
    const tasks = Array.from({ length: 20 }, (_, i) => new FakeTask(`t${String(i).padStart(2, '0')}`, 1, 15));
    const ex = new TaskExecutor(cloud, tasks, { concurrency: 3 });
    await ex.apply(await ex.plan());
    expect(cloud.log).toHaveLength(20);
    expect(cloud.maxRunning).toBe(3);
  });

  it('bounds each API family on its own, without holding back the other families', async () => {
    const cloud = fakeCloud();
    const iam = Array.from({ length: 6 }, (_, i) => new FakeTask(`iam${i}`, 1, 15));
    const ec2 = Array.from({ length: 6 }, (_, i) => new FakeTask(`ec2${i}`, 1, 15));
    let iamRunning = 0;
    let iamMax = 0;
    for (const t of iam) {
      const apply = t.apply.bind(t);
      t.apply = async (c) => {
        iamMax = Math.max(iamMax, ++iamRunning);
        try {
          await apply(c);
        } finally {
          iamRunning--;
        }
      };
    }
    const ex = new TaskExecutor(cloud, [...iam, ...ec2], { concurrency: 4, familyOf: (t) => t.name.replace(/\d+$/, ''), familyConcurrency: { iam: 1 } });
    await ex.apply(await ex.plan());
    expect(cloud.log).toHaveLength(12);
    expect(iamMax).toBe(1);
    // The EC2 tasks filled the other slots while IAM ran one at a time.
    expect(cloud.maxRunning).toBe(4);
  });

  it('stops retrying a task once its deadline has passed', async () => {
    const cloud = fakeCloud();
    const slow = Object.assign(new FakeTask('slow', 1, 30), { failures: 10 });
    const ex = new TaskExecutor(cloud, [slow], { isRetryable: retryable, backoffMs: 1, maxAttempts: 10, taskDeadlineMs: 50 });
    const error = await ex.apply(await ex.plan()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TaskFailedError);
    expect(slow.applyCalls).toBeLessThan(10);
    expect(slow.applyCalls).toBeGreaterThanOrEqual(2);
  });

  it('retries a retryable error with backoff, up to the bound, finding again before each retry', async () => {
    const cloud = fakeCloud();
    const flaky = Object.assign(new FakeTask('flaky'), { failures: 2 });
    const refinds: string[] = [];
    const ex = new TaskExecutor(cloud, [flaky], { isRetryable: retryable, backoffMs: 1, maxAttempts: 3, beforeRetry: (t) => refinds.push(t.name) });
    await ex.apply(await ex.plan());
    expect(flaky.applyCalls).toBe(3);
    expect(refinds).toEqual(['flaky', 'flaky']);

    const hopeless = Object.assign(new FakeTask('hopeless'), { failures: 10 });
    const ex2 = new TaskExecutor(cloud, [hopeless], { isRetryable: retryable, backoffMs: 1, maxAttempts: 3 });
    const error = await ex2.apply(await ex2.plan()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TaskFailedError);
    expect((error as Error).message).toBe('Fake/hopeless: apply failed after 3 attempts: throttled');
    expect(hopeless.applyCalls).toBe(3);
  });

  it('stops at the first hard error, naming the task and what did not run', async () => {
    const cloud = fakeCloud();
    const vpc = Object.assign(new FakeTask('vpc'), { failures: 1, failWith: new Error('InvalidParameterValue') });
    const subnet = Object.assign(new FakeTask('subnet'), { deps: [vpc] });
    const other = new FakeTask('other', 1, 30);
    const ex = new TaskExecutor(cloud, [vpc, subnet, other], { isRetryable: retryable, backoffMs: 1 });
    const error = (await ex.apply(await ex.plan()).catch((e: unknown) => e)) as TaskFailedError;
    expect(error).toBeInstanceOf(TaskFailedError);
    expect(error.code).toBe('TASK_FAILED');
    expect(error.taskKey).toBe('Fake/vpc');
    expect(error.attempts).toBe(1);
    expect(error.notRun).toEqual(['Fake/subnet']);
    expect(error.message).toBe('Fake/vpc: apply failed: InvalidParameterValue; not run: Fake/subnet');
    // The task already running when the failure came was allowed to finish; the dependant never started.
    expect(cloud.log).toEqual(['other']);
    expect(subnet.applyCalls).toBe(0);
  });

  it('counts many tasks that did not run by kind in the message, and lists them all in details (--verbose)', async () => {
    const cloud = fakeCloud();
    const vpc = Object.assign(new FakeTask('vpc'), { failures: 1, failWith: new Error('InvalidParameterValue') });
    const dependant = (kind: string, name: string) => Object.assign(new FakeTask(name), { kind, deps: [vpc] });
    const subnets = ['c', 'a', 'b'].map((z) => dependant('Subnet', `subnet-${z}`));
    const rules = Array.from({ length: 12 }, (_, i) => dependant('SecurityGroupRule', `rule-${String(i).padStart(2, '0')}`));
    const asgs = [dependant('AutoScalingGroup', 'nodes'), dependant('AutoScalingGroup', 'control-plane')];
    const ex = new TaskExecutor(cloud, [vpc, ...subnets, ...rules, ...asgs], { isRetryable: retryable, backoffMs: 1 });
    const error = (await ex.apply(await ex.plan()).catch((e: unknown) => e)) as TaskFailedError;
    expect(error).toBeInstanceOf(TaskFailedError);
    expect(error.notRun).toHaveLength(17);
    expect(error.message).toBe('Fake/vpc: apply failed: InvalidParameterValue; not run: 17 tasks (2 AutoScalingGroup, 12 SecurityGroupRule, 3 Subnet); --verbose lists them');
    expect(error.details).toEqual([
      'not run (17):',
      '  AutoScalingGroup/control-plane',
      '  AutoScalingGroup/nodes',
      ...rules.map((r) => `  SecurityGroupRule/${r.name}`),
      '  Subnet/subnet-a',
      '  Subnet/subnet-b',
      '  Subnet/subnet-c',
    ]);
  });
});

describe('TaskExecutor outputs', () => {
  it('diffs a dependant again at apply time, once the outputs of a dependency created in the run are known', async () => {
    const cloud = fakeCloud();
    // "gateway" exists but points at a "vpc" that is gone; the plan cannot know the new VPC's value.
    cloud.existing.set('gateway', 0);
    const vpc = new FakeTask('vpc', 7);
    const gateway = new (class extends FakeTask {
      override diff(actual: number | undefined) {
        const want = cloud.existing.get('vpc');
        return actual === undefined || (want !== undefined && actual !== want) ? [{ field: 'vpc', from: actual, to: want }] : [];
      }
      override async apply(c: typeof cloud): Promise<void> {
        this.applyCalls++;
        c.existing.set('gateway', c.existing.get('vpc') ?? -1);
      }
    })('gateway');
    gateway.deps = [vpc];
    const ex = new TaskExecutor(cloud, [vpc, gateway]);
    const plan = await ex.plan();
    expect(plan.entries.map((e) => `${e.task.name}:${e.action}`)).toEqual(['vpc:create', 'gateway:none']);
    await ex.apply(plan);
    expect(gateway.applyCalls).toBe(1);
    expect(cloud.existing.get('gateway')).toBe(7);
  });
});
