/**
 * The names `update cluster --lifecycle-overrides` accepts on AWS, mapped to kforge's task kinds: kops's
 * task type names (`upup/pkg/fi/cloudup/awstasks`), so a kops command line works unchanged, and kforge's own
 * kind names where they differ, as the plan prints them. A test checks that every AWS task kind is here.
 */
export const AWS_LIFECYCLE_KINDS: Readonly<Record<string, string>> = {
  // kops's names
  AutoscalingGroup: 'AutoScalingGroup',
  AutoscalingLifecycleHook: 'AutoScalingLifecycleHook',
  DNSName: 'DNSRecord',
  EBSVolume: 'EBSVolume',
  EventBridgeRule: 'EventBridgeRule',
  EventBridgeTarget: 'EventBridgeTarget',
  ElasticIP: 'ElasticIP',
  IAMInstanceProfile: 'IAMInstanceProfile',
  IAMInstanceProfileRole: 'IAMInstanceProfileRole',
  IAMRole: 'IAMRole',
  IAMRolePolicy: 'IAMRolePolicy',
  InternetGateway: 'InternetGateway',
  LaunchTemplate: 'LaunchTemplate',
  NatGateway: 'NatGateway',
  NetworkLoadBalancer: 'NetworkLoadBalancer',
  Route: 'Route',
  RouteTable: 'RouteTable',
  RouteTableAssociation: 'RouteTableAssociation',
  SecurityGroup: 'SecurityGroup',
  SecurityGroupRule: 'SecurityGroupRule',
  SQS: 'SQSQueue',
  SSHKey: 'EC2KeyPair',
  Subnet: 'Subnet',
  TargetGroup: 'TargetGroup',
  VPC: 'VPC',
  // kforge's names where kops has none or another (kops folds listeners into its load balancer task)
  AutoScalingGroup: 'AutoScalingGroup',
  AutoScalingLifecycleHook: 'AutoScalingLifecycleHook',
  DNSRecord: 'DNSRecord',
  EC2KeyPair: 'EC2KeyPair',
  Listener: 'Listener',
  SQSQueue: 'SQSQueue',
};
