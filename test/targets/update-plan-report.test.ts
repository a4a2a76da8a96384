import type { ManagedFilesPlan } from '../../src/ops/plan-managed-files';
import { renderUpdatePlan, updatePlanReport } from '../../src/targets/update-plan-report';
import type { TaskPlan } from '../../src/tasks/task-plan';
import { FakeTask } from '../tasks/fake-task';

const managed = (files: ManagedFilesPlan['files'], keysetsToCreate: string[] = []): ManagedFilesPlan =>
  ({ cluster: 'c.example.com', keysetsToCreate, files, nodeupConfigHashes: {}, completed: {} as ManagedFilesPlan['completed'], hasChanges: true }) as ManagedFilesPlan;

describe('the update plan', () => {
  const cloud: TaskPlan = {
    hasChanges: true,
    entries: [
      { task: new FakeTask('zeta'), action: 'none', actual: 1, changes: [] },
      { task: new FakeTask('beta'), action: 'update', actual: 1, changes: [{ field: 'instanceType', from: 't3.medium', to: 't3.large' }, { field: 'tags.team', from: undefined, to: 'infra' }] },
      { task: new FakeTask('alpha'), action: 'create', actual: undefined, changes: [] },
    ],
  };
  const files = managed(
    [
      { path: 'c.example.com/igconfig/node/nodes/nodeupconfig.yaml', action: 'update', diff: '@@ -1 +1 @@\n-  maxPods: 50\n+  maxPods: 60\n' },
      { path: 'c.example.com/cluster-completed.spec', action: 'none' },
      { path: 'c.example.com/igconfig/node/gone/nodeupconfig.yaml', action: 'delete', diff: '-3 lines' },
    ],
    ['kubernetes-ca'],
  );

  it('prints kops’s sections, grouped by type and sorted; fields as old -> new; files as their changed lines', () => {
    expect(renderUpdatePlan(updatePlanReport('c.example.com', cloud, files))).toBe(
      [
        'Will create resources:',
        '  Fake',
        '    alpha',
        '  Keypair',
        '    kubernetes-ca',
        '',
        'Will modify resources:',
        '  Fake',
        '    beta',
        '      instanceType  "t3.medium" -> "t3.large"',
        '      tags.team     (unset) -> "infra"',
        '  ManagedFile',
        '    c.example.com/igconfig/node/nodes/nodeupconfig.yaml',
        '      @@ -1 +1 @@',
        '      -  maxPods: 50',
        '      +  maxPods: 60',
        '',
        'Will delete resources:',
        '  ManagedFile',
        '    c.example.com/igconfig/node/gone/nodeupconfig.yaml',
        '',
        '2 to create, 2 to modify, 1 to delete, 2 unchanged',
        '',
      ].join('\n'),
    );
  });

  it('is the same bytes for the same plan in any order, and its JSON shape is stable', () => {
    const reversed = { ...cloud, entries: [...cloud.entries].reverse() };
    const a = updatePlanReport('c.example.com', cloud, files);
    expect(updatePlanReport('c.example.com', reversed, managed([...files.files].reverse(), files.keysetsToCreate))).toEqual(a);
    expect(Object.keys(a)).toEqual(['cluster', 'hasChanges', 'resources', 'summary']);
    expect(a.resources.find((r) => r.name === 'beta')).toEqual({ type: 'Fake', name: 'beta', action: 'update', changes: [{ field: 'instanceType', from: 't3.medium', to: 't3.large' }, { field: 'tags.team', to: 'infra' }] });
    expect(a.summary).toEqual({ create: 2, update: 2, delete: 1, unchanged: 2 });
  });

  it('says "No changes" when nothing differs', () => {
    const none: TaskPlan = { hasChanges: false, entries: [{ task: new FakeTask('a'), action: 'none', actual: 1, changes: [] }] };
    expect(renderUpdatePlan(updatePlanReport('c.example.com', none, managed([{ path: 'c.example.com/cluster-completed.spec', action: 'none' }])))).toBe(
      'No changes: cluster "c.example.com" is up to date (2 resources)\n',
    );
  });

  it('lists names that match more than one resource after "No changes", and in the JSON as `duplicates`', () => {
    const none: TaskPlan = { hasChanges: false, entries: [{ task: new FakeTask('a'), action: 'none', actual: 1, changes: [] }] };
    const duplicates = [
      { type: 'EBSVolume', name: 'a.etcd-main.c.example.com', ids: ['vol-1', 'vol-2', 'vol-3'], used: 'vol-1' },
      { type: 'RouteTable', name: 'c.example.com', ids: ['rtb-1', 'rtb-2'], used: 'rtb-1' },
    ];
    const report = updatePlanReport('c.example.com', none, managed([]), [], [], [], duplicates);
    expect(report.hasChanges).toBe(false);
    expect(report.duplicates).toEqual(duplicates);
    expect(renderUpdatePlan(report)).toBe(
      [
        'No changes: cluster "c.example.com" is up to date (1 resources)',
        '',
        'Warning: names that match more than one resource of the cluster (update uses the first and leaves the others alone):',
        '  EBSVolume',
        '    a.etcd-main.c.example.com: vol-1 (used), vol-2, vol-3',
        '  RouteTable',
        '    c.example.com: rtb-1 (used), rtb-2',
        '',
      ].join('\n'),
    );
    expect(Object.keys(updatePlanReport('c.example.com', none, managed([])))).not.toContain('duplicates');
  });
});
