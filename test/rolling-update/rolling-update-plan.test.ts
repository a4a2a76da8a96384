import type { Cluster, InstanceGroup } from '../../src/api/types';
import type { CloudInstanceGroup } from '../../src/cloud/aws/cloud-instance-groups';
import { renderRollingUpdateTable } from '../../src/rolling-update/render-rolling-update-table';
import { planRollingUpdate } from '../../src/rolling-update/rolling-update-plan';
import { resolveRollingUpdate } from '../../src/rolling-update/rolling-update-settings';

// The pure parts of a rolling update: kops's settings (pkg/instancegroups/settings.go) and the plan.

const cluster = (rollingUpdate?: Record<string, unknown>, cloudProvider = 'aws'): Cluster =>
  ({ apiVersion: 'kops.k8s.io/v1alpha2', kind: 'Cluster', metadata: { name: 'c.example.com' }, spec: { cloudProvider, ...(rollingUpdate ? { rollingUpdate } : {}) } }) as unknown as Cluster;
const ig = (name: string, role: string, rollingUpdate?: Record<string, unknown>): InstanceGroup =>
  ({ apiVersion: 'kops.k8s.io/v1alpha2', kind: 'InstanceGroup', metadata: { name }, spec: { role, ...(rollingUpdate ? { rollingUpdate } : {}) } }) as unknown as InstanceGroup;

test("kops's defaults: maxSurge 1 on AWS (0 elsewhere), maxUnavailable 1 only without a surge", () => {
  expect(resolveRollingUpdate(cluster(), ig('nodes', 'Node'), 4)).toEqual({ maxSurge: 1, maxUnavailable: 0, drainAndTerminate: true });
  expect(resolveRollingUpdate(cluster(undefined, 'gce'), ig('nodes', 'Node'), 4)).toEqual({ maxSurge: 0, maxUnavailable: 1, drainAndTerminate: true });
  expect(resolveRollingUpdate(cluster(), ig('nodes', 'Node', { maxSurge: 0 }), 4)).toEqual({ maxSurge: 0, maxUnavailable: 1, drainAndTerminate: true });
});

test('the group overrides the cluster, field by field; percentages round surge up and unavailability down, at least 1', () => {
  const c = cluster({ maxSurge: 3, maxUnavailable: 2, drainAndTerminate: false });
  expect(resolveRollingUpdate(c, ig('nodes', 'Node', { maxSurge: 2 }), 4)).toEqual({ maxSurge: 2, maxUnavailable: 2, drainAndTerminate: false });
  expect(resolveRollingUpdate(cluster(), ig('nodes', 'Node', { maxSurge: '30%', maxUnavailable: '30%' }), 5)).toEqual({ maxSurge: 2, maxUnavailable: 1, drainAndTerminate: true });
  expect(resolveRollingUpdate(cluster(), ig('nodes', 'Node', { maxSurge: 0, maxUnavailable: '10%' }), 3)).toEqual({ maxSurge: 0, maxUnavailable: 1, drainAndTerminate: true });
});

test('the control plane never surges and goes one machine at a time, whatever the cluster default says', () => {
  expect(resolveRollingUpdate(cluster({ maxSurge: 2 }), ig('cp', 'ControlPlane'), 3)).toEqual({ maxSurge: 0, maxUnavailable: 1, drainAndTerminate: true });
  expect(resolveRollingUpdate(cluster(), ig('cp', 'Master'), 3)).toEqual({ maxSurge: 0, maxUnavailable: 1, drainAndTerminate: true });
});

test('the plan orders bastions, control plane, then nodes; a needs-update annotation and detached instances need an update', () => {
  const group = (asgName: string, instances: CloudInstanceGroup['instances']): CloudInstanceGroup => ({ asgName, minSize: 2, maxSize: 3, desired: 2, currentVersion: 'lt:2', instances });
  const cloud = new Map([
    ['nodes.c.example.com', group('nodes.c.example.com', [
      { id: 'i-1', launchedFrom: 'lt:2', state: 'InService', detached: false, needsUpdate: false },
      { id: 'i-2', launchedFrom: 'lt:2', state: 'InService', detached: false, needsUpdate: false },
      { id: 'i-3', state: 'Detached', detached: true, needsUpdate: true },
    ])],
    ['cp.c.example.com', group('cp.c.example.com', [{ id: 'i-9', launchedFrom: 'lt:1', state: 'InService', detached: false, needsUpdate: true }])],
  ]);
  const nodes = [
    { name: 'n1', instanceId: 'i-1', ready: true, unschedulable: false, needsUpdate: true },
    { name: 'n2', instanceId: 'i-2', ready: true, unschedulable: false, needsUpdate: false },
  ];
  const plan = planRollingUpdate(cluster(), [ig('nodes', 'Node'), ig('cp', 'ControlPlane'), ig('bastions', 'Bastion')], cloud, nodes);
  expect(plan.map((g) => [g.name, g.needUpdate.map((i) => i.id), g.ready.map((i) => i.id)])).toEqual([
    ['bastions', [], []],
    ['cp', ['i-9'], []],
    ['nodes', ['i-1', 'i-3'], ['i-2']],
  ]);
  expect(renderRollingUpdateTable(plan)).toBe(
    [
      'NAME       STATUS        NEEDUPDATE   READY   MIN   TARGET   MAX   NODES',
      'bastions   Missing       0            0       0     0        0     0',
      'cp         NeedsUpdate   1            0       2     2        3     0',
      'nodes      NeedsUpdate   2            1       2     2        3     2',
      '',
    ].join('\n'),
  );
  expect(planRollingUpdate(cluster(), [ig('nodes', 'Node'), ig('cp', 'ControlPlane')], cloud, nodes, { roles: ['Master'] }).map((g) => g.name)).toEqual(['cp']);
});
