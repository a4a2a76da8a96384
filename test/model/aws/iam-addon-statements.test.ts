import * as fs from 'node:fs';
import * as path from 'node:path';
import { loadManifests } from '../../../src/api/load-manifests';
import type { IamPolicyDocument, IamStatement } from '../../../src/cloud/aws/iam-policy-document';
import { buildIamPolicies } from '../../../src/model/aws/iam-model-builder';
import { completeCluster } from '../../../src/ops/expand-cluster';

// kops's own output for its minimal-1.33 integration case (commit 268927e, test/fixtures/kops-addons/SOURCE.md).
const KOPS = path.join(__dirname, '..', '..', 'fixtures', 'kops-addons', 'minimal-1.33');
const list = (v: string | string[] | undefined): string[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);

/** Every (action, resources, condition) grant of a policy, one string each, comparable across kops's merged statements and kforge's per-addon ones. */
function grants(doc: IamPolicyDocument, partition: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const s of doc.Statement) {
    const resources = list(s.Resource).map((r) => r.replace(/^arn:[^:]+:/, `arn:${partition}:`)).sort();
    for (const a of list(s.Action)) out.set(`${a} ${JSON.stringify(resources)} ${JSON.stringify(sortDeep(s.Condition ?? {}))}`, a);
  }
  return out;
}

function sortDeep(v: unknown): unknown {
  if (Array.isArray(v)) return [...v].map(sortDeep).sort();
  if (typeof v !== 'object' || v === null) return v;
  return Object.fromEntries(Object.keys(v).sort().map((k) => [k, sortDeep((v as Record<string, unknown>)[k])]));
}

/** kops's minimal-1.33 case completed by kforge (its region us-test-1 kept: the ViaService condition names it). */
function minimal(): ReturnType<typeof completeCluster> {
  const text = fs.readFileSync(path.join(KOPS, 'in-v1alpha2.yaml'), 'utf8').replace('memfs://tests/minimal.example.com', 's3://placeholder-read-bucket/tests/minimal.example.com');
  const set = loadManifests(text, 'in-v1alpha2.yaml');
  return completeCluster(set.clusters[0], set.instanceGroups, 's3://placeholder-read-bucket/tests');
}

// The actions of the AWS cloud-controller-manager, the EBS CSI driver and the node-termination-handler in
// kops's AddCCMPermissions, AddAWSEBSCSIDriverPermissions and AddNodeTerminationHandlerSQSPermissions.
const ADDON_ACTION = /^(autoscaling:(DescribeAutoScalingGroups|DescribeAutoScalingInstances|DescribeTags|CompleteLifecycleAction)|ec2:(DescribeAvailabilityZones|DescribeInstanceTopology|DescribeInstanceTypes|DescribeRouteTables|DescribeSecurityGroups|DescribeSubnets|DescribeTags|DescribeVolumeStatus|DescribeVolumesModifications|DescribeVpcs|ModifyInstanceAttribute|AuthorizeSecurityGroupIngress|RevokeSecurityGroupIngress|DeleteSecurityGroup|CreateSecurityGroup|CreateTags|DeleteTags|AttachVolume|CopyVolumes|CreateVolume|DeleteVolume|DetachVolume|ModifyVolume)|elasticloadbalancing:.*|iam:CreateServiceLinkedRole|kms:.*|sqs:.*)$/;

describe('the control plane’s addon IAM (kops’s iam_builder.go: CCM, EBS CSI driver, node-termination-handler)', () => {
  const cluster = minimal();
  const { controlPlane, nodeGroups } = buildIamPolicies(cluster, loadManifests(fs.readFileSync(path.join(KOPS, 'in-v1alpha2.yaml'), 'utf8'), 'x').instanceGroups);
  const kops = JSON.parse(fs.readFileSync(path.join(KOPS, 'aws_iam_role_policy_masters.minimal.example.com_policy'), 'utf8')) as IamPolicyDocument;

  it('grants every addon action of kops’s masters policy with kops’s resources and conditions', () => {
    const ours = grants(controlPlane, 'aws');
    const missing = [...grants(kops, 'aws')].filter(([key, action]) => ADDON_ACTION.test(action) && !ours.has(key)).map(([key]) => key);
    expect(missing).toEqual([]);
  });

  it('grants nothing of these addons that kops does not', () => {
    const theirs = grants(kops, 'aws');
    const addon = controlPlane.Statement.filter((s) => /^kforge(CloudControllerManager|EbsCsiDriver|NodeTerminationHandler)/.test(s.Sid ?? ''));
    const extra = [...grants({ Version: '2012-10-17', Statement: addon }, 'aws')].filter(([key]) => !theirs.has(key)).map(([key]) => key);
    expect(extra).toEqual([]);
  });

  it('gives the nodes none of it (kops grants these to the control plane only)', () => {
    for (const doc of Object.values(nodeGroups)) expect(doc.Statement.flatMap((s) => list(s.Action)).filter((a) => /^(sqs|elasticloadbalancing|autoscaling):/.test(a))).toEqual([]);
  });

  it('drops the queue permissions when the node-termination-handler is off or not in queue mode', () => {
    for (const nth of [{ enabled: false }, { enableSQSTerminationDraining: false }]) {
      const c = structuredClone(cluster);
      c.spec.nodeTerminationHandler = { ...c.spec.nodeTerminationHandler, ...nth };
      const actions = buildIamPolicies(c).controlPlane.Statement.flatMap((s: IamStatement) => list(s.Action));
      expect(actions.filter((a) => a.startsWith('sqs:') || a === 'autoscaling:CompleteLifecycleAction')).toEqual([]);
    }
  });

  it('lets the CCM manage routes only with kubenet, as kops does', () => {
    const c = structuredClone(cluster);
    expect(buildIamPolicies(c).controlPlane.Statement.flatMap((s) => list(s.Action))).not.toContain('ec2:CreateRoute');
    c.spec.networking = { kubenet: {} };
    const routes = buildIamPolicies(c).controlPlane.Statement.find((s) => list(s.Action).includes('ec2:CreateRoute'));
    expect(routes?.Condition).toEqual({ StringEquals: { 'aws:ResourceTag/KubernetesCluster': 'minimal.example.com' } });
  });
});
