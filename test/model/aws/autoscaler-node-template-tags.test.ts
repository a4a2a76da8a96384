import { AutoScalingGroupTask } from '../../../src/cloud/aws/tasks/auto-scaling-group-task';
import { caseTasks, TERRAFORM_CASES } from '../../targets/terraform/terraform-case';

// Issue 22 §3: the cluster autoscaler scales a group up from zero by reading the node's labels and taints
// from the group's tags, as kops writes them (CloudTagsForInstanceGroup).

const LABEL = 'k8s.io/cluster-autoscaler/node-template/label/';
const TAINT = 'k8s.io/cluster-autoscaler/node-template/taint/';
const minimal = TERRAFORM_CASES.find(([n]) => n === 'minimal')?.[1] as (typeof TERRAFORM_CASES)[number][1];

function groupTags(edit: Parameters<typeof caseTasks>[1]): Map<string, Record<string, string>> {
  const asgs = caseTasks(minimal, edit).tasks.filter((t): t is AutoScalingGroupTask => t instanceof AutoScalingGroupTask);
  return new Map(asgs.map((a) => [a.name, a.desired.tags]));
}

describe('cluster-autoscaler node-template tags', () => {
  it("tag each group with the labels kubelet registers and the group's taints, as value:effect", () => {
    const tags = groupTags(({ instanceGroups }) => {
      const nodes = instanceGroups.find((ig) => ig.spec.role === 'Node');
      if (!nodes) throw new Error('no node group');
      nodes.spec.nodeLabels = { 'example.com/pool': 'blue' };
      nodes.spec.taints = ['dedicated=gpu:NoSchedule', 'nvidia.com/gpu:NoExecute'];
    });
    const node = tags.get('nodes-us-east-1a.minimal.example.com') as Record<string, string>;
    expect(node[`${LABEL}example.com/pool`]).toBe('blue');
    expect(node[`${LABEL}node-role.kubernetes.io/node`]).toBe('');
    expect(node[`${LABEL}kops.k8s.io/instancegroup`]).toBe('nodes-us-east-1a');
    expect(node[`${TAINT}dedicated`]).toBe('gpu:NoSchedule');
    expect(node[`${TAINT}nvidia.com/gpu`]).toBe(':NoExecute');
    const cp = tags.get('control-plane-us-east-1a.minimal.example.com') as Record<string, string>;
    expect(cp[`${LABEL}node-role.kubernetes.io/control-plane`]).toBe('');
    // kops leaves kubelet's own control-plane taint out of the tags; so does kforge.
    expect(Object.keys(cp).filter((k) => k.startsWith(TAINT))).toEqual([]);
  });

  it("the group's nodeLabels win over kops.k8s.io/instancegroup and the role label, as in kops's BuildNodeLabels", () => {
    const tags = groupTags(({ instanceGroups }) => {
      const nodes = instanceGroups.find((ig) => ig.spec.role === 'Node');
      if (!nodes) throw new Error('no node group');
      nodes.spec.nodeLabels = { 'kops.k8s.io/instancegroup': 'pool-a', 'node-role.kubernetes.io/node': 'worker' };
    });
    const node = tags.get('nodes-us-east-1a.minimal.example.com') as Record<string, string>;
    expect(node[`${LABEL}kops.k8s.io/instancegroup`]).toBe('pool-a');
    expect(node[`${LABEL}node-role.kubernetes.io/node`]).toBe('worker');
  });

  it('change when the labels or taints change (a field that is used)', () => {
    const before = groupTags(() => {});
    const after = groupTags(({ instanceGroups }) => {
      for (const ig of instanceGroups) if (ig.spec.role === 'Node') ig.spec.taints = ['a=b:PreferNoSchedule'];
    });
    expect(after).not.toEqual(before);
  });
});
