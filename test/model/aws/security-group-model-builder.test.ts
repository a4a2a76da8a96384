import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Cluster } from '../../../src/api/types';
import { SecurityGroupRuleTask } from '../../../src/cloud/aws/tasks/security-group-rule-task';
import { newCluster } from '../../../src/create/new-cluster';
import { buildNetworkTasks } from '../../../src/model/aws/network-model-builder';
import { buildSecurityGroupTasks } from '../../../src/model/aws/security-group-model-builder';
import { completeCluster } from '../../../src/ops/expand-cluster';

function cluster(networking: string, edit: (c: Cluster) => void = () => {}): Cluster {
  const { cluster: c, instanceGroups } = newCluster({ name: 'sg.example.com', zones: ['us-east-1a'], networking, cloud: 'aws' });
  const completed = completeCluster(c, instanceGroups, 'memfs://store');
  edit(completed);
  return completed;
}

/** The rules as `group <- peer protocol from-to`, sorted. */
function rules(c: Cluster): string[] {
  const { tasks } = buildSecurityGroupTasks(c, buildNetworkTasks(c).vpc);
  return tasks
    .filter((t): t is SecurityGroupRuleTask => t instanceof SecurityGroupRuleTask)
    .map((r) => `${r.desired.group.name} ${r.desired.direction} ${r.desired.sourceGroup?.name ?? r.desired.cidr} ${r.desired.protocol} ${r.desired.fromPort ?? ''}-${r.desired.toPort ?? ''}`)
    .sort();
}

const IPIP = 'masters.sg.example.com ingress nodes.sg.example.com 4 -';

describe('buildSecurityGroupTasks: IPIP from the nodes to the control plane (kops: Calico and kube-router only)', () => {
  it('opens protocol 4 for Calico', () => {
    expect(rules(cluster('calico'))).toContain(IPIP);
  });

  it('opens protocol 4 for kube-router', () => {
    expect(rules(cluster('calico', (c) => (c.spec.networking = { kuberouter: {} })))).toContain(IPIP);
  });

  it.each(['cilium', 'kubenet', 'amazonvpc'])('does not open it for %s', (networking) => {
    const r = rules(cluster(networking));
    expect(r).not.toContain(IPIP);
    expect(r.filter((x) => / 4 -$/.test(x))).toEqual([]);
  });
});

const ALL_FROM_NODES = 'masters.sg.example.com ingress nodes.sg.example.com -1 -';

describe('buildSecurityGroupTasks: all traffic from the nodes to the control plane (kops: amazonvpc only)', () => {
  it('opens it for amazonvpc, whose pods on nodes reach pods on the control plane on any port', () => {
    expect(rules(cluster('amazonvpc'))).toContain(ALL_FROM_NODES);
  });

  it.each(['cilium', 'calico', 'flannel', 'kubenet'])('does not open it for %s', (networking) => {
    expect(rules(cluster(networking))).not.toContain(ALL_FROM_NODES);
  });

  it('is the rule kops renders for many-addons (amazonvpc)', () => {
    const tf = fs.readFileSync(path.join(__dirname, '../../fixtures/kops-addons/many-addons/kubernetes.tf'), 'utf8');
    const block = /resource "aws_security_group_rule" "from-nodes-many-addons-example-com-ingress-all-0to0-masters-many-addons-example-com" \{([^}]*)\}/.exec(tf);
    expect(block?.[1]).toMatch(/protocol\s+= "-1"/);
    expect(block?.[1]).toMatch(/security_group_id\s+= aws_security_group\.masters-many-addons-example-com\.id/);
    expect(block?.[1]).toMatch(/source_security_group_id\s+= aws_security_group\.nodes-many-addons-example-com\.id/);
  });
});
