import type { Cluster, InstanceGroup } from '../../api/types';
import { usesConfigServer } from '../config-server';
import { clusterTags, TagMap } from '../../cloud/aws/aws-tags';
import type { IamPolicyDocument, IamStatement } from '../../cloud/aws/iam-policy-document';
import { IamInstanceProfileRoleTask } from '../../cloud/aws/tasks/iam-instance-profile-role-task';
import { IamInstanceProfileTask } from '../../cloud/aws/tasks/iam-instance-profile-task';
import { HOSTED_ZONE_ID, IamRolePolicyTask, PolicyHostedZone } from '../../cloud/aws/tasks/iam-role-policy-task';
import { EC2_ASSUME_ROLE_POLICY, IamRoleTask } from '../../cloud/aws/tasks/iam-role-task';
import { StatePaths } from '../../state/state-paths';
import type { AnyTask } from '../../tasks/task';
import { controlPlaneAddonStatements } from './iam-addon-statements';
import { cniIamStatements } from './cni-iam-statements';
import { controlPlaneIamName, iamName, nodeGroupIamName } from './iam-names';
import { UnsupportedModelError } from './unsupported-model-error';
import { nodeIdentityMode } from '../../validate/check-node-identity';

/** The IAM tasks of a cluster, with the instance profiles named for the launch templates that need them. */
export interface IamTasks {
  /** `masters.<c>`; none when every control-plane group names its own profile (`spec.iam.profile`). */
  controlPlaneProfile?: IamInstanceProfileTask;
  /** Each node instance group's own profile, by group name. */
  nodeProfiles: Readonly<Record<string, IamInstanceProfileTask>>;
  /** `bastions.<c>`, when the cluster has a bastion instance group. */
  bastionProfile?: IamInstanceProfileTask;
  tasks: AnyTask[];
}

// The bastion's whole policy (kops's): a jump host needs nothing of the cluster.
const BASTION_POLICY: IamPolicyDocument = { Version: '2012-10-17', Statement: [{ Sid: 'kforgeBastionDescribeRegions', Effect: 'Allow', Action: ['ec2:DescribeRegions'], Resource: '*' }] };

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

/**
 * kops's IAM model (pkg/model/iam, strict policies), pure: a role, its one inline policy and an instance
 * profile holding it, for the control plane (`masters.<cluster>`) and for EACH node instance group
 * (`nodes-<group>.<cluster>`; kops shares one `nodes.<cluster>` role, kforge does not, so that a node can
 * read its own group's nodeup config and no other's). On AWS with DNS, nodes read **nothing** from the state
 * store: they get their nodeup config, bundle and certificates from the node-identity service
 * (kops's ConfigServer, src/model/config-server.ts), as kops's nodes. Without DNS they still read what nodeup
 * needs: the nodeup bundles, the completed spec, the certificate-only keysets, their group's nodeup config and, of
 * `pki/private`, only the kubelet-bootstrap and kube-proxy client keysets (never a CA's key). The control plane reads the cluster's whole prefix and may attach the cluster's volumes
 * (protokube). Both may describe instances and regions; ECR read access only with
 * `spec.iam.allowContainerRegistry`. S3 statements exist only when `spec.configBase` is an `s3://` URL.
 * IAM is read with one call whatever the number of roles (AwsInventory), so a role per group costs nothing
 * in a plan.
 */
export function buildIamTasks(cluster: Cluster, instanceGroups: readonly InstanceGroup[] = [], keys: KmsInputs = {}): IamTasks {
  const c = cluster.metadata.name;
  const spec = cluster.spec;
  if (spec.iam?.legacy) throw new UnsupportedModelError('spec.iam.legacy', 'the legacy (broad) IAM policies');
  if (spec.iam?.permissionsBoundary) throw new UnsupportedModelError('spec.iam.permissionsBoundary', 'a permissions boundary');
  const labels: TagMap = { ...(spec.cloudLabels ?? {}) };
  const policies = buildIamPolicies(cluster, instanceGroups, keys);
  const hostedZone = clusterHostedZone(cluster);
  const tasks: AnyTask[] = [];
  const role = (name: string, policy: IamPolicyDocument, zone?: PolicyHostedZone): IamInstanceProfileTask => {
    const r = new IamRoleTask(name, { assumeRolePolicy: EC2_ASSUME_ROLE_POLICY, tags: clusterTags(c, name, labels) });
    const profile = new IamInstanceProfileTask(name, { tags: clusterTags(c, name, labels) });
    tasks.push(r, new IamRolePolicyTask(name, { role: r, policy, ...(zone ? { hostedZone: zone } : {}) }), profile, new IamInstanceProfileRoleTask(name, { profile, role: r }));
    return profile;
  };
  // A group with `spec.iam.profile` uses that existing profile: no role or profile is made for it.
  const own = instanceGroups.filter((ig) => !ig.spec.iam?.profile);
  const overridden = new Set(instanceGroups.filter((ig) => ig.spec.iam?.profile).map((ig) => ig.metadata.name));
  const everyOverrides = (roles: string[]): boolean => instanceGroups.some((ig) => roles.includes(ig.spec.role ?? '')) && !own.some((ig) => roles.includes(ig.spec.role ?? ''));
  const controlPlaneProfile = everyOverrides(['ControlPlane', 'Master']) ? undefined : role(controlPlaneIamName(c), policies.controlPlane, hostedZone);
  const nodeProfiles: Record<string, IamInstanceProfileTask> = {};
  for (const [group, policy] of Object.entries(policies.nodeGroups)) if (!overridden.has(group)) nodeProfiles[group] = role(nodeGroupIamName(group, c), policy);
  // A bastion is a bare SSH jump host: kops gives it a role that may only describe regions.
  const hasBastion = own.some((ig) => ig.spec.role === 'Bastion');
  const bastionProfile = hasBastion ? role(iamName('bastions', c), BASTION_POLICY) : undefined;
  return { controlPlaneProfile, nodeProfiles, bastionProfile, tasks };
}

/** The inline policies: the control plane's, and each node instance group's by group name (exported for tests and review). */
export function buildIamPolicies(
  cluster: Cluster,
  instanceGroups: readonly InstanceGroup[] = [],
  keys: KmsInputs = {},
): { controlPlane: IamPolicyDocument; nodeGroups: Record<string, IamPolicyDocument> } {
  const c = cluster.metadata.name;
  const spec = cluster.spec;
  const partition = awsPartition(spec.subnets?.find((s) => s.zone)?.zone ?? '');
  const ecr: IamStatement[] = spec.iam?.allowContainerRegistry ? [{ Sid: 'kforgeContainerRegistryRead', Effect: 'Allow', Action: ECR_READ, Resource: '*' }] : [];

  const controlPlane: IamStatement[] = [
    { Sid: 'kforgeControlPlaneDescribe', Effect: 'Allow', Action: ['ec2:DescribeInstances', 'ec2:DescribeRegions', 'ec2:DescribeVolumes'], Resource: '*' },
    // protokube attaches the etcd volumes: only volumes (and to instances) tagged for this cluster AND for the
    // control plane, as kops's addEtcdManagerPermissions (pkg/model/iam/iam_builder.go at 7bb774b2); a
    // cluster-tagged data volume of a workload is not the control plane's to take.
    {
      Sid: 'kforgeControlPlaneAttachClusterVolumes',
      Effect: 'Allow',
      Action: ['ec2:AttachVolume'],
      Resource: '*',
      Condition: { StringEquals: { 'aws:ResourceTag/KubernetesCluster': c, 'aws:ResourceTag/k8s.io/role/master': '1' } },
    },
  ];
  const clientKeysets = spec.kubeProxy?.enabled === false ? ['kubelet-bootstrap'] : ['kube-proxy', 'kubelet-bootstrap'];
  const nodeGroupNames = instanceGroups.filter((ig) => ig.spec.role === 'Node').map((ig) => ig.metadata.name).sort();
  const nodeStatements = (group: string): IamStatement[] => {
    // Describe calls support no resource-level permissions: '*' is the only Resource AWS accepts.
    const statements: IamStatement[] = [{ Sid: 'kforgeNodesDescribe', Effect: 'Allow', Action: ['ec2:DescribeInstances', 'ec2:DescribeRegions'], Resource: '*' }];
    // A worker served by the node-identity service may not read the store at all (not even list it).
    const store = usesConfigServer(cluster) ? undefined : s3Location(spec.configBase);
    if (store) {
      const bucket = `arn:${partition}:s3:::${store.bucket}`;
      const object = (key: string): string => `${bucket}/${store.key}/${key}`;
      // StatePaths are relative to the store base and start with the cluster name; configBase ends with it.
      const rel = (path: string): string => path.slice(c.length + 1);
      statements.push(
        { Sid: 'kforgeNodesLocateStateStore', Effect: 'Allow', Action: ['s3:GetBucketLocation', 's3:GetEncryptionConfiguration'], Resource: bucket },
        // The keystore lists the certificate-only keysets; listing is limited to their prefix.
        { Sid: 'kforgeNodesListIssuedKeysets', Effect: 'Allow', Action: ['s3:ListBucket'], Resource: bucket, Condition: { StringLike: { 's3:prefix': [`${store.key}/${rel(StatePaths.issuedPrefix(c))}*`] } } },
        {
          Sid: 'kforgeNodesReadState',
          Effect: 'Allow',
          Action: ['s3:GetObject'],
          // The nodeup bundles (assets/nodeup/<sha256>/nodeup): user-data fetches this build's with the role. Not
          // one key: it changes with every build of kforge, and the bundles hold nothing secret.
          Resource: [
            object(rel(StatePaths.nodeupArtifact(c, '*'))),
            object(rel(StatePaths.completedSpec(c))),
            object(`${rel(StatePaths.issuedPrefix(c))}*`),
            object(rel(StatePaths.nodeupConfig(c, 'Node', group))),
          ],
        },
        // nodeup writes kubelet's and kube-proxy's kubeconfigs: their two client keysets, never a CA's key.
        { Sid: 'kforgeNodesReadClientKeysets', Effect: 'Allow', Action: ['s3:GetObject'], Resource: clientKeysets.map((k) => object(`${rel(StatePaths.privateKeyset(c, k)).replace(/keyset\.yaml$/, '')}*`)) },
      );
      // Objects written with SSE-KMS are readable only with kms:Decrypt on their key; a node only reads.
      if (keys.stateStoreKmsKey) statements.push(kmsStatement('kforgeNodesDecryptState', ['kms:Decrypt'], keys.stateStoreKmsKey, partition));
    }
    return [...statements, ...ecr];
  };

  // protokube UPSERTs api.internal.<c> and the etcd members' names in the cluster's zone: what kops's
  // AddDNSControllerPermissions grants (pkg/model/iam/iam_builder.go at 7bb774b2), the zone's records only.
  // ListHostedZonesByName is protokube's own: it finds a zone given by name with it (dns-controller lists).
  if (clusterHostedZone(cluster)) {
    controlPlane.push(
      {
        Sid: 'kforgeControlPlaneWriteClusterZone',
        Effect: 'Allow',
        Action: ['route53:ChangeResourceRecordSets', 'route53:GetHostedZone', 'route53:ListResourceRecordSets'],
        Resource: `arn:${partition}:route53:::hostedzone/${HOSTED_ZONE_ID}`,
      },
      { Sid: 'kforgeControlPlaneGetDnsChange', Effect: 'Allow', Action: ['route53:GetChange'], Resource: `arn:${partition}:route53:::change/*` },
      // List calls take no resource-level permissions: '*' is the only Resource AWS accepts.
      { Sid: 'kforgeControlPlaneListZones', Effect: 'Allow', Action: ['route53:ListHostedZones', 'route53:ListHostedZonesByName', 'route53:ListTagsForResource'], Resource: '*' },
    );
  }
  const store = s3Location(spec.configBase);
  if (store) {
    const bucket = `arn:${partition}:s3:::${store.bucket}`;
    const object = (key: string): string => `${bucket}/${store.key}/${key}`;
    controlPlane.push(
      { Sid: 'kforgeControlPlaneLocateStateStore', Effect: 'Allow', Action: ['s3:GetBucketLocation', 's3:GetEncryptionConfiguration'], Resource: bucket },
      // ListBucketVersions: etcd-manager lists its backups' versions to restore and to prune them (kops's AddS3Permissions).
      { Sid: 'kforgeControlPlaneListState', Effect: 'Allow', Action: ['s3:ListBucket', 's3:ListBucketVersions'], Resource: bucket, Condition: { StringLike: { 's3:prefix': [`${store.key}/*`] } } },
      // s3:Get* as kops grants it on the cluster's prefix: etcd-manager reads backups by version (GetObjectVersion).
      { Sid: 'kforgeControlPlaneReadState', Effect: 'Allow', Action: ['s3:Get*'], Resource: object('*') },
    );
    // spec.nodeIdentity.mode Approval: the node-identity service records nodes' requests there (it only creates them; approve and deny are an admin's).
    if (nodeIdentityMode(cluster) === 'Approval') controlPlane.push({ Sid: 'kforgeControlPlaneRecordNodeRequests', Effect: 'Allow', Action: ['s3:PutObject'], Resource: object(`${StatePaths.nodeRequestPrefix(c).slice(c.length + 1)}*`) });
    // etcd-manager writes, reads and prunes (object versions too) its backups; only in this cluster's etcd backup stores.
    const backupLocations = (spec.etcdClusters ?? []).map((e) => s3Location(e.backups?.backupStore)).filter((l): l is S3Location => l !== undefined);
    const backups = backupLocations.map((l) => `arn:${partition}:s3:::${l.bucket}/${l.key}/*`);
    if (backups.length > 0) {
      controlPlane.push({ Sid: 'kforgeControlPlaneWriteEtcdBackups', Effect: 'Allow', Action: ['s3:DeleteObject', 's3:DeleteObjectVersion', 's3:GetObject', 's3:PutObject'], Resource: [...new Set(backups)].sort() });
    }
    // A backup store in another bucket: listing there too, only under the backup prefixes.
    const otherBuckets = [...new Set(backupLocations.filter((l) => l.bucket !== store.bucket).map((l) => l.bucket))].sort();
    for (const [i, b] of otherBuckets.entries()) {
      const prefixes = [...new Set(backupLocations.filter((l) => l.bucket === b).map((l) => `${l.key}/*`))].sort();
      controlPlane.push({ Sid: `kforgeControlPlaneListEtcdBackups${i}`, Effect: 'Allow', Action: ['s3:GetBucketLocation', 's3:ListBucket', 's3:ListBucketVersions'], Resource: `arn:${partition}:s3:::${b}`, Condition: { StringLike: { 's3:prefix': prefixes } } });
    }
    // kops's addKMSIAMPolicies (iam_builder.go) on the key the state is encrypted with: the control plane reads
    // the state and writes etcd backups. Without kms:CreateGrant, which only EBS volumes use: an instance
    // role that may create grants could hand the key to anyone.
    if (keys.stateStoreKmsKey) controlPlane.push(kmsStatement('kforgeControlPlaneUseStateKey', KMS_ACTIONS, keys.stateStoreKmsKey, partition));
  }
  // The cloud-controller-manager, the EBS CSI driver and the node-termination-handler run on the control plane.
  if (spec.cloudProvider === 'aws') controlPlane.push(...controlPlaneAddonStatements(cluster, partition));
  const nodeGroups = Object.fromEntries(nodeGroupNames.map((g) => [g, { Version: '2012-10-17' as const, Statement: [...nodeStatements(g), ...cniIamStatements(cluster, 'node', partition)] }]));
  return { controlPlane: { Version: '2012-10-17', Statement: [...controlPlane, ...ecr, ...cniIamStatements(cluster, 'control-plane', partition)] }, nodeGroups };
}

/**
 * The hosted zone the control plane publishes names in: `spec.dnsZone`, when the cluster uses Route 53 (DNS
 * type Public or Private, not gossip `.k8s.local`, not None), as the API endpoint builder decides.
 */
function clusterHostedZone(cluster: Cluster): PolicyHostedZone | undefined {
  const dnsType = cluster.spec.topology?.dns?.type ?? 'Public';
  if (dnsType === 'None' || cluster.metadata.name.endsWith('.k8s.local') || !cluster.spec.dnsZone) return undefined;
  return { dnsZone: cluster.spec.dnsZone, privateZone: dnsType === 'Private' };
}

/** What the IAM builder needs to know of the cluster's customer-managed KMS keys. */
export interface KmsInputs {
  /** The state store's key (AwsModelInputs.stateStoreKmsKey). */
  stateStoreKmsKey?: string;
}

// kops's addKMSIAMPolicies actions, less kms:CreateGrant (see above).
const KMS_ACTIONS = ['kms:Decrypt', 'kms:DescribeKey', 'kms:Encrypt', 'kms:GenerateDataKey*', 'kms:ReEncrypt*'];

/**
 * A statement allowing `actions` on one KMS key, however it is named: a key ARN as is; a key id (`1234…`,
 * `mrk-…`) as `key/<id>` in any region and account (ids are unique); an alias (`alias/x` or its ARN) by the
 * `kms:ResourceAliases` condition, since IAM authorizes a key's use against the key's ARN, never the alias's.
 */
function kmsStatement(sid: string, actions: string[], key: string, partition: string): IamStatement {
  if (/^arn:[^:]+:kms:[^:]*:[^:]*:key\//.test(key)) return { Sid: sid, Effect: 'Allow', Action: actions, Resource: key };
  const alias = /^(?:arn:[^:]+:kms:[^:]*:[^:]*:)?(alias\/.+)$/.exec(key);
  if (alias) return { Sid: sid, Effect: 'Allow', Action: actions, Resource: `arn:${partition}:kms:*:*:key/*`, Condition: { 'ForAnyValue:StringEquals': { 'kms:ResourceAliases': alias[1] } } };
  return { Sid: sid, Effect: 'Allow', Action: actions, Resource: `arn:${partition}:kms:*:*:key/${key}` };
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
