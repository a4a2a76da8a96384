import type { Cluster } from '../../api/types';
import type { IamStatement } from '../../cloud/aws/iam-policy-document';
import { nthQueueMode } from '../../expand/components/node-termination-handler';

/**
 * The control plane's statements for the addons that call AWS from it, as kops's `pkg/model/iam/iam_builder.go`
 * grants them (commit 268927e, `NodeRoleMaster.BuildAWSPolicy`): the AWS cloud-controller-manager
 * (`AddCCMPermissions`), the EBS CSI driver (`AddAWSEBSCSIDriverPermissions`, with `addSnapshotPermissions` when
 * `spec.snapshotController.enabled`, and kops's `addKMSIAMPolicies` statements) and the node-termination-handler
 * in queue-processor mode (`AddNodeTerminationHandlerSQSPermissions`). kops merges every role's actions into one
 * unconditional, one cluster-tagged and one request-tagged statement; kforge keeps one statement per addon
 * (each with a Sid), so a reader sees who needs what; the (action, resource, condition) grants are kops's.
 */
export function controlPlaneAddonStatements(cluster: Cluster, partition: string): IamStatement[] {
  const c = cluster.metadata.name;
  const spec = cluster.spec;
  const clusterTagged = { StringEquals: { 'aws:ResourceTag/KubernetesCluster': c } };
  const requestTagged = { StringEquals: { 'aws:RequestTag/KubernetesCluster': c } };
  // kops's AddEC2CreateAction: tag what one creates (only at the create), and re-tag what is the cluster's
  // (never its KubernetesCluster tag: Null RequestTag).
  const createTags = (sid: string, actions: string[], resources: string[]): IamStatement[] => {
    const arns = resources.map((r) => `arn:${partition}:ec2:*:*:${r}/*`).sort();
    return [
      { Sid: `${sid}CreateTags`, Effect: 'Allow', Action: 'ec2:CreateTags', Resource: arns, Condition: { StringEquals: { 'aws:RequestTag/KubernetesCluster': c, 'ec2:CreateAction': actions } } },
      {
        Sid: `${sid}Retag`,
        Effect: 'Allow',
        Action: ['ec2:CreateTags', 'ec2:DeleteTags'],
        Resource: arns,
        Condition: { Null: { 'aws:RequestTag/KubernetesCluster': 'true' }, StringEquals: { 'aws:ResourceTag/KubernetesCluster': c } },
      },
    ];
  };
  const sorted = (a: string[]): string[] => [...new Set(a)].sort();

  // The cloud-controller-manager: nodes, routes (kubenet), load balancers of Services and their security groups.
  // (kops adds elasticloadbalancing:SetSecurityGroups with cloudProvider.aws.nlbSecurityGroupMode: Managed, a
  // field kforge's schema does not have.)
  const ccmTagged = [...CCM_CLUSTER_TAGGED];
  if (spec.networking?.kubenet) ccmTagged.push('ec2:CreateRoute', 'ec2:DeleteRoute');
  const statements: IamStatement[] = [
    { Sid: 'kforgeCloudControllerManagerDescribe', Effect: 'Allow', Action: sorted(CCM_UNCONDITIONAL), Resource: '*' },
    { Sid: 'kforgeCloudControllerManagerClusterResources', Effect: 'Allow', Action: sorted(ccmTagged), Resource: '*', Condition: clusterTagged },
    {
      Sid: 'kforgeCloudControllerManagerCreate',
      Effect: 'Allow',
      Action: sorted(['ec2:CreateSecurityGroup', 'elasticloadbalancing:CreateListener', 'elasticloadbalancing:CreateLoadBalancer', 'elasticloadbalancing:CreateTargetGroup']),
      Resource: '*',
      Condition: requestTagged,
    },
    // A VPC takes no RequestTag and kops does not require it to be tagged: security groups in any VPC.
    { Sid: 'kforgeCloudControllerManagerCreateSecurityGroupInVpc', Effect: 'Allow', Action: 'ec2:CreateSecurityGroup', Resource: `arn:${partition}:ec2:*:*:vpc/*` },
    ...createTags('kforgeCloudControllerManagerSecurityGroup', ['CreateSecurityGroup'], ['security-group']),
  ];

  // The EBS CSI driver: volumes (and snapshots with the snapshot controller), tagged for the cluster.
  const snapshots = spec.snapshotController?.enabled === true;
  statements.push(
    { Sid: 'kforgeEbsCsiDriverDescribe', Effect: 'Allow', Action: sorted([...EBS_CSI_UNCONDITIONAL, ...(snapshots ? ['ec2:CreateSnapshot', 'ec2:DescribeSnapshots'] : [])]), Resource: '*' },
    {
      Sid: 'kforgeEbsCsiDriverClusterVolumes',
      Effect: 'Allow',
      Action: sorted(['ec2:AttachVolume', 'ec2:DeleteVolume', 'ec2:DetachVolume', 'ec2:ModifyVolume', ...(snapshots ? ['ec2:DeleteSnapshot', 'ec2:EnableFastSnapshotRestores'] : [])]),
      Resource: '*',
      Condition: clusterTagged,
    },
    { Sid: 'kforgeEbsCsiDriverCreateVolumes', Effect: 'Allow', Action: sorted(['ec2:CopyVolumes', 'ec2:CreateVolume', ...(snapshots ? ['ec2:CreateSnapshot'] : [])]), Resource: '*', Condition: requestTagged },
    ...createTags('kforgeEbsCsiDriverVolume', ['CopyVolumes', 'CreateVolume'], ['volume', 'snapshot']),
  );
  if (snapshots) {
    statements.push(
      ...createTags('kforgeEbsCsiDriverSnapshot', ['CreateSnapshot'], ['volume', 'snapshot']),
      { Sid: 'kforgeEbsCsiDriverVolumeFromSnapshot', Effect: 'Allow', Action: 'ec2:CreateVolume', Resource: `arn:${partition}:ec2:*:*:snapshot/*`, Condition: clusterTagged },
    );
  }
  // Encrypted volumes with a customer-managed key (kops's addKMSIAMPolicies): EC2 creates the grant on the
  // role's behalf (GrantIsForAWSResource: never a grant the role hands out itself), and the data-plane calls
  // pass through EC2 in the cluster's region (and S3, kops's shared statement).
  const region = clusterRegion(cluster);
  statements.push({ Sid: 'kforgeEbsCsiDriverKmsGrant', Effect: 'Allow', Action: 'kms:CreateGrant', Resource: '*', Condition: { Bool: { 'kms:GrantIsForAWSResource': 'true' } } });
  if (region) {
    statements.push({
      Sid: 'kforgeEbsCsiDriverKms',
      Effect: 'Allow',
      Action: ['kms:Decrypt', 'kms:DescribeKey', 'kms:Encrypt', 'kms:GenerateDataKey*', 'kms:ReEncrypt*'],
      Resource: '*',
      Condition: { StringLike: { 'kms:ViaService': [`ec2.${region}.amazonaws.com`, 's3.*.amazonaws.com'] } },
    });
  }

  // The node-termination-handler in queue-processor mode: read the queue, complete the cluster's lifecycle actions.
  if (nthQueueMode(cluster)) {
    statements.push(
      // SQS permissions take no conditions (kops's comment): the queue's own policy lets only EventBridge write.
      { Sid: 'kforgeNodeTerminationHandler', Effect: 'Allow', Action: sorted(NTH_UNCONDITIONAL), Resource: '*' },
      { Sid: 'kforgeNodeTerminationHandlerLifecycle', Effect: 'Allow', Action: 'autoscaling:CompleteLifecycleAction', Resource: '*', Condition: clusterTagged },
    );
  }
  return statements;
}

/** The cluster's region, from its first subnet's zone (`us-east-1a` → `us-east-1`). */
function clusterRegion(cluster: Cluster): string | undefined {
  const zone = cluster.spec.subnets?.find((s) => s.zone)?.zone;
  return zone ? zone.replace(/[a-z]$/, '') : undefined;
}

// kops's AddCCMPermissions, unconditional (Describe calls take no resource-level permissions).
const CCM_UNCONDITIONAL = [
  'autoscaling:DescribeAutoScalingGroups',
  'autoscaling:DescribeTags',
  'ec2:DescribeAvailabilityZones',
  'ec2:DescribeInstanceTopology',
  'ec2:DescribeInstances',
  'ec2:DescribeRegions',
  'ec2:DescribeRouteTables',
  'ec2:DescribeSecurityGroups',
  'ec2:DescribeSubnets',
  'ec2:DescribeVpcs',
  'elasticloadbalancing:DescribeListeners',
  'elasticloadbalancing:DescribeLoadBalancerAttributes',
  'elasticloadbalancing:DescribeLoadBalancerPolicies',
  'elasticloadbalancing:DescribeLoadBalancers',
  'elasticloadbalancing:DescribeTargetGroupAttributes',
  'elasticloadbalancing:DescribeTargetGroups',
  'elasticloadbalancing:DescribeTargetHealth',
  'iam:CreateServiceLinkedRole',
  'kms:DescribeKey',
];

// kops's AddCCMPermissions, on resources tagged KubernetesCluster=<cluster> only.
const CCM_CLUSTER_TAGGED = [
  'ec2:AuthorizeSecurityGroupIngress',
  'ec2:DeleteSecurityGroup',
  'ec2:ModifyInstanceAttribute',
  'ec2:RevokeSecurityGroupIngress',
  'elasticloadbalancing:AddTags',
  'elasticloadbalancing:ApplySecurityGroupsToLoadBalancer',
  'elasticloadbalancing:AttachLoadBalancerToSubnets',
  'elasticloadbalancing:ConfigureHealthCheck',
  'elasticloadbalancing:CreateLoadBalancerListeners',
  'elasticloadbalancing:CreateLoadBalancerPolicy',
  'elasticloadbalancing:DeleteListener',
  'elasticloadbalancing:DeleteLoadBalancer',
  'elasticloadbalancing:DeleteLoadBalancerListeners',
  'elasticloadbalancing:DeleteTargetGroup',
  'elasticloadbalancing:DeregisterInstancesFromLoadBalancer',
  'elasticloadbalancing:DeregisterTargets',
  'elasticloadbalancing:DetachLoadBalancerFromSubnets',
  'elasticloadbalancing:ModifyListener',
  'elasticloadbalancing:ModifyLoadBalancerAttributes',
  'elasticloadbalancing:ModifyTargetGroup',
  'elasticloadbalancing:ModifyTargetGroupAttributes',
  'elasticloadbalancing:RegisterInstancesWithLoadBalancer',
  'elasticloadbalancing:RegisterTargets',
  'elasticloadbalancing:SetLoadBalancerPoliciesForBackendServer',
  'elasticloadbalancing:SetLoadBalancerPoliciesOfListener',
];

// kops's AddAWSEBSCSIDriverPermissions, unconditional.
const EBS_CSI_UNCONDITIONAL = [
  'ec2:DescribeAvailabilityZones',
  'ec2:DescribeInstanceTypes',
  'ec2:DescribeInstances',
  'ec2:DescribeTags',
  'ec2:DescribeVolumeStatus',
  'ec2:DescribeVolumes',
  'ec2:DescribeVolumesModifications',
];

// kops's AddNodeTerminationHandlerSQSPermissions, unconditional.
const NTH_UNCONDITIONAL = ['autoscaling:DescribeAutoScalingInstances', 'autoscaling:DescribeTags', 'ec2:DescribeInstances', 'sqs:DeleteMessage', 'sqs:ReceiveMessage'];
