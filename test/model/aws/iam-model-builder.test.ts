import type { Cluster, InstanceGroup } from '../../../src/api/types';
import { KOPS_CONTROLLER_CA_FIXTURE } from '../../helpers/kops-controller-ca-fixture';
import type { IamPolicyDocument, IamStatement } from '../../../src/cloud/aws/iam-policy-document';
import { canonicalPolicy } from '../../../src/cloud/aws/iam-policy-document';
import { newCluster } from '../../../src/create/new-cluster';
import { buildAwsTasks } from '../../../src/model/aws/aws-model-builder';
import { HOSTED_ZONE_ID, IamRolePolicyTask } from '../../../src/cloud/aws/tasks/iam-role-policy-task';
import { buildIamPolicies, buildIamTasks } from '../../../src/model/aws/iam-model-builder';
import { controlPlaneIamName, nodeGroupIamName } from '../../../src/model/aws/iam-names';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { loadManifests } from '../../../src/api/load-manifests';
import { expectGolden } from '../../helpers/golden';
import { FIXTURES } from '../../helpers/golden-cases';
import { completeCluster } from '../../../src/ops/expand-cluster';
import { taskKey } from '../../../src/tasks/task';
import { TaskGraph } from '../../../src/tasks/task-graph';

const NAME = 'iam.example.com';
const BUCKET = 'arn:aws:s3:::kforge-state';
const PREFIX = `${BUCKET}/team/${NAME}/`;

function spec(edit: (c: Cluster) => void = () => {}): { cluster: Cluster; instanceGroups: InstanceGroup[] } {
  const { cluster, instanceGroups } = newCluster({ name: NAME, zones: ['us-east-1a', 'us-east-1b'] });
  const c = completeCluster(cluster, instanceGroups, 's3://kforge-state/team');
  // create cluster turns ECR access on (kops's new_cluster.go does too); the tests below want it off unless they say.
  c.spec.iam = { ...c.spec.iam, allowContainerRegistry: false };
  // Workers of an Approval-mode cluster still read their config from the store: the narrow node policy the
  // tests below check is theirs (in Automatic mode AWS workers have no S3 statement, tested apart).
  c.spec.nodeIdentity = { mode: 'Approval' };
  edit(c);
  return { cluster: c, instanceGroups };
}

const list = (v: string | string[] | undefined): string[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);
const resources = (doc: IamPolicyDocument): string[] => doc.Statement.flatMap((s) => list(s.Resource));
const actions = (doc: IamPolicyDocument): string[] => doc.Statement.flatMap((s) => list(s.Action));
const s3Statements = (doc: IamPolicyDocument): IamStatement[] => doc.Statement.filter((s) => list(s.Action).some((a) => a.startsWith('s3:')));
const ADDON_SID = /^kforge(CloudControllerManager|EbsCsiDriver|NodeTerminationHandler)/;

describe('IAM model builder', () => {
  it('builds a role, inline policy, instance profile and attachment for the control plane and for each node group', () => {
    const { cluster, instanceGroups } = spec();
    const graph = new TaskGraph(buildAwsTasks(cluster, instanceGroups, { kopsControllerCa: KOPS_CONTROLLER_CA_FIXTURE, nodeupConfigHashes: Object.fromEntries(instanceGroups.map((ig) => [ig.metadata.name, '0'.repeat(64)])) }));
    const lines = graph
      .order()
      .filter((t) => t.kind.startsWith('IAM'))
      .map((t) => `${taskKey(t)} <- ${graph.dependenciesOf(t).map(taskKey).join(', ') || '-'}`)
      .sort();
    const nodeGroups = instanceGroups.filter((ig) => ig.spec.role === 'Node').map((ig) => `nodes-${ig.metadata.name}`);
    expect(nodeGroups.length).toBeGreaterThan(1);
    expect(lines).toEqual(
      ['masters', ...nodeGroups]
        .flatMap((r) => [
          `IAMRole/${r}.${NAME} <- -`,
          `IAMRolePolicy/${r}.${NAME} <- IAMRole/${r}.${NAME}`,
          `IAMInstanceProfile/${r}.${NAME} <- -`,
          `IAMInstanceProfileRole/${r}.${NAME} <- IAMInstanceProfile/${r}.${NAME}, IAMRole/${r}.${NAME}`,
        ])
        .sort(),
    );
  });

  it.each(['nodes-us-east-1a', 'nodes-us-east-1b'])('lets a node of %s read only its own group’s config, the issued keysets, the completed spec, its client keysets (never a CA key) and the nodeup bundles, all scoped to the cluster', (group) => {
    const { cluster, instanceGroups } = spec();
    const nodeGroups = [group];
    const nodes = buildIamPolicies(cluster, instanceGroups).nodeGroups[group];
    expect(Object.keys(buildIamPolicies(cluster, instanceGroups).nodeGroups).sort()).toEqual(['nodes-us-east-1a', 'nodes-us-east-1b']);
    const s3 = s3Statements(nodes);
    const s3Resources = s3.flatMap((s) => list(s.Resource));
    for (const r of s3Resources) expect(r === BUCKET || r.startsWith(PREFIX)).toBe(true);
    for (const r of resources(nodes)) expect({ r, scoped: r === '*' || r === BUCKET || r.startsWith(PREFIX) }).toEqual({ r, scoped: true });
    // Of pki/private only kubelet's bootstrap identity (this cluster runs no kube-proxy: cilium replaces it).
    const clientKeysets = [`${PREFIX}pki/private/kubelet-bootstrap/*`];
    expect(s3Resources.filter((r) => r.includes('pki/private'))).toEqual(clientKeysets);
    expect(s3Resources.filter((r) => r.includes('/pki/*') || r === `${PREFIX}*`)).toEqual([]);
    // No object wildcard except the certificate-only keysets' prefix, the client keysets' and the nodeup
    // bundles' (assets/nodeup/<sha256>/nodeup: one per kforge build, nothing secret).
    const bundles = `${PREFIX}assets/nodeup/*/nodeup`;
    expect(s3Resources.filter((r) => r.includes('*')).sort()).toEqual([`${PREFIX}pki/issued/*`, bundles, ...clientKeysets].sort());
    const objects = s3.filter((s) => list(s.Action).includes('s3:GetObject')).flatMap((s) => list(s.Resource));
    expect(objects.sort()).toEqual([bundles, `${PREFIX}cluster-completed.spec`, `${PREFIX}pki/issued/*`, ...clientKeysets, ...nodeGroups.map((ig) => `${PREFIX}igconfig/node/${ig}/nodeupconfig.yaml`)].sort());
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

  it('gives 200 node groups 200 roles, each policy naming one config and far below IAM’s size limit', () => {
    const { cluster, instanceGroups } = spec();
    const node = instanceGroups.find((ig) => ig.spec.role === 'Node') as InstanceGroup;
    const many = [...instanceGroups, ...Array.from({ length: 200 }, (_, i) => ({ ...node, metadata: { ...node.metadata, name: `group-${i}` } }))];
    const { nodeGroups } = buildIamPolicies(cluster, many);
    expect(Object.keys(nodeGroups)).toHaveLength(202);
    for (const [group, doc] of Object.entries(nodeGroups)) {
      const configs = s3Statements(doc).flatMap((s) => list(s.Resource)).filter((r) => r.includes('igconfig'));
      expect(configs).toEqual([`${PREFIX}igconfig/node/${group}/nodeupconfig.yaml`]);
      expect(JSON.stringify(doc).length).toBeLessThan(2048);
    }
  });

  it('names a role by its group and cluster, cut to IAM’s 64 characters with a hash when longer', () => {
    expect(nodeGroupIamName('nodes-us-east-1a', 'x.example.com')).toBe('nodes-nodes-us-east-1a.x.example.com');
    expect(controlPlaneIamName('x.example.com')).toBe('masters.x.example.com');
    const long = `${'a'.repeat(60)}.example.com`;
    const a = nodeGroupIamName('nodes-us-east-1a', long);
    const b = nodeGroupIamName('nodes-us-east-1b', long);
    expect(a).toHaveLength(64);
    expect(a).not.toBe(b);
    expect(nodeGroupIamName('nodes-us-east-1a', long)).toBe(a);
  });

  it('writes the policy documents as the golden files hold them (minimal, HA, private)', () => {
    const cases: Array<[string, Parameters<typeof newCluster>[0]]> = [
      ['minimal', { name: 'minimal.example.com', zones: ['us-east-1a'] }],
      ['ha', { name: 'ha.example.com', zones: ['us-east-1a', 'us-east-1b', 'us-east-1c'], controlPlaneCount: 3 }],
      ['private', { name: 'private.example.com', zones: ['us-east-1a', 'us-east-1b'], topology: 'private', networking: 'calico', bastion: false }],
      // With DNS: workers boot from the node-identity service, and their roles have no S3 statement.
      ['dns', { name: 'dns.example.com', zones: ['us-east-1a'], dnsZone: 'example.com' }],
    ];
    for (const [file, options] of cases) {
      const { cluster, instanceGroups } = newCluster(options);
      const completed = completeCluster(cluster, instanceGroups, 's3://kforge-state/team');
      const docs = buildIamPolicies(completed, instanceGroups);
      expectGolden(`iam/${file}.json`, `${JSON.stringify(docs, null, 2)}\n`);
    }
  });

  it('lets the control plane read the cluster prefix, describe, and attach only the cluster’s volumes', () => {
    const { cluster, instanceGroups } = spec();
    const { controlPlane } = buildIamPolicies(cluster, instanceGroups);
    for (const r of s3Statements(controlPlane).flatMap((s) => list(s.Resource))) expect(r === BUCKET || r.startsWith(PREFIX)).toBe(true);
    // kops's AddS3Permissions: s3:Get* on the cluster prefix (etcd-manager reads backup versions); versions
    // listed and deleted only under the backup prefixes.
    const read = controlPlane.Statement.find((s) => list(s.Action).includes('s3:Get*'));
    expect(read?.Resource).toBe(`${PREFIX}*`);
    const backups = controlPlane.Statement.find((s) => list(s.Action).includes('s3:DeleteObjectVersion'));
    expect(list(backups?.Resource).every((r) => r.startsWith(`${PREFIX}backups/etcd/`))).toBe(true);
    expect(list(backups?.Resource).length).toBe(2);
    expect(controlPlane.Statement.find((s) => list(s.Action).includes('s3:ListBucketVersions'))?.Condition).toEqual({ StringLike: { 's3:prefix': [`team/${NAME}/*`] } });
    const attach = controlPlane.Statement.find((s) => list(s.Action).includes('ec2:AttachVolume'));
    // kops's addEtcdManagerPermissions: the control plane's volumes only, not any volume of the cluster.
    expect(attach?.Condition).toEqual({ StringEquals: { 'aws:ResourceTag/KubernetesCluster': NAME, 'aws:ResourceTag/k8s.io/role/master': '1' } });
    expect(actions(controlPlane)).toEqual(expect.arrayContaining(['ec2:DescribeInstances', 'ec2:DescribeRegions', 'ec2:DescribeVolumes']));
    // kforge's own unconditional grants only describe; the addons' (kops's, tested below) are apart by Sid.
    for (const s of controlPlane.Statement.filter((x) => !ADDON_SID.test(x.Sid ?? ''))) {
      if (list(s.Resource).includes('*') && !s.Condition) expect(list(s.Action).every((a) => a.startsWith('ec2:Describe'))).toBe(true);
    }
    expect(actions(controlPlane).some((a) => a.startsWith('ecr:'))).toBe(false);
  });

  it('adds ECR read access only with spec.iam.allowContainerRegistry', () => {
    const { cluster, instanceGroups } = spec((c) => (c.spec.iam = { ...c.spec.iam, allowContainerRegistry: true }));
    const { controlPlane, nodeGroups } = buildIamPolicies(cluster, instanceGroups);
    for (const doc of [controlPlane, ...Object.values(nodeGroups)]) {
      expect(actions(doc)).toEqual(expect.arrayContaining(['ecr:GetAuthorizationToken', 'ecr:BatchGetImage', 'ecr:GetDownloadUrlForLayer']));
      expect(actions(doc).filter((a) => a.startsWith('ecr:')).every((a) => !/(Put|Delete|Create|Upload)/.test(a))).toBe(true);
    }
  });

  it('grants no ECR access to a cluster whose manifest leaves spec.iam.allowContainerRegistry unset (kops\'s minimal case)', () => {
    const set = loadManifests(fs.readFileSync(path.join(FIXTURES, 'kops', 'minimal.yaml'), 'utf8'), 'minimal.yaml');
    const completed = completeCluster(set.clusters[0], set.instanceGroups, 's3://kforge-state/team');
    expect(completed.spec.iam?.allowContainerRegistry).toBeUndefined();
    const { controlPlane, nodeGroups } = buildIamPolicies(completed, set.instanceGroups);
    expect(Object.keys(nodeGroups).length).toBeGreaterThan(0);
    for (const doc of [controlPlane, ...Object.values(nodeGroups)]) expect(actions(doc).filter((a) => a.startsWith('ecr:'))).toEqual([]);
  });

  it('lets the control plane write only the cluster’s hosted zone (kops’s AddDNSControllerPermissions), resolved to its id; nodes get no Route 53', () => {
    const build = (options: Partial<Parameters<typeof newCluster>[0]>) => {
      const { cluster, instanceGroups } = newCluster({ name: NAME, zones: ['us-east-1a'], ...options });
      return { cluster: completeCluster(cluster, instanceGroups, 's3://kforge-state/team'), instanceGroups };
    };
    const { cluster, instanceGroups } = build({ dnsZone: 'example.com' });
    const { controlPlane, nodeGroups } = buildIamPolicies(cluster, instanceGroups);
    const zoneStatement = controlPlane.Statement.find((s) => list(s.Action).includes('route53:ChangeResourceRecordSets'));
    expect(zoneStatement?.Resource).toBe(`arn:aws:route53:::hostedzone/${HOSTED_ZONE_ID}`);
    expect(list(zoneStatement?.Action).sort()).toEqual(['route53:ChangeResourceRecordSets', 'route53:GetHostedZone', 'route53:ListResourceRecordSets']);
    // Only list calls, which take no resource-level permission, are on '*'.
    for (const s of controlPlane.Statement.filter((x) => list(x.Action).some((a) => a.startsWith('route53:')) && x.Resource === '*')) {
      expect(list(s.Action).every((a) => /^route53:List/.test(a))).toBe(true);
    }
    for (const doc of Object.values(nodeGroups)) expect(actions(doc).filter((a) => a.startsWith('route53:'))).toEqual([]);
    // The task sends the document with the zone's id in place of the placeholder.
    const task = buildIamTasks(cluster, instanceGroups).tasks.find((t): t is IamRolePolicyTask => t instanceof IamRolePolicyTask && t.name === controlPlaneIamName(NAME)) as IamRolePolicyTask;
    expect(() => task.policy()).toThrow(expect.objectContaining({ code: 'HOSTED_ZONE_NOT_RESOLVED' }));
    task.useHostedZoneId('Z0123456789ABCDEFGHIJ');
    expect(JSON.stringify(task.policy())).toContain('"arn:aws:route53:::hostedzone/Z0123456789ABCDEFGHIJ"');
    expect(JSON.stringify(task.policy())).not.toContain(HOSTED_ZONE_ID);
    // A zone given by id needs no lookup.
    const byId = build({ dnsZone: 'Z9ABCDEFGHIJKLMNOPQRS' });
    const idTask = buildIamTasks(byId.cluster, byId.instanceGroups).tasks.find((t): t is IamRolePolicyTask => t instanceof IamRolePolicyTask && t.name === controlPlaneIamName(NAME)) as IamRolePolicyTask;
    expect(JSON.stringify(idTask.policy())).toContain('"arn:aws:route53:::hostedzone/Z9ABCDEFGHIJKLMNOPQRS"');
    // No Route 53 (--dns none, gossip): no route53 statement at all.
    for (const other of [build({}), { ...build({}), cluster: { ...build({}).cluster, metadata: { name: 'g.k8s.local' } } }]) {
      expect(actions(buildIamPolicies(other.cluster, other.instanceGroups).controlPlane).filter((a) => a.startsWith('route53:'))).toEqual([]);
    }
  });

  it('grants the state store’s KMS key (kops’s addKMSIAMPolicies, less CreateGrant): the control plane uses it, nodes only decrypt', () => {
    const { cluster, instanceGroups } = spec();
    // The state key's statements; the EBS CSI driver's KMS statements (kops's, for encrypted volumes) are apart by Sid.
    const kms = (doc: IamPolicyDocument) => doc.Statement.filter((s) => !ADDON_SID.test(s.Sid ?? '') && list(s.Action).some((a) => a.startsWith('kms:')));
    const none = buildIamPolicies(cluster, instanceGroups);
    for (const doc of [none.controlPlane, ...Object.values(none.nodeGroups)]) expect(kms(doc)).toEqual([]);
    const arn = 'arn:aws:kms:us-east-1:123456789012:key/1234abcd-12ab-34cd-56ef-1234567890ab';
    const cases: Array<[string, Partial<IamStatement>]> = [
      [arn, { Resource: arn }],
      ['1234abcd-12ab-34cd-56ef-1234567890ab', { Resource: 'arn:aws:kms:*:*:key/1234abcd-12ab-34cd-56ef-1234567890ab' }],
      ['alias/kforge-state', { Resource: 'arn:aws:kms:*:*:key/*', Condition: { 'ForAnyValue:StringEquals': { 'kms:ResourceAliases': 'alias/kforge-state' } } }],
      ['arn:aws:kms:us-east-1:123456789012:alias/kforge-state', { Resource: 'arn:aws:kms:*:*:key/*', Condition: { 'ForAnyValue:StringEquals': { 'kms:ResourceAliases': 'alias/kforge-state' } } }],
    ];
    for (const [key, scope] of cases) {
      const { controlPlane, nodeGroups } = buildIamPolicies(cluster, instanceGroups, { stateStoreKmsKey: key });
      expect(kms(controlPlane)).toEqual([expect.objectContaining({ ...scope, Action: ['kms:Decrypt', 'kms:DescribeKey', 'kms:Encrypt', 'kms:GenerateDataKey*', 'kms:ReEncrypt*'] })]);
      // Only EC2 may create a grant for the role (the EBS CSI driver's encrypted volumes): never the role itself.
      for (const st of controlPlane.Statement.filter((x) => list(x.Action).includes('kms:CreateGrant'))) expect(st.Condition).toEqual({ Bool: { 'kms:GrantIsForAWSResource': 'true' } });
      for (const doc of Object.values(nodeGroups)) expect(kms(doc)).toEqual([expect.objectContaining({ ...scope, Action: ['kms:Decrypt'] })]);
    }
    // The update pipeline hands the key to the builders through AwsModelInputs.
    const tasks = buildAwsTasks(cluster, instanceGroups, { kopsControllerCa: KOPS_CONTROLLER_CA_FIXTURE, nodeupConfigHashes: Object.fromEntries(instanceGroups.map((ig) => [ig.metadata.name, '0'.repeat(64)])), stateStoreKmsKey: arn });
    const policy = tasks.find((t): t is IamRolePolicyTask => t instanceof IamRolePolicyTask && t.name === controlPlaneIamName(NAME)) as IamRolePolicyTask;
    expect(JSON.stringify(policy.desired.policy)).toContain(arn);
  });

  it.each([
    ['with DNS', { dnsZone: 'example.com' }],
    ['without DNS (the API load balancer reaches the service)', {}],
  ])('gives a worker of an AWS cluster %s (a ConfigServer) no access to the state store at all: no S3 and no KMS statement, while the control plane keeps reading it', (_, dns) => {
    const { cluster, instanceGroups } = newCluster({ name: NAME, zones: ['us-east-1a', 'us-east-1b'], ...dns });
    // create cluster gives a cluster without DNS the API load balancer, whose 3988 listener reaches the service.
    if (!('dnsZone' in dns)) expect(cluster.spec.api?.loadBalancer).toBeDefined();
    const completed = completeCluster(cluster, instanceGroups, 's3://kforge-state/team');
    const { controlPlane, nodeGroups } = buildIamPolicies(completed, instanceGroups, { stateStoreKmsKey: 'alias/kforge-state' });
    expect(Object.keys(nodeGroups).sort()).toEqual(['nodes-us-east-1a', 'nodes-us-east-1b']);
    for (const doc of Object.values(nodeGroups)) {
      expect(doc.Statement.flatMap((st) => list(st.Action)).filter((a) => a.startsWith('s3:') || a.startsWith('kms:'))).toEqual([]);
      expect(resources(doc).filter((r) => r.includes(':s3:') || r.includes(':kms:'))).toEqual([]);
    }
    expect(controlPlane.Statement.find((st) => list(st.Action).includes('s3:Get*'))?.Resource).toBe(`${BUCKET}/team/${NAME}/*`);
  });

  it('is pure: the same spec gives the same documents; tags are the cluster’s', () => {
    const a = spec();
    const b = spec();
    expect(JSON.stringify(buildIamPolicies(a.cluster, a.instanceGroups))).toBe(JSON.stringify(buildIamPolicies(b.cluster, b.instanceGroups)));
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
