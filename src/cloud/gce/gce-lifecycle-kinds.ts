/**
 * The names `update cluster --lifecycle-overrides` accepts on GCE, mapped to kforge's GCE task kinds: kops's
 * task type names (`upup/pkg/fi/cloudup/gcetasks`), so a kops command line works unchanged, and kforge's own
 * kind names where they differ, as the plan prints them. A test checks that every GCE task kind is here.
 */
export const GCE_LIFECYCLE_KINDS: Readonly<Record<string, string>> = {
  // kops's names
  Address: 'Address',
  BackendService: 'BackendService',
  Disk: 'Disk',
  FirewallRule: 'FirewallRule',
  ForwardingRule: 'ForwardingRule',
  HTTPHealthcheck: 'HttpHealthCheck',
  HealthCheck: 'HealthCheck',
  InstanceGroupManager: 'InstanceGroupManager',
  InstanceTemplate: 'InstanceTemplate',
  Network: 'Network',
  Router: 'Router',
  ServiceAccount: 'ServiceAccount',
  Subnet: 'Subnetwork',
  TargetPool: 'TargetPool',
  // kforge's own names where they differ from kops's
  // The Cloud DNS placeholders (kops makes them outside its task graph, so it has no name for them).
  DNSRecord: 'DNSRecord',
  HttpHealthCheck: 'HttpHealthCheck',
  Subnetwork: 'Subnetwork',
};
