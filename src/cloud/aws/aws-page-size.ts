/**
 * The page size every paged AWS list call of kforge asks for, by API call: AWS's maximum for each.
 * Asked for explicitly by the inventory (update) and the cluster-resource listers (delete) alike, because
 * a call without it gets the service's default page, and moto_server 5.2.1 cuts DescribeLaunchTemplates at
 * its default of 15 WITHOUT a NextToken: `delete cluster` then left every template past the 15th.
 */
export const AWS_PAGE_SIZE = {
  DescribeInstances: 1000,
  DescribeVolumes: 500,
  DescribeVpcs: 1000,
  DescribeSubnets: 1000,
  DescribeInternetGateways: 1000,
  DescribeRouteTables: 100,
  DescribeSecurityGroups: 1000,
  DescribeNatGateways: 1000,
  DescribeLaunchTemplates: 200,
  DescribeLaunchTemplateVersions: 200,
  DescribeNetworkInterfaces: 1000,
  /** Auto Scaling's MaxRecords. */
  DescribeAutoScalingGroups: 100,
  /** ELBv2's PageSize. */
  DescribeLoadBalancers: 400,
  DescribeTargetGroups: 400,
  DescribeListeners: 400,
  /** IAM's MaxItems. */
  GetAccountAuthorizationDetails: 1000,
  ListRolePolicies: 1000,
  ListAttachedRolePolicies: 1000,
} as const;
