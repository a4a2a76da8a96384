import type { ManagedFilesPlan } from '../../src/ops/plan-managed-files';
import { renderUpdatePlan, updatePlanReport } from '../../src/targets/update-plan-report';
import type { TaskPlan } from '../../src/tasks/task-plan';
import { FakeTask } from '../tasks/fake-task';

// How the update plan shows what --lifecycle-overrides holds back: honestly, and never as a change.

const unchangedFiles = { cluster: 'c.example.com', keysetsToCreate: [], files: [], nodeupConfigHashes: {}, completed: {}, hasChanges: false } as unknown as ManagedFilesPlan;
const role = (name: string): FakeTask => Object.assign(new FakeTask(name), { kind: 'IAMRole' });

const warnings = [{ task: 'IAMRole/masters', lifecycle: 'ExistsAndWarnIfChanges' as const, message: 'differs from the model; left as it is: value: 9 -> 1' }];
const held: TaskPlan = {
  hasChanges: true,
  entries: [
    { task: role('masters'), action: 'none', actual: 9, changes: [{ field: 'value', from: 9, to: 1 }], lifecycle: 'ExistsAndWarnIfChanges', held: 'update' },
    { task: role('nodes'), action: 'none', actual: 1, changes: [], lifecycle: 'ExistsAndWarnIfChanges' },
    { task: Object.assign(new FakeTask('from-nodes'), { kind: 'SecurityGroupRule' }), action: 'none', actual: undefined, changes: [], lifecycle: 'Ignore', held: 'create' },
    { task: Object.assign(new FakeTask('unreadable'), { kind: 'IAMInstanceProfile' }), action: 'none', actual: undefined, changes: [], lifecycle: 'WarnIfInsufficientAccess', held: 'unchecked' },
    { task: new FakeTask('vpc'), action: 'create', actual: undefined, changes: [] },
  ],
  warnings,
};

describe('the update plan with lifecycle overrides', () => {
  it('lists held resources in their own section with lifecycle and reason, and counts them apart', () => {
    expect(renderUpdatePlan(updatePlanReport('c.example.com', held, unchangedFiles))).toBe(
      [
        'Will create resources:',
        '  Fake',
        '    vpc',
        '',
        'Will not modify resources (lifecycle overrides):',
        '  IAMInstanceProfile',
        '    unreadable  (WarnIfInsufficientAccess: could not be read, left alone)',
        '  IAMRole',
        '    masters  (ExistsAndWarnIfChanges: differs, not changed)',
        '      value  9 -> 1',
        '  SecurityGroupRule',
        '    from-nodes  (Ignore: does not exist, not created)',
        '',
        '1 to create, 0 to modify, 0 to delete, 1 unchanged, 3 not modified (lifecycle overrides)',
        '',
      ].join('\n'),
    );
  });

  it('has no changes (so --detailed-exitcode exits 0) when only held resources differ, and says what it holds', () => {
    const onlyHeld: TaskPlan = { ...held, entries: held.entries.slice(0, 3), hasChanges: false };
    const report = updatePlanReport('c.example.com', onlyHeld, unchangedFiles);
    expect(report.hasChanges).toBe(false);
    expect(renderUpdatePlan(report)).toBe(
      [
        'Will not modify resources (lifecycle overrides):',
        '  IAMRole',
        '    masters  (ExistsAndWarnIfChanges: differs, not changed)',
        '      value  9 -> 1',
        '  SecurityGroupRule',
        '    from-nodes  (Ignore: does not exist, not created)',
        '',
        'No changes to apply: cluster "c.example.com" (1 unchanged, 2 not modified (lifecycle overrides))',
        '',
      ].join('\n'),
    );
  });

  it('in JSON: action none, with lifecycle, held and the differences left; the warnings; the summary keeps its keys', () => {
    const report = updatePlanReport('c.example.com', held, unchangedFiles);
    expect(report.resources.filter((r) => r.type === 'IAMRole')).toEqual([
      { type: 'IAMRole', name: 'masters', action: 'none', changes: [{ field: 'value', from: 9, to: 1 }], lifecycle: 'ExistsAndWarnIfChanges', held: 'update' },
      { type: 'IAMRole', name: 'nodes', action: 'none', lifecycle: 'ExistsAndWarnIfChanges' },
    ]);
    expect(report.summary).toEqual({ create: 1, update: 0, delete: 0, unchanged: 1 });
    expect(report.warnings).toEqual(warnings);
    expect(updatePlanReport('c.example.com', { ...held, warnings: undefined }, unchangedFiles)).not.toHaveProperty('warnings');
  });
});
