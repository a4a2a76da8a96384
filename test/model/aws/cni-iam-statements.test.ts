import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Cluster } from '../../../src/api/types';
import type { IamPolicyDocument } from '../../../src/cloud/aws/iam-policy-document';
import { calicoAddon } from '../../../src/model/addons/calico-addon';
import { newCluster } from '../../../src/create/new-cluster';
import { completeCluster } from '../../../src/ops/expand-cluster';
import { buildIamPolicies } from '../../../src/model/aws/iam-model-builder';
import { completeKopsCase, KOPS_ADDONS } from '../../helpers/kops-addon-case';

/**
 * The CNIs' IAM against kops's (pkg/model/iam/iam_builder.go; the role policies of its integration cases in
 * test/fixtures/kops-addons, commit 268927e): every action kforge grants for the CNI is one kops grants on the same
 * role with the same resource and no condition; the CNI's kops-only actions are all granted; other CNIs get none.
 */
type Grants = Map<string, Set<string>>;

/** action → the resources it is granted on without a condition, in a policy document. */
function unconditional(doc: IamPolicyDocument): Grants {
  const out: Grants = new Map();
  for (const s of doc.Statement) {
    if (s.Effect !== 'Allow' || s.Condition) continue;
    for (const a of [s.Action ?? []].flat()) for (const r of [s.Resource ?? []].flat()) out.set(a, (out.get(a) ?? new Set<string>()).add(r));
  }
  return out;
}

const kopsPolicy = (c: string, role: 'masters' | 'nodes', cluster: string): IamPolicyDocument =>
  JSON.parse(fs.readFileSync(path.join(KOPS_ADDONS, c, `aws_iam_role_policy_${role}.${cluster}_policy`), 'utf8')) as IamPolicyDocument;

/** The statements kforge adds for the CNI (Sid prefix), as grants; kops's partition is aws-test. */
function cniGrants(doc: IamPolicyDocument): Grants {
  const only = { ...doc, Statement: doc.Statement.filter((s) => /^kforge(AmazonVpc|Cilium|Calico)/.test(s.Sid ?? '')) };
  return unconditional(JSON.parse(JSON.stringify(only).replace(/arn:aws:/g, 'arn:aws-test:')) as IamPolicyDocument);
}

function policies(c: string, edit?: (c: Cluster) => void): ReturnType<typeof buildIamPolicies> {
  const { cluster, instanceGroups } = completeKopsCase(c, edit);
  return buildIamPolicies(cluster, instanceGroups);
}

describe('CNI IAM (kops iam_builder.go)', () => {
  const cases: Array<[string, string, string[]]> = [
    // case, cluster, the CNI actions kops grants (on each role unless said)
    ['many-addons', 'many-addons.example.com', ['ec2:AssignPrivateIpAddresses', 'ec2:AttachNetworkInterface', 'ec2:CreateNetworkInterface', 'ec2:DeleteNetworkInterface', 'ec2:DetachNetworkInterface', 'ec2:ModifyNetworkInterfaceAttribute', 'ec2:UnassignPrivateIpAddresses', 'ec2:CreateTags']],
    ['privatecalico', 'privatecalico.example.com', ['ec2:ModifyNetworkInterfaceAttribute']],
    ['privatecilium-eni', 'privatecilium.example.com', ['ec2:AssignPrivateIpAddresses', 'ec2:CreateNetworkInterface', 'ec2:DescribeRouteTables', 'ec2:DescribeVpcs', 'ec2:ModifyNetworkInterfaceAttribute', 'ec2:DescribeInstanceTypes']],
  ];

  it.each(cases)('%s: every CNI grant is kops\'s, on the same resource, unconditioned', (c, cluster) => {
    const mine = policies(c);
    const roles: Array<['masters' | 'nodes', IamPolicyDocument | undefined]> = [['masters', mine.controlPlane], ['nodes', Object.values(mine.nodeGroups)[0]]];
    for (const [role, doc] of roles) {
      const file = path.join(KOPS_ADDONS, c, `aws_iam_role_policy_${role}.${cluster}_policy`);
      if (!doc || !fs.existsSync(file)) continue;
      const kops = unconditional(kopsPolicy(c, role, cluster));
      for (const [action, resources] of cniGrants(doc)) {
        for (const r of resources) expect({ role, action, resource: r, kops: kops.get(action)?.has(r) ?? false }).toEqual({ role, action, resource: r, kops: true });
      }
    }
  });

  it.each(cases)('%s: grants kops\'s CNI actions', (c, cluster, actions) => {
    const mine = policies(c);
    const granted = new Set([...cniGrants(mine.controlPlane).keys()]);
    for (const a of actions) {
      expect({ action: a, kops: unconditional(kopsPolicy(c, 'masters', cluster)).has(a), kforge: granted.has(a) }).toEqual({ action: a, kops: true, kforge: true });
    }
  });

  it('Cilium\'s ENI permissions stay on the control plane (its operator); nodes get only DescribeInstanceTypes (nodeup\'s max pods)', () => {
    const mine = policies('privatecilium-eni');
    const nodes = [...cniGrants(Object.values(mine.nodeGroups)[0]).keys()];
    expect(nodes).toEqual(['ec2:DescribeInstanceTypes']);
    expect(cniGrants(mine.controlPlane).has('ec2:CreateNetworkInterface')).toBe(true);
  });

  it.each(['privatecilium', 'privateflannel', 'minimal-1.33'])('%s: no CNI grants', (c) => {
    const mine = policies(c);
    expect([mine.controlPlane, ...Object.values(mine.nodeGroups)].flatMap((d) => [...cniGrants(d).keys()])).toEqual([]);
  });

  it('Calico with awsSrcDstCheck DoNothing gets no grant, as kops', () => {
    const mine = policies('privatecalico', (c) => {
      if (c.spec.networking?.calico) c.spec.networking.calico.awsSrcDstCheck = 'DoNothing';
    });
    expect([...cniGrants(mine.controlPlane).keys()]).toEqual([]);
    const { cluster, instanceGroups } = completeKopsCase('privatecalico', (c) => {
      if (c.spec.networking?.calico) c.spec.networking.calico.awsSrcDstCheck = 'DoNothing';
    });
    const node = calicoAddon({ cluster, instanceGroups })[0].objects.find((o) => o.kind === 'DaemonSet');
    expect(JSON.stringify(node)).toContain('{"name":"FELIX_AWSSRCDSTCHECK","value":"DoNothing"}');
  });

  it('kube-router: ModifyInstanceAttribute on the cluster\'s instances, from nodes only (kops addKubeRouterSrcDstCheckPermissions)', () => {
    const { cluster, instanceGroups } = newCluster({ name: 'kr.example.com', zones: ['us-east-1a'], networking: 'kube-router', cloud: 'aws' });
    const mine = buildIamPolicies(completeCluster(cluster, instanceGroups, 'memfs://store'), instanceGroups);
    const sid = (d: IamPolicyDocument) => d.Statement.filter((s) => s.Sid === 'kforgeKubeRouterSrcDstCheck');
    expect(sid(mine.controlPlane)).toEqual([]);
    expect(Object.values(mine.nodeGroups).map(sid)).toEqual([
      [{ Sid: 'kforgeKubeRouterSrcDstCheck', Effect: 'Allow', Action: ['ec2:ModifyInstanceAttribute'], Resource: '*', Condition: { StringEquals: { 'aws:ResourceTag/KubernetesCluster': 'kr.example.com' } } }],
    ]);
  });
});
