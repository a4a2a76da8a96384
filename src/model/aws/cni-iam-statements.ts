import type { Cluster } from '../../api/types';
import type { IamStatement } from '../../cloud/aws/iam-policy-document';

/** kops's addAmazonVPCCNIPermissions (pkg/model/iam/iam_builder.go at 268927e): aws-node manages the node's ENIs and secondary addresses. */
const AMAZON_VPC_CNI_ACTIONS = [
  'ec2:AssignPrivateIpAddresses',
  'ec2:AttachNetworkInterface',
  'ec2:CreateNetworkInterface',
  'ec2:DeleteNetworkInterface',
  'ec2:DescribeInstanceTypes',
  'ec2:DescribeInstances',
  'ec2:DescribeNetworkInterfaces',
  'ec2:DescribeSecurityGroups',
  'ec2:DescribeSubnets',
  'ec2:DescribeTags',
  'ec2:DetachNetworkInterface',
  'ec2:ModifyNetworkInterfaceAttribute',
  'ec2:UnassignPrivateIpAddresses',
];

/** kops's addCiliumEniPermissions: the cilium operator (on the control plane) allocates ENIs and addresses for pods. */
const CILIUM_ENI_ACTIONS = [
  'ec2:AssignPrivateIpAddresses',
  'ec2:AttachNetworkInterface',
  'ec2:CreateNetworkInterface',
  'ec2:CreateTags',
  'ec2:DeleteNetworkInterface',
  'ec2:DescribeInstances',
  'ec2:DescribeNetworkInterfaces',
  'ec2:DescribeRouteTables',
  'ec2:DescribeSecurityGroups',
  'ec2:DescribeSubnets',
  'ec2:DescribeTags',
  'ec2:DescribeVpcs',
  'ec2:ModifyNetworkInterfaceAttribute',
  'ec2:UnassignPrivateIpAddresses',
];

/**
 * The IAM a CNI needs on a role, as kops's iam_builder.go grants it: amazonvpc's ENI permissions on every role;
 * Calico's source/destination-check switch (`ModifyNetworkInterfaceAttribute`) on every role unless
 * `awsSrcDstCheck: DoNothing`; Cilium's ENI IPAM permissions on the control plane (its operator runs there), and on
 * every role `DescribeInstanceTypes`, which nodeup calls to size kubelet's max pods for ENI IPAM (addNodeupPermissions);
 * kube-router's `ModifyInstanceAttribute` on the cluster's instances, from nodes.
 * The ENI actions support no resource-level conditions that would still let the CNI work; kops grants them on '*'.
 */
export function cniIamStatements(cluster: Cluster, role: 'control-plane' | 'node', partition: string): IamStatement[] {
  const n = cluster.spec.networking;
  const out: IamStatement[] = [];
  if (n?.amazonvpc) {
    out.push({ Sid: 'kforgeAmazonVpcCniEnis', Effect: 'Allow', Action: AMAZON_VPC_CNI_ACTIONS, Resource: '*' });
    out.push({ Sid: 'kforgeAmazonVpcCniTagEnis', Effect: 'Allow', Action: ['ec2:CreateTags'], Resource: `arn:${partition}:ec2:*:*:network-interface/*` });
  }
  if (n?.cilium?.ipam === 'eni') {
    if (role === 'control-plane') out.push({ Sid: 'kforgeCiliumEniIpam', Effect: 'Allow', Action: CILIUM_ENI_ACTIONS, Resource: '*' });
    out.push({ Sid: 'kforgeCiliumEniMaxPods', Effect: 'Allow', Action: ['ec2:DescribeInstanceTypes'], Resource: '*' });
  }
  if (n?.calico && n.calico.awsSrcDstCheck !== 'DoNothing') {
    out.push({ Sid: 'kforgeCalicoSrcDstCheck', Effect: 'Allow', Action: ['ec2:DescribeInstances', 'ec2:ModifyNetworkInterfaceAttribute'], Resource: '*' });
  }
  // kops's addKubeRouterSrcDstCheckPermissions, on nodes only: kube-router turns off its own instance's
  // source/destination check; only the cluster's instances.
  if (n?.kuberouter && role === 'node') {
    out.push({
      Sid: 'kforgeKubeRouterSrcDstCheck',
      Effect: 'Allow',
      Action: ['ec2:ModifyInstanceAttribute'],
      Resource: '*',
      Condition: { StringEquals: { 'aws:ResourceTag/KubernetesCluster': cluster.metadata.name } },
    });
  }
  return out;
}
