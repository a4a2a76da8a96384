import { renderPlan } from '../../src/targets/dry-run-target';
import type { TaskPlan } from '../../src/tasks/task-plan';
import { FakeTask } from '../tasks/fake-task';

describe('renderPlan', () => {
  it('prints one sorted line per task: create, update with each field, unchanged; then the counts', () => {
    const plan: TaskPlan = {
      hasChanges: true,
      entries: [
        { task: new FakeTask('zeta'), action: 'none', actual: 1, changes: [] },
        {
          task: new FakeTask('beta'),
          action: 'update',
          actual: 1,
          changes: [
            { field: 'tags.team', from: 'infra', to: 'platform' },
            { field: 'enableDnsHostnames', from: undefined, to: true },
          ],
        },
        { task: new FakeTask('alpha'), action: 'create', actual: undefined, changes: [{ field: 'value', from: undefined, to: 1 }] },
      ],
    };
    const text = renderPlan(plan);
    expect(text).toBe(
      [
        '+ create Fake/alpha',
        '~ update Fake/beta: tags.team: "infra" -> "platform", enableDnsHostnames: (unset) -> true',
        '= unchanged Fake/zeta',
        '1 to create, 1 to update, 1 unchanged',
        '',
      ].join('\n'),
    );
    expect(renderPlan({ ...plan, entries: [...plan.entries].reverse() })).toBe(text);
  });

  it('says "No changes" when nothing differs', () => {
    expect(renderPlan({ hasChanges: false, entries: [{ task: new FakeTask('a'), action: 'none', actual: 1, changes: [] }] })).toBe('= unchanged Fake/a\nNo changes (1 resources)\n');
  });
});
