import type { Cluster, InstanceGroup } from '../../../src/api/types';
import type { IamPolicyDocument, IamStatement } from '../../../src/cloud/aws/iam-policy-document';
import { canonicalPolicy } from '../../../src/cloud/aws/iam-policy-document';
import { newCluster } from '../../../src/create/new-cluster';
import { buildAwsTasks } from '../../../src/model/aws/aws-model-builder';
import { buildIamPolicies, buildIamTasks } from '../../../src/model/aws/iam-model-builder';
import { completeCluster } from '../../../src/ops/expand-cluster';
import { taskKey } from '../../../src/tasks/task';
import { TaskGraph } from '../../../src/tasks/task-graph';

const NAME = 'iam.example.com';
const BUCKET = 'arn:aws:s3:::kforge-state';
const PREFIX = `${BUCKET}/team/${NAME}/`;

function spec(edit: (c: Cluster) => void = () => {}): { cluster: Cluster; instanceGroups: InstanceGroup[] } {
  const { cluster, instanceGroups } = newCluster({ name: NAME, zones: ['us-east-1a', 'us-east-1b'] });
  const c = completeCluster(cluster, instanceGroups, 's3://kforge-state/team');
  // Expansion turns ECR access on by default (kops does too); the tests below want it off unless they say.
  c.spec.iam = { ...c.spec.iam, allowContainerRegistry: false };
  edit(c);
  return { cluster: c, instanceGroups };
}

const list = (v: string | string[] | undefined): string[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);
const resources = (doc: IamPolicyDocument): string[] => doc.Statement.flatMap((s) => list(s.Resource));
const actions = (doc: IamPolicyDocument): string[] => doc.Statement.flatMap((s) => list(s.Action));
const s3Statements = (doc: IamPolicyDocument): IamStatement[] => doc.Statement.filter((s) => list(s.Action).some((a) => a.startsWith('s3:')));

describe('IAM model builder', () => {
  it('builds a role, inline policy, instance profile and attachment for the control plane and for nodes', () => {
    const { cluster, instanceGroups } = spec();
    const graph = new TaskGraph(buildAwsTasks(cluster, instanceGroups, { nodeupConfigHashes: Object.fromEntries(instanceGroups.map((ig) => [ig.metadata.name, '0'.repeat(64)])) }));
    const lines = graph
      .order()
      .filter((t) => t.kind.startsWith('IAM'))
      .map((t) => `${taskKey(t)} <- ${graph.dependenciesOf(t).map(taskKey).join(', ') || '-'}`)
      .sort();
    expect(lines).toEqual(
      ['masters', 'nodes']
        .flatMap((r) => [
          `IAMRole/${r}.${NAME} <- -`,
          `IAMRolePolicy/${r}.${NAME} <- IAMRole/${r}.${NAME}`,
          `IAMInstanceProfile/${r}.${NAME} <- -`,
          `IAMInstanceProfileRole/${r}.${NAME} <- IAMInstanceProfile/${r}.${NAME}, IAMRole/${r}.${NAME}`,
        ])
        .sort(),
    );
  });

  it('lets nodes read only their configs, the issued keysets and the completed spec, never pki/private, all scoped to the cluster', () => {
    const { cluster, instanceGroups } = spec();
    const nodeGroups = instanceGroups.filter((ig) => ig.spec.role === 'Node').map((ig) => ig.metadata.name);
    expect(nodeGroups.length).toBeGreaterThan(0);
    const { nodes } = buildIamPolicies(cluster, instanceGroups);
    const s3 = s3Statements(nodes);
    const s3Resources = s3.flatMap((s) => list(s.Resource));
    for (const r of s3Resources) expect(r === BUCKET || r.startsWith(PREFIX)).toBe(true);
    for (const r of resources(nodes)) expect({ r, scoped: r === '*' || r === BUCKET || r.startsWith(PREFIX) }).toEqual({ r, scoped: true });
    expect(s3Resources.filter((r) => r.includes('pki/private') || r.includes('/pki/*') || r === `${PREFIX}*`)).toEqual([]);
    // No object wildcard except the certificate-only keysets' prefix.
    expect(s3Resources.filter((r) => r.includes('*'))).toEqual([`${PREFIX}pki/issued/*`]);
    const objects = s3.filter((s) => list(s.Action).includes('s3:GetObject')).flatMap((s) => list(s.Resource));
    expect(objects.sort()).toEqual([`${PREFIX}cluster-completed.spec`, `${PREFIX}pki/issued/*`, ...nodeGroups.map((ig) => `${PREFIX}igconfig/node/${ig}/nodeupconfig.yaml`)].sort());
    // Listing the bucket is limited to the issued keysets' prefix.
    const listing = s3.filter((s) => list(s.Action).includes('s3:ListBucket'));
    expect(listing.map((s) => s.Condition)).toEqual([{ StringLike: { 's3:prefix': [`team/${NAME}/pki/issued/*`] } }]);
    // The only Resource '*' is for Describe calls, which take no resource-level permissions.
    for (const s of nodes.Statement) if (list(s.Resource).includes('*')) expect(list(s.Action).every((a) => a.startsWith('ec2:Describe'))).toBe(true);
    expect(actions(nodes)).toEqual(expect.arrayContaining(['ec2:DescribeInstances', 'ec2:DescribeRegions']));
    expect(actions(nodes).some((a) => a.startsWith('ecr:') || a.endsWith('*') || a.includes('Put') || a.includes('Delete'))).toBe(false);
    // The control-plane instance groups' configs are not the nodes' business.
    expect(objects.some((r) => r.includes('igconfig/control-plane') || r.includes('igconfig/master'))).toBe(false);
  });

  it('falls back to the node configs’ prefix when listing every group would crowd IAM’s policy size limit', () => {
    const { cluster, instanceGroups } = spec();
    const node = instanceGroups.find((ig) => ig.spec.role === 'Node') as InstanceGroup;
    const many = [...instanceGroups, ...Array.from({ length: 200 }, (_, i) => ({ ...node, metadata: { ...node.metadata, name: `group-${i}` } }))];
    const { nodes } = buildIamPolicies(cluster, many);
    const objects = s3Statements(nodes).flatMap((s) => list(s.Resource));
    expect(objects).toContain(`${PREFIX}igconfig/node/*`);
    expect(objects.some((r) => r.includes('pki/private') || r.includes('control-plane'))).toBe(false);
    expect(JSON.stringify(nodes).length).toBeLessThan(10240);
  });

  it('lets the control plane read the cluster prefix, describe, and attach only the cluster’s volumes', () => {
    const { cluster, instanceGroups } = spec();
    const { controlPlane } = buildIamPolicies(cluster, instanceGroups);
    for (const r of s3Statements(controlPlane).flatMap((s) => list(s.Resource))) expect(r === BUCKET || r.startsWith(PREFIX)).toBe(true);
    const read = controlPlane.Statement.find((s) => list(s.Action).includes('s3:GetObject'));
    expect(read?.Resource).toBe(`${PREFIX}*`);
    const attach = controlPlane.Statement.find((s) => list(s.Action).includes('ec2:AttachVolume'));
    expect(attach?.Condition).toEqual({ StringEquals: { 'aws:ResourceTag/KubernetesCluster': NAME } });
    expect(actions(controlPlane)).toEqual(expect.arrayContaining(['ec2:DescribeInstances', 'ec2:DescribeRegions', 'ec2:DescribeVolumes']));
    for (const s of controlPlane.Statement) {
      if (list(s.Resource).includes('*') && !s.Condition) expect(list(s.Action).every((a) => a.startsWith('ec2:Describe'))).toBe(true);
    }
    expect(actions(controlPlane).some((a) => a.startsWith('ecr:'))).toBe(false);
  });

  it('adds ECR read access only with spec.iam.allowContainerRegistry', () => {
    const { cluster, instanceGroups } = spec((c) => (c.spec.iam = { ...c.spec.iam, allowContainerRegistry: true }));
    const { controlPlane, nodes } = buildIamPolicies(cluster, instanceGroups);
    for (const doc of [controlPlane, nodes]) {
      expect(actions(doc)).toEqual(expect.arrayContaining(['ecr:GetAuthorizationToken', 'ecr:BatchGetImage', 'ecr:GetDownloadUrlForLayer']));
      expect(actions(doc).filter((a) => a.startsWith('ecr:')).every((a) => !/(Put|Delete|Create|Upload)/.test(a))).toBe(true);
    }
  });

  it('is pure: the same spec gives the same documents; tags are the cluster’s', () => {
    const a = spec();
    const b = spec();
    expect(canonicalPolicy(buildIamPolicies(a.cluster, a.instanceGroups).nodes)).toBe(canonicalPolicy(buildIamPolicies(b.cluster, b.instanceGroups).nodes));
    const role = buildIamTasks(a.cluster, a.instanceGroups).tasks.find((t) => t.kind === 'IAMRole') as unknown as { desired: { tags: Record<string, string> } };
    expect(role.desired.tags).toMatchObject({ KubernetesCluster: NAME, [`kubernetes.io/cluster/${NAME}`]: 'owned' });
  });

  it('refuses the legacy policies and a permissions boundary, naming the field', () => {
    expect(() => buildIamTasks(spec((c) => (c.spec.iam = { legacy: true })).cluster)).toThrow(/^spec\.iam\.legacy: /);
    expect(() => buildIamTasks(spec((c) => (c.spec.iam = { permissionsBoundary: 'arn:aws:iam::1:policy/b' })).cluster)).toThrow(/^spec\.iam\.permissionsBoundary: /);
  });
});

describe('canonicalPolicy', () => {
  it('equates a URL-encoded document with other key order and spacing to the same document', () => {
    const doc: IamPolicyDocument = { Version: '2012-10-17', Statement: [{ Effect: 'Allow', Action: 's3:GetObject', Resource: 'arn:aws:s3:::b/k' }] };
    const fromIam = encodeURIComponent('{"Statement": [{"Resource": "arn:aws:s3:::b/k", "Action": "s3:GetObject", "Effect": "Allow"}], "Version": "2012-10-17"}');
    expect(canonicalPolicy(fromIam)).toBe(canonicalPolicy(doc));
    expect(canonicalPolicy({ ...doc, Statement: [{ ...doc.Statement[0], Resource: 'arn:aws:s3:::b/other' }] })).not.toBe(canonicalPolicy(doc));
  });
});
