import { GceCloud } from '../../../src/cloud/gce/gce-cloud';
import { GceNetworkTask } from '../../../src/cloud/gce/tasks/gce-network-task';
import { newCluster } from '../../../src/create/new-cluster';
import { buildGceTasks } from '../../../src/model/gce/gce-model-builder';
import { GceInstanceTemplateTask } from '../../../src/cloud/gce/tasks/gce-instance-template-task';
import { completeCluster } from '../../../src/ops/expand-cluster';
import { ChangeRefusedError } from '../../../src/tasks/change-refused-error';
import { TaskGraph } from '../../../src/tasks/task-graph';

/** A GCE cluster as `create cluster --cloud gce` makes it, completed. */
function gceCluster(machineType?: string) {
  const made = newCluster({ name: 'g.example.com', zones: ['us-central1-a', 'us-central1-b', 'us-central1-c'], cloud: 'gce', nodeCount: 3, controlPlaneCount: 3 });
  made.cluster.spec.project = 'p';
  if (machineType) for (const ig of made.instanceGroups) if (ig.spec.role === 'Node') ig.spec.machineType = machineType;
  return { cluster: completeCluster(made.cluster, made.instanceGroups, 'memfs://t'), instanceGroups: made.instanceGroups };
}

describe('GCE tasks', () => {
  it('form a valid graph: names unique per kind, dependencies inside the run, no cycle (three-zone HA)', () => {
    const { cluster, instanceGroups } = gceCluster();
    expect(() => new TaskGraph(buildGceTasks(cluster, instanceGroups))).not.toThrow();
  });

  it('an instance template is content-named: a machine-type change gives the node template a new name, the others keep theirs', () => {
    const names = (machineType?: string) => {
      const { cluster, instanceGroups } = gceCluster(machineType);
      return Object.fromEntries(buildGceTasks(cluster, instanceGroups).filter((t): t is GceInstanceTemplateTask => t instanceof GceInstanceTemplateTask).map((t) => [t.name, t.templateName()]));
    };
    const before = names();
    const after = names('e2-standard-8');
    const changed = Object.keys(before).filter((k) => before[k] !== after[k]);
    expect(changed.length).toBeGreaterThan(0);
    expect(changed.every((k) => k.startsWith('nodes'))).toBe(true);
    expect(names()).toEqual(before);
  });

  it('diff compares only what is desired, and check refuses an immutable field with CHANGE_REFUSED', () => {
    const net = new GceNetworkTask('n', { mode: 'custom', shared: false });
    expect(net.diff({ mode: 'custom', shared: false })).toEqual([]);
    const changes = net.diff({ mode: 'auto', shared: false });
    expect(changes).toEqual([{ field: 'mode', from: 'auto', to: 'custom' }]);
    expect(() => net.check({ mode: 'auto', shared: false }, changes)).toThrow(ChangeRefusedError);
    expect(() => net.check(undefined, net.diff(undefined))).not.toThrow();
  });

  it('a connection made for the Terraform target has no Compute client: find fails before any call', async () => {
    const net = new GceNetworkTask('n', { mode: 'custom', shared: false });
    const cloud = new GceCloud('c', 'p', 'r');
    await expect(net.find(cloud)).rejects.toThrow(/no Compute client/);
    expect(cloud.calls.calls).toBe(0);
  });
});
