import type { Cluster, InstanceGroup } from '../../api/types';
import { clusterTags, TagMap } from '../../cloud/aws/aws-tags';
import type { IamPolicyDocument, IamStatement } from '../../cloud/aws/iam-policy-document';
import { IamInstanceProfileRoleTask } from '../../cloud/aws/tasks/iam-instance-profile-role-task';
import { IamInstanceProfileTask } from '../../cloud/aws/tasks/iam-instance-profile-task';
import { IamRolePolicyTask } from '../../cloud/aws/tasks/iam-role-policy-task';
import { EC2_ASSUME_ROLE_POLICY, IamRoleTask } from '../../cloud/aws/tasks/iam-role-task';
import { StatePaths } from '../../state/state-paths';
import type { AnyTask } from '../../tasks/task';
import { UnsupportedModelError } from './unsupported-model-error';

/** The IAM tasks of a cluster, with the instance profiles named for the launch templates that need them. */
export interface IamTasks {
  controlPlaneProfile: IamInstanceProfileTask;
  nodesProfile: IamInstanceProfileTask;
  tasks: AnyTask[];
}

// What a node registry pull needs, kops's ECR statement (read only).
const ECR_READ = [
  'ecr:BatchCheckLayerAvailability',
  'ecr:BatchGetImage',
  'ecr:DescribeRepositories',
  'ecr:GetAuthorizationToken',
  'ecr:GetDownloadUrlForLayer',
  'ecr:GetRepositoryPolicy',
  'ecr:ListImages',
];

// Characters of the nodes' policy spent on per-group nodeup config ARNs at most (the whole policy,
// whitespace not counted, must stay under 10,240).
const IGCONFIG_LIST_BUDGET = 6000;

/**
 * kops's IAM model (pkg/model/iam, strict policies), pure: a role, its one inline policy and an instance
 * profile holding it, for the control plane (`masters.<cluster>`) and for nodes (`nodes.<cluster>`).
 * Nodes read only what nodeup needs from the state store: the completed spec, the certificate-only keysets
 * and the nodeup configs of the node instance groups (never `pki/private`); the control plane reads the
 * cluster's whole prefix and may attach the cluster's volumes (protokube). Both may describe instances
 * and regions; ECR read access only with `spec.iam.allowContainerRegistry`. S3 statements exist only when
 * `spec.configBase` is an `s3://` URL.
 */
export function buildIamTasks(cluster: Cluster, instanceGroups: readonly InstanceGroup[] = []): IamTasks {
  const c = cluster.metadata.name;
  const spec = cluster.spec;
  if (spec.iam?.legacy) throw new UnsupportedModelError('spec.iam.legacy', 'the legacy (broad) IAM policies');
  if (spec.iam?.permissionsBoundary) throw new UnsupportedModelError('spec.iam.permissionsBoundary', 'a permissions boundary');
  const labels: TagMap = { ...(spec.cloudLabels ?? {}) };
  const policies = buildIamPolicies(cluster, instanceGroups);
  const tasks: AnyTask[] = [];
  const role = (kind: 'masters' | 'nodes', policy: IamPolicyDocument): IamInstanceProfileTask => {
    const name = `${kind}.${c}`;
    const r = new IamRoleTask(name, { assumeRolePolicy: EC2_ASSUME_ROLE_POLICY, tags: clusterTags(c, name, labels) });
    const profile = new IamInstanceProfileTask(name, { tags: clusterTags(c, name, labels) });
    tasks.push(r, new IamRolePolicyTask(name, { role: r, policy }), profile, new IamInstanceProfileRoleTask(name, { profile, role: r }));
    return profile;
  };
  const controlPlaneProfile = role('masters', policies.controlPlane);
  const nodesProfile = role('nodes', policies.nodes);
  return { controlPlaneProfile, nodesProfile, tasks };
}

/** The inline policies of the control-plane and node roles (exported for tests and for review). */
export function buildIamPolicies(cluster: Cluster, instanceGroups: readonly InstanceGroup[] = []): { controlPlane: IamPolicyDocument; nodes: IamPolicyDocument } {
  const c = cluster.metadata.name;
  const spec = cluster.spec;
  const partition = awsPartition(spec.subnets?.find((s) => s.zone)?.zone ?? '');
  const ecr: IamStatement[] = spec.iam?.allowContainerRegistry ? [{ Sid: 'kforgeContainerRegistryRead', Effect: 'Allow', Action: ECR_READ, Resource: '*' }] : [];

  const nodes: IamStatement[] = [
    // Describe calls support no resource-level permissions: '*' is the only Resource AWS accepts.
    { Sid: 'kforgeNodesDescribe', Effect: 'Allow', Action: ['ec2:DescribeInstances', 'ec2:DescribeRegions'], Resource: '*' },
  ];
  const controlPlane: IamStatement[] = [
    { Sid: 'kforgeControlPlaneDescribe', Effect: 'Allow', Action: ['ec2:DescribeInstances', 'ec2:DescribeRegions', 'ec2:DescribeVolumes'], Resource: '*' },
    // protokube attaches the etcd volumes; only volumes (and instances) tagged for this cluster.
    { Sid: 'kforgeControlPlaneAttachClusterVolumes', Effect: 'Allow', Action: ['ec2:AttachVolume'], Resource: '*', Condition: { StringEquals: { 'aws:ResourceTag/KubernetesCluster': c } } },
  ];

  const store = s3Location(spec.configBase);
  if (store) {
    const bucket = `arn:${partition}:s3:::${store.bucket}`;
    const object = (key: string): string => `${bucket}/${store.key}/${key}`;
    // StatePaths are relative to the store base and start with the cluster name; configBase ends with it.
    const rel = (path: string): string => path.slice(c.length + 1);
    const nodeGroups = instanceGroups.filter((ig) => ig.spec.role === 'Node').map((ig) => ig.metadata.name);
    const perGroup = nodeGroups.sort().map((ig) => object(rel(StatePaths.nodeupConfig(c, 'Node', ig))));
    // One object per group until the list would crowd IAM's 10,240-character limit on a role's inline
    // policies; then the node configs' prefix, which still excludes the control plane's configs.
    const listed = perGroup.length > 0 && perGroup.join('","').length <= IGCONFIG_LIST_BUDGET;
    const igconfigs = listed ? perGroup : [object(`${rel(StatePaths.igconfigPrefix(c))}node/*`)];
    nodes.push(
      { Sid: 'kforgeNodesLocateStateStore', Effect: 'Allow', Action: ['s3:GetBucketLocation', 's3:GetEncryptionConfiguration'], Resource: bucket },
      // The keystore lists the certificate-only keysets; listing is limited to their prefix.
      { Sid: 'kforgeNodesListIssuedKeysets', Effect: 'Allow', Action: ['s3:ListBucket'], Resource: bucket, Condition: { StringLike: { 's3:prefix': [`${store.key}/${rel(StatePaths.issuedPrefix(c))}*`] } } },
      {
        Sid: 'kforgeNodesReadState',
        Effect: 'Allow',
        Action: ['s3:GetObject'],
        Resource: [object(rel(StatePaths.completedSpec(c))), object(`${rel(StatePaths.issuedPrefix(c))}*`), ...igconfigs],
      },
    );
    controlPlane.push(
      { Sid: 'kforgeControlPlaneLocateStateStore', Effect: 'Allow', Action: ['s3:GetBucketLocation', 's3:GetEncryptionConfiguration'], Resource: bucket },
      { Sid: 'kforgeControlPlaneListState', Effect: 'Allow', Action: ['s3:ListBucket'], Resource: bucket, Condition: { StringLike: { 's3:prefix': [`${store.key}/*`] } } },
      { Sid: 'kforgeControlPlaneReadState', Effect: 'Allow', Action: ['s3:GetObject'], Resource: object('*') },
    );
    // etcd-manager writes its backups; only into the backup stores of this cluster's etcd clusters.
    const backups = (spec.etcdClusters ?? [])
      .map((e) => s3Location(e.backups?.backupStore))
      .filter((l): l is S3Location => l !== undefined)
      .map((l) => `arn:${partition}:s3:::${l.bucket}/${l.key}/*`);
    if (backups.length > 0) controlPlane.push({ Sid: 'kforgeControlPlaneWriteEtcdBackups', Effect: 'Allow', Action: ['s3:DeleteObject', 's3:PutObject'], Resource: [...new Set(backups)].sort() });
  }
  return { controlPlane: { Version: '2012-10-17', Statement: [...controlPlane, ...ecr] }, nodes: { Version: '2012-10-17', Statement: [...nodes, ...ecr] } };
}

interface S3Location {
  bucket: string;
  /** The key prefix, without leading or trailing slashes. */
  key: string;
}

function s3Location(url: string | undefined): S3Location | undefined {
  const m = /^s3:\/\/([^/]+)\/(.*?)\/*$/.exec(url ?? '');
  return m && m[2] ? { bucket: m[1], key: m[2].replace(/^\/+/, '') } : undefined;
}

/** The ARN partition of a region (from a zone name): China and GovCloud have their own. */
function awsPartition(zone: string): string {
  if (zone.startsWith('cn-')) return 'aws-cn';
  if (zone.startsWith('us-gov-')) return 'aws-us-gov';
  return 'aws';
}
