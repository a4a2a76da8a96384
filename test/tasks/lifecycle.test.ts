import { LifecycleCheckError } from '../../src/tasks/lifecycle-check-error';
import { TaskExecutor, TaskExecutorOptions } from '../../src/tasks/task-executor';
import type { Change, Task } from '../../src/tasks/task';
import { TaskFailedError } from '../../src/tasks/task-failed-error';
import { TaskOutput } from '../../src/tasks/task-output';
import { TerraformNotSupportedError } from '../../src/tasks/terraform-not-supported-error';
import { FakeCloud, FakeTask, fakeCloud } from './fake-task';

// The engine's lifecycles (kops's fi.Lifecycle) with fake tasks: what is found, planned, applied, warned about.

const denied = (): Error => Object.assign(new Error('AccessDenied: not allowed'), { denied: true });
const isAccessDenied = (e: unknown): boolean => (e as { denied?: boolean }).denied === true;

function task(kind: string, name: string, value = 1, deps: FakeTask[] = []): FakeTask {
  return Object.assign(new FakeTask(name, value, 1), { kind, deps });
}

function executor(cloud: FakeCloud, tasks: FakeTask[], lifecycles: TaskExecutorOptions['lifecycles']): TaskExecutor<FakeCloud> {
  return new TaskExecutor(cloud, tasks, { lifecycles, isAccessDenied, backoffMs: 1 });
}

async function planError(ex: TaskExecutor<FakeCloud>): Promise<LifecycleCheckError> {
  const error = await ex.plan().catch((e: unknown) => e);
  expect(error).toBeInstanceOf(LifecycleCheckError);
  return error as LifecycleCheckError;
}

describe('lifecycles in the task engine', () => {
  it('Sync (no override) plans and applies as always', async () => {
    const cloud = fakeCloud();
    const ex = executor(cloud, [task('Role', 'r')], {});
    const plan = await ex.plan();
    expect(plan.entries.map((e) => [e.action, e.lifecycle, e.held])).toEqual([['create', undefined, undefined]]);
    expect(plan.warnings).toBeUndefined();
    await ex.apply(plan);
    expect(cloud.log).toEqual(['r']);
  });

  it('Ignore: a missing resource is not created, a different one not changed, and neither counts as a change', async () => {
    const cloud = fakeCloud();
    cloud.existing.set('rule-b', 5);
    const a = task('Rule', 'rule-a');
    const b = task('Rule', 'rule-b', 1);
    const other = task('Vpc', 'vpc');
    const ex = executor(cloud, [a, b, other], { Rule: 'Ignore' });
    const plan = await ex.plan();
    const byName = Object.fromEntries(plan.entries.map((e) => [e.task.name, e]));
    expect(byName['rule-a']).toMatchObject({ action: 'none', lifecycle: 'Ignore', held: 'create' });
    expect(byName['rule-b']).toMatchObject({ action: 'none', lifecycle: 'Ignore', held: 'update', changes: [{ field: 'value', from: 5, to: 1 }] });
    expect(plan.hasChanges).toBe(true);
    await ex.apply(plan);
    expect(cloud.log).toEqual(['vpc']);
    expect(a.applyCalls + b.applyCalls).toBe(0);
    expect(cloud.existing.get('rule-b')).toBe(5);
    expect(ex.warnings).toEqual([]);

    const only = await executor(cloud, [a, b], { Rule: 'Ignore' }).plan();
    expect(only.hasChanges).toBe(false);
  });

  it('Ignore: an existing resource is still found, so its dependants are made; a missing one fails the plan of a dependant to create', async () => {
    const cloud = fakeCloud();
    cloud.existing.set('vpc', 1);
    const vpc = task('Vpc', 'vpc');
    const subnet = task('Subnet', 'subnet', 1, [vpc]);
    const ex = executor(cloud, [vpc, subnet], { Vpc: 'Ignore' });
    await ex.apply(await ex.plan());
    expect(cloud.log).toEqual(['subnet']);

    const empty = fakeCloud();
    const error = await planError(executor(empty, [vpc, subnet], { Vpc: 'Ignore' }));
    expect(error.code).toBe('LIFECYCLE_CHECK_FAILED');
    expect(error.problems).toEqual([{ task: 'Subnet/subnet', problem: 'would be created but needs Vpc/vpc, which does not exist and Vpc=Ignore leaves alone' }]);
    expect(empty.log).toEqual([]);
  });

  it('ExistsAndValidates: every missing or different resource is named at once, before anything is applied', async () => {
    const cloud = fakeCloud();
    cloud.existing.set('r2', 7);
    cloud.existing.set('r3', 1);
    const tasks = [task('Role', 'r1'), task('Role', 'r2'), task('Role', 'r3'), task('Vpc', 'vpc')];
    const error = await planError(executor(cloud, tasks, { Role: 'ExistsAndValidates' }));
    expect(error.problems).toEqual([
      { task: 'Role/r1', problem: 'does not exist; Role=ExistsAndValidates requires it to exist' },
      { task: 'Role/r2', problem: 'differs from the model (Role=ExistsAndValidates): value: 7 -> 1' },
    ]);
    expect(error.message).toContain('2 resources fail their lifecycle; nothing was changed');
    expect(cloud.log).toEqual([]);

    cloud.existing.set('r1', 1);
    cloud.existing.set('r2', 1);
    const ex = executor(cloud, tasks, { Role: 'ExistsAndValidates' });
    const plan = await ex.plan();
    expect(plan.entries.filter((e) => e.task.kind === 'Role').map((e) => [e.action, e.lifecycle, e.held])).toEqual([
      ['none', 'ExistsAndValidates', undefined],
      ['none', 'ExistsAndValidates', undefined],
      ['none', 'ExistsAndValidates', undefined],
    ]);
    await ex.apply(plan);
    expect(cloud.log).toEqual(['vpc']);
  });

  it('ExistsAndWarnIfChanges: missing fails before any change; different is a warning and left as it is', async () => {
    const cloud = fakeCloud();
    const roles = [task('Role', 'masters'), task('Role', 'nodes')];
    const policy = task('Policy', 'p', 1, [roles[0] as FakeTask]);
    const tasks = [...roles, policy, task('Vpc', 'vpc')];
    const error = await planError(executor(cloud, tasks, { Role: 'ExistsAndWarnIfChanges' }));
    expect(error.problems.map((p) => p.task)).toEqual(['Role/masters', 'Role/nodes']);
    expect(error.problems[0]?.problem).toBe('does not exist; Role=ExistsAndWarnIfChanges requires it to exist');
    expect(cloud.log).toEqual([]);

    cloud.existing.set('masters', 9);
    cloud.existing.set('nodes', 1);
    const ex = executor(cloud, tasks, { Role: 'ExistsAndWarnIfChanges' });
    const plan = await ex.plan();
    expect(plan.warnings).toEqual([{ task: 'Role/masters', lifecycle: 'ExistsAndWarnIfChanges', message: 'differs from the model; left as it is: value: 9 -> 1' }]);
    expect(plan.entries[0]).toMatchObject({ action: 'none', held: 'update' });
    await ex.apply(plan);
    expect(cloud.existing.get('masters')).toBe(9);
    expect(cloud.log.sort()).toEqual(['p', 'vpc']);
    expect(ex.warnings).toEqual(plan.warnings);
  });

  it('WarnIfInsufficientAccess: a denied find or apply is a warning, other errors still fail, and Sync never tolerates a denial', async () => {
    const cloud = fakeCloud();
    const unreadable = Object.assign(task('Role', 'unreadable'), { findError: denied() });
    const unwritable = Object.assign(task('Role', 'unwritable'), { failures: 1, failWith: denied() });
    const vpc = task('Vpc', 'vpc');
    const ex = executor(cloud, [unreadable, unwritable, vpc], { Role: 'WarnIfInsufficientAccess' });
    const plan = await ex.plan();
    expect(plan.entries.find((e) => e.task === unreadable)).toMatchObject({ action: 'none', held: 'unchecked', lifecycle: 'WarnIfInsufficientAccess' });
    expect(plan.entries.find((e) => e.task === unwritable)).toMatchObject({ action: 'create', lifecycle: 'WarnIfInsufficientAccess' });
    await ex.apply(plan);
    expect(cloud.log).toEqual(['vpc']);
    expect(ex.warnings).toEqual([
      { task: 'Role/unreadable', lifecycle: 'WarnIfInsufficientAccess', message: 'could not be read (AccessDenied: not allowed); assumed to be as wanted and left alone' },
      { task: 'Role/unwritable', lifecycle: 'WarnIfInsufficientAccess', message: 'could not be created (AccessDenied: not allowed); left as it is' },
    ]);

    const broken = Object.assign(task('Role', 'broken'), { failures: 1, failWith: new Error('boom') });
    const failing = executor(fakeCloud(), [broken], { Role: 'WarnIfInsufficientAccess' });
    await expect(failing.apply(await failing.plan())).rejects.toBeInstanceOf(TaskFailedError);

    const sync = executor(fakeCloud(), [Object.assign(task('Role', 'r'), { findError: denied() })], {});
    await expect(sync.plan()).rejects.toBeInstanceOf(TaskFailedError);
  });

  it('Ignore tolerates a denied find (with a warning); ExistsAndValidates does not', async () => {
    const ignored = executor(fakeCloud(), [Object.assign(task('Rule', 'r'), { findError: denied() })], { Rule: 'Ignore' });
    const plan = await ignored.plan();
    expect(plan.entries[0]).toMatchObject({ action: 'none', held: 'unchecked' });
    expect(plan.warnings?.map((w) => w.task)).toEqual(['Rule/r']);

    const strict = executor(fakeCloud(), [Object.assign(task('Rule', 'r'), { findError: denied() })], { Rule: 'ExistsAndValidates' });
    await expect(strict.plan()).rejects.toBeInstanceOf(TaskFailedError);
  });

  it('a held resource that differs only once a dependency made in this run has its id is warned about at apply, never changed', async () => {
    // A gateway that exists, attached to nothing the plan could compare with: the VPC is created by this run.
    const cloud = fakeCloud();
    cloud.existing.set('gw', 0);
    const vpc = Object.assign(new FakeTask('vpc', 42, 1), { kind: 'Vpc' });
    const vpcId = new TaskOutput<number>('Vpc/vpc id');
    const applyVpc = vpc.apply.bind(vpc);
    vpc.apply = async (c: FakeCloud): Promise<void> => {
      await applyVpc(c);
      vpcId.set(42);
    };
    let gatewayApplies = 0;
    const gateway: Task<FakeCloud, number> = {
      kind: 'Gateway',
      name: 'gw',
      dependencies: () => [vpc],
      find: async (c) => c.existing.get('gw'),
      diff: (actual): Change[] => (vpcId.peek() === undefined || actual === vpcId.peek() ? [] : [{ field: 'vpcId', from: actual, to: vpcId.peek() }]),
      check: () => undefined,
      apply: async () => {
        gatewayApplies++;
      },
      renderTerraform: () => {
        throw new TerraformNotSupportedError('Gateway');
      },
    };
    const ex = new TaskExecutor(cloud, [vpc, gateway], { lifecycles: { Gateway: 'ExistsAndWarnIfChanges' } });
    const plan = await ex.plan();
    expect(plan.warnings).toBeUndefined();
    await ex.apply(plan);
    expect(gatewayApplies).toBe(0);
    expect(ex.warnings).toEqual([{ task: 'Gateway/gw', lifecycle: 'ExistsAndWarnIfChanges', message: 'now differs from the model; left as it is: vpcId: 0 -> 42' }]);
  });
});
