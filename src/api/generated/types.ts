/* eslint-disable */
/**
 * GENERATED FILE - do not edit by hand.
 * Generated from the JSON Schemas in schemas/ (cluster, instancegroup and components .schema.json)
 * by `npm run generate` (scripts/generate-types.js). Edit the schemas and regenerate instead.
 */

/**
 * SubnetType is the role of a subnet: Public, Private (behind NAT), Utility (public, for load balancers and bastions) or DualStack.
 *
 * This interface was referenced by `Cluster`'s JSON-Schema
 * via the `definition` "SubnetType".
 */
export type SubnetType = "Public" | "Private" | "Utility" | "DualStack";
/**
 * LoadBalancerType is whether a load balancer is internet-facing (Public) or internal (Internal).
 *
 * This interface was referenced by `Cluster`'s JSON-Schema
 * via the `definition` "LoadBalancerType".
 */
export type LoadBalancerType = "Public" | "Internal";
/**
 * DNSType is the kind of DNS zone the cluster uses.
 *
 * This interface was referenced by `Cluster`'s JSON-Schema
 * via the `definition` "DNSType".
 */
export type DNSType = "Public" | "Private" | "None";
/**
 * InstanceGroupRole is the role of the nodes of an InstanceGroup (Master is the pre-1.26 name of ControlPlane).
 *
 * This interface was referenced by `Cluster`'s JSON-Schema
 * via the `definition` "InstanceGroupRole".
 */
export type InstanceGroupRole = "ControlPlane" | "Master" | "Node" | "Bastion" | "APIServer";
/**
 * EtcdProviderType describes how etcd is provisioned (Manager, or the removed Legacy).
 *
 * This interface was referenced by `Cluster`'s JSON-Schema
 * via the `definition` "EtcdProviderType".
 */
export type EtcdProviderType = "Manager" | "Legacy";
/**
 * ExternalDNSProvider selects the DNS controller implementation.
 *
 * This interface was referenced by `Cluster`'s JSON-Schema
 * via the `definition` "ExternalDNSProvider".
 */
export type ExternalDNSProvider = "dns-controller" | "external-dns";
/**
 * LoadBalancerClass is the AWS load balancer class: Classic (ELB) or Network (NLB).
 *
 * This interface was referenced by `Cluster`'s JSON-Schema
 * via the `definition` "LoadBalancerClass".
 */
export type LoadBalancerClass = "Classic" | "Network";
/**
 * InstanceManager is what manages the lifecycle of an InstanceGroup's nodes.
 *
 * This interface was referenced by `Cluster`'s JSON-Schema
 * via the `definition` "InstanceManager".
 */
export type InstanceManager = "CloudGroup" | "Karpenter";

/**
 * A kops Cluster (kops.k8s.io/v1alpha2): the cluster-wide configuration. Field names are exactly kops's, so kops manifests validate unchanged.
 */
export interface Cluster {
  /**
   * APIVersion of the object: kops.k8s.io/v1alpha2 (kops's own) or kforge.dev/v1alpha2 (same schema). Required.
   */
  apiVersion: "kops.k8s.io/v1alpha2" | "kforge.dev/v1alpha2";
  /**
   * Kind of the object; always Cluster. Required.
   */
  kind: "Cluster";
  /**
   * Metadata of the object; metadata.name is required. Required.
   */
  metadata: ObjectMeta;
  /**
   * Spec is the cluster configuration. Required.
   */
  spec: ClusterSpec;
}
/**
 * ObjectMeta is the subset of Kubernetes object metadata that kops manifests carry.
 *
 * This interface was referenced by `Cluster`'s JSON-Schema
 * via the `definition` "ObjectMeta".
 */
export interface ObjectMeta {
  /**
   * Name of the object (the cluster name, or the instance group name). Required.
   */
  name: string;
  /**
   * Labels of the object; instance groups carry kops.k8s.io/cluster: <cluster name>. Default: unset.
   */
  labels?: {
    [k: string]: string;
  };
  /**
   * Annotations of the object. Default: unset.
   */
  annotations?: {
    [k: string]: string;
  };
  /**
   * CreationTimestamp as written by kops; accepted and ignored by kforge. Default: unset.
   */
  creationTimestamp?: string | null;
}
/**
 * ClusterSpec defines the configuration for a cluster.
 *
 * This interface was referenced by `Cluster`'s JSON-Schema
 * via the `definition` "ClusterSpec".
 */
export interface ClusterSpec {
  /**
   * The Channel we are following. Default: stable.
   */
  channel?: string;
  /**
   * Additional addons that should be installed on the cluster. Default: unset.
   */
  addons?: AddonSpec[];
  /**
   * ConfigBase is the path where we store configuration for the cluster. This might be different that the location when the cluster spec itself is stored, both because this must be accessible to the cluster, and because it might be on a different cloud or storage system (etcd vs S3). Default: the state store path of the cluster (<state store>/<cluster name>).
   */
  configBase?: string;
  /**
   * The CloudProvider to use (aws or gce). Default: unset (required; kforge supports aws and gce).
   */
  cloudProvider?: "aws" | "gce";
  /**
   * GossipConfig for the cluster assuming the use of gossip DNS. Default: unset.
   */
  gossipConfig?: GossipConfig;
  /**
   * Container runtime to use for Kubernetes. Default: containerd.
   */
  containerRuntime?: string;
  /**
   * The version of kubernetes to install (optional, and can be a "spec" like stable). Default: the version recommended by the channel.
   */
  kubernetesVersion?: string;
  /**
   * Configuration of subnets we are targeting. Default: unset.
   */
  subnets?: ClusterSubnetSpec[];
  /**
   * Project is the cloud project we should use, required on GCE. Default: unset.
   */
  project?: string;
  /**
   * MasterPublicName is the external DNS name for the master nodes. Default: api.<cluster name>.
   */
  masterPublicName?: string;
  /**
   * MasterInternalName is the internal DNS name for the master nodes. Default: api.internal.<cluster name>.
   */
  masterInternalName?: string;
  /**
   * NetworkCIDR is the CIDR used for the AWS VPC / GCE Network, or otherwise allocated to k8s. This is a real CIDR, not the internal k8s network. On AWS, it maps to the VPC CIDR. It is not required on GCE. Default: 172.20.0.0/16.
   */
  networkCIDR?: string;
  /**
   * AdditionalNetworkCIDRs is a list of additional CIDR used for the AWS VPC or otherwise allocated to k8s. This is a real CIDR, not the internal k8s network. On AWS, it maps to any additional CIDRs added to a VPC. Default: unset.
   */
  additionalNetworkCIDRs?: string[];
  /**
   * NetworkID is an identifier of a network, if we want to reuse/share an existing network (e.g. an AWS VPC). Default: unset (a new network is created).
   */
  networkID?: string;
  /**
   * Topology defines the type of network topology to use on the cluster - default public. This is heavily weighted towards AWS for the time being, but should also be agnostic enough to port out to GCE later if needed. Default: public masters and nodes with a Public DNS zone.
   */
  topology?: TopologySpec;
  /**
   * SecretStore is the VFS path to where secrets are stored. Default: <configBase>/secrets.
   */
  secretStore?: string;
  /**
   * KeyStore is the VFS path to where SSL keys and certificates are stored. Default: <configBase>/pki.
   */
  keyStore?: string;
  /**
   * ConfigStore is the VFS path to where the configuration (Cluster, InstanceGroups etc) is stored. Default: configBase.
   */
  configStore?: string;
  /**
   * DNSZone is the DNS zone we should use when configuring DNS. This is because some clouds let us define a managed zone foo.bar, and then have kubernetes.dev.foo.bar, without needing to define dev.foo.bar as a hosted zone. DNSZone will probably be a suffix of the MasterPublicName and MasterInternalName. Note that DNSZone can either by the host name of the zone (containing dots), or can be an identifier for the zone. Default: the longest hosted zone that is a suffix of the cluster name.
   */
  dnsZone?: string;
  /**
   * DNSControllerGossipConfig for the cluster assuming the use of gossip DNS. Default: unset.
   */
  dnsControllerGossipConfig?: DNSControllerGossipConfig;
  /**
   * AdditionalSANs adds additional Subject Alternate Names to apiserver cert that kops generates. Default: unset.
   */
  additionalSans?: string[];
  /**
   * ClusterDNSDomain is the suffix we use for internal DNS names (normally cluster.local). Default: cluster.local.
   */
  clusterDNSDomain?: string;
  /**
   * ServiceClusterIPRange is the CIDR, from the internal network, where we allocate IPs for services. Default: derived from nonMasqueradeCIDR (its first eighth).
   */
  serviceClusterIPRange?: string;
  /**
   * PodCIDR is the CIDR from which we allocate IPs for pods. Default: derived from nonMasqueradeCIDR (its second half).
   */
  podCIDR?: string;
  /**
   * NonMasqueradeCIDR is the CIDR for the internal k8s network (on which pods & services live). It cannot overlap ServiceClusterIPRange. Default: 100.64.0.0/10.
   */
  nonMasqueradeCIDR?: string;
  /**
   * SSHAccess determines the permitted access to SSH. Currently only a single CIDR is supported (though a richer grammar could be added in future). Entries are IPv4/IPv6 CIDRs or, on AWS, managed prefix list ids (pl-…). Default: unset (no SSH access is opened; kops create cluster writes 0.0.0.0/0).
   */
  sshAccess?: string[];
  /**
   * NodePortAccess is a list of the CIDRs that can access the node ports range (30000-32767). Entries are IPv4/IPv6 CIDRs or, on AWS, managed prefix list ids (pl-…). Default: unset.
   */
  nodePortAccess?: string[];
  /**
   * HTTPProxy defines connection information to support use of a private cluster behind an forward HTTP Proxy. Default: unset.
   */
  egressProxy?: EgressProxySpec;
  /**
   * SSHKeyName specifies a preexisting SSH key to use. Default: unset (the cluster's SSH public key secret is imported).
   */
  sshKeyName?: string;
  /**
   * KubernetesAPIAccess determines the permitted access to the API endpoints (master HTTPS). Currently only a single CIDR is supported (though a richer grammar could be added in future). Entries are IPv4/IPv6 CIDRs or, on AWS, managed prefix list ids (pl-…). Default: unset (no API access is opened; kops create cluster writes 0.0.0.0/0).
   */
  kubernetesApiAccess?: string[];
  /**
   * IsolateMasters determines whether we should lock down masters so that they are not on the pod network. true is the kube-up behaviour, but it is very surprising: it means that daemonsets only work on the master if they have hostNetwork=true. false is now the default. Default: false.
   */
  isolateMasters?: boolean;
  /**
   * UpdatePolicy determines the policy for applying upgrades automatically. Valid values: 'automatic' (default): apply updates automatically (apply OS security upgrades, avoiding rebooting when possible) 'external': do not apply updates automatically; they are applied manually or by an external system. Default: automatic.
   */
  updatePolicy?: "automatic" | "external";
  /**
   * ExternalPolicies allows the insertion of pre-existing managed policies on IG Roles. Default: unset.
   */
  externalPolicies?: {
    [k: string]: string[];
  };
  /**
   * Additional policies to add for roles. Default: unset.
   */
  additionalPolicies?: {
    [k: string]: string;
  };
  /**
   * A collection of files assets for deployed cluster wide. Default: unset.
   */
  fileAssets?: FileAssetSpec[];
  /**
   * EtcdClusters stores the configuration for each cluster. Default: unset (kops create cluster writes the main and events clusters).
   */
  etcdClusters?: EtcdClusterSpec[];
  /**
   * Containerd is the containerd configuration for all nodes. Default: unset.
   */
  containerd?: ContainerdConfig;
  /**
   * Docker is the (legacy) docker configuration. Default: unset.
   */
  docker?: DockerConfig;
  /**
   * KubeDNS is the cluster DNS (CoreDNS / kube-dns) configuration. Default: unset.
   */
  kubeDNS?: KubeDNSConfig;
  /**
   * KubeAPIServer is the kube-apiserver configuration. Default: unset.
   */
  kubeAPIServer?: KubeAPIServerConfig;
  /**
   * KubeControllerManager is the kube-controller-manager configuration. Default: unset.
   */
  kubeControllerManager?: KubeControllerManagerConfig;
  /**
   * ExternalCloudControllerManager is the (external) cloud-controller-manager configuration. Default: unset.
   */
  cloudControllerManager?: CloudControllerManagerConfig;
  /**
   * KubeScheduler is the kube-scheduler configuration. Default: unset.
   */
  kubeScheduler?: KubeSchedulerConfig;
  /**
   * KubeProxy is the kube-proxy configuration. Default: unset.
   */
  kubeProxy?: KubeProxyConfig;
  /**
   * Kubelet is the kubelet configuration for nodes not belonging to the control plane. It can be overridden by the kubelet configuration specified in the instance group. Default: unset.
   */
  kubelet?: KubeletConfigSpec;
  /**
   * MasterKubelet is the kubelet configuration for nodes belonging to the control plane. It can be overridden by the kubelet configuration specified in the instance group. Default: unset.
   */
  masterKubelet?: KubeletConfigSpec;
  /**
   * ControlPlaneKubelet is the kops v1alpha3 name of masterKubelet (accepted by kforge as an alias; takes precedence over masterKubelet). Default: unset.
   */
  controlPlaneKubelet?: KubeletConfigSpec;
  /**
   * CloudConfig is the cloud provider configuration. Default: unset.
   */
  cloudConfig?: CloudConfiguration;
  /**
   * ExternalDNS is the dns-controller / external-dns configuration. Default: unset.
   */
  externalDns?: ExternalDNSConfig;
  /**
   * NTP is the NTP configuration. Default: unset.
   */
  ntp?: NTPConfig;
  /**
   * Packages specifies additional packages to be installed on all nodes. Default: unset.
   */
  packages?: string[];
  /**
   * NodeIdentity (kforge extension; kops has no such field) decides how the node-identity service (kops-controller) trusts a worker asking for its kubelet certificate. Default: mode Automatic.
   */
  nodeIdentity?: NodeIdentitySpec;
  /**
   * NodeTerminationHandler determines the node termination handler configuration. Default: unset.
   */
  nodeTerminationHandler?: NodeTerminationHandlerConfig;
  /**
   * NodeProblemDetector determines the node problem detector configuration. Default: unset.
   */
  nodeProblemDetector?: NodeProblemDetectorConfig;
  /**
   * MetricsServer determines the metrics server configuration. Default: unset.
   */
  metricsServer?: MetricsServerConfig;
  /**
   * CertManager determines the cert manager configuration. Default: unset.
   */
  certManager?: CertManagerConfig;
  /**
   * AWSLoadbalancerControllerConfig determines the AWS LB controller configuration. Default: unset.
   */
  awsLoadBalancerController?: AWSLoadBalancerControllerConfig;
  /**
   * Networking configuration. Default: unset (kops create cluster writes cilium).
   */
  networking?: NetworkingSpec;
  /**
   * API field controls how the API is exposed outside the cluster. Default: dns {} (the API is reached through DNS records of the control-plane nodes).
   */
  api?: AccessSpec;
  /**
   * Authentication field controls how the cluster is configured for authentication. Default: unset.
   */
  authentication?: AuthenticationSpec;
  /**
   * Authorization field controls how the cluster is configured for authorization. Default: rbac {}.
   */
  authorization?: AuthorizationSpec;
  /**
   * NodeAuthorization defined the custom node authorization configuration. Default: unset.
   */
  nodeAuthorization?: NodeAuthorizationSpec;
  /**
   * CloudLabels defines additional tags or labels on cloud provider resources. Default: unset.
   */
  cloudLabels?: {
    [k: string]: string;
  };
  /**
   * NodeLabels are Kubernetes labels applied to every node of the cluster (kforge extension; instance group nodeLabels take precedence). Default: unset.
   */
  nodeLabels?: {
    [k: string]: string;
  };
  /**
   * Hooks for custom actions e.g. on first installation. Default: unset.
   */
  hooks?: HookSpec[];
  /**
   * Alternative locations for files and containers. Default: unset.
   */
  assets?: Assets;
  /**
   * IAM field adds control over the IAM security policies applied to resources. Default: unset (legacy: false, allowContainerRegistry: false).
   */
  iam?: IAMSpec;
  /**
   * EncryptionConfig holds the encryption config. Default: false.
   */
  encryptionConfig?: boolean;
  /**
   * DisableSubnetTags controls if subnets are tagged in AWS. Default: false.
   */
  DisableSubnetTags?: boolean;
  /**
   * Target allows for us to nest extra config for targets such as terraform. Default: unset.
   */
  target?: TargetSpec;
  /**
   * UseHostCertificates will mount /etc/ssl/certs to inside needed containers. This is needed if some APIs do have self-signed certs. Default: false.
   */
  useHostCertificates?: boolean;
  /**
   * SysctlParameters will configure kernel parameters using sysctl(8). When specified, each parameter must follow the form variable=value, the way it would appear in sysctl.conf. Default: unset.
   */
  sysctlParameters?: string[];
  /**
   * RollingUpdate defines the default rolling-update settings for instance groups. Default: unset.
   */
  rollingUpdate?: RollingUpdate;
  /**
   * ClusterAutoscaler defines the cluster autoscaler configuration. Default: unset.
   */
  clusterAutoscaler?: ClusterAutoscalerConfig;
  /**
   * WarmPool defines the default warm pool settings for instance groups (AWS only). Default: unset.
   */
  warmPool?: WarmPoolSpec;
  /**
   * ServiceAccountIssuerDiscovery configures the OIDC Issuer for ServiceAccounts. Default: unset.
   */
  serviceAccountIssuerDiscovery?: ServiceAccountIssuerDiscoveryConfig;
  /**
   * SnapshotController defines the CSI Snapshot Controller configuration. Default: unset.
   */
  snapshotController?: SnapshotControllerConfig;
  /**
   * Karpenter defines the Karpenter configuration. Default: unset.
   */
  karpenter?: KarpenterConfig;
  /**
   * PodIdentityWebhook determines the EKS Pod Identity Webhook configuration. Default: unset.
   */
  podIdentityWebhook?: PodIdentityWebhookSpec;
  /**
   * GCEServiceAccount is the email of the service account GCE instances run as (kops v1alpha2; `default` is the project's default compute service account). Default: unset (one service account per role).
   */
  gceServiceAccount?: string;
}
/**
 * AddonSpec defines an addon that we want to install in the cluster.
 *
 * This interface was referenced by `Cluster`'s JSON-Schema
 * via the `definition` "AddonSpec".
 */
export interface AddonSpec {
  /**
   * Manifest is a path to the manifest that defines the addon. Default: unset.
   */
  manifest?: string;
}
/**
 * GossipConfig configures gossip DNS.
 *
 * This interface was referenced by `Cluster`'s JSON-Schema
 * via the `definition` "GossipConfig".
 */
export interface GossipConfig {
  /**
   * Protocol is the gossip protocol. Default: unset.
   */
  protocol?: string;
  /**
   * Listen is the gossip listen address. Default: unset.
   */
  listen?: string;
  /**
   * Secret is the gossip shared secret. Default: unset.
   */
  secret?: string;
  /**
   * Secondary configures a secondary gossip protocol. Default: unset.
   */
  secondary?: GossipConfigSecondary;
}
/**
 * GossipConfigSecondary configures a secondary gossip protocol.
 *
 * This interface was referenced by `Cluster`'s JSON-Schema
 * via the `definition` "GossipConfigSecondary".
 */
export interface GossipConfigSecondary {
  /**
   * Protocol is the gossip protocol. Default: unset.
   */
  protocol?: string;
  /**
   * Listen is the gossip listen address. Default: unset.
   */
  listen?: string;
  /**
   * Secret is the gossip shared secret. Default: unset.
   */
  secret?: string;
}
/**
 * ClusterSubnetSpec defines a subnet of the cluster network.
 *
 * This interface was referenced by `Cluster`'s JSON-Schema
 * via the `definition` "ClusterSubnetSpec".
 */
export interface ClusterSubnetSpec {
  /**
   * Name is the name of the subnet, referenced by instance groups. Required.
   */
  name: string;
  /**
   * Zone is the zone the subnet is in, set for subnets that are zonally scoped. Default: unset (required for zonal subnets, e.g. on AWS).
   */
  zone?: string;
  /**
   * Region is the region the subnet is in, set for subnets that are regionally scoped. Default: unset.
   */
  region?: string;
  /**
   * CIDR is the IPv4 CIDR block assigned to the subnet. Default: allocated from networkCIDR.
   */
  cidr?: string;
  /**
   * IPv6CIDR is the IPv6 CIDR block assigned to the subnet (kops also accepts the /64#N sub-allocation notation). Default: unset.
   */
  ipv6CIDR?: string;
  /**
   * ProviderID is the cloud provider id for the objects associated with the zone (the subnet on AWS). Default: unset.
   */
  id?: string;
  /**
   * Egress defines the method of traffic egress for this subnet. Default: unset (a NAT gateway is created for Private subnets).
   */
  egress?: string;
  /**
   * Type define which one if the internal types (public, utility, private) the network is. Default: unset (required).
   */
  type?: SubnetType;
  /**
   * PublicIP to attach to NatGateway. Default: unset.
   */
  publicIP?: string;
  /**
   * AdditionalRoutes to attach to the subnet's route table. Default: unset.
   */
  additionalRoutes?: RouteSpec[];
}
/**
 * RouteSpec is an additional route of a subnet's route table.
 *
 * This interface was referenced by `Cluster`'s JSON-Schema
 * via the `definition` "RouteSpec".
 */
export interface RouteSpec {
  /**
   * CIDR destination of the route. Default: unset.
   */
  cidr?: string;
  /**
   * Target of the route. Default: unset.
   */
  target?: string;
}
/**
 * TopologySpec defines the network topology of the cluster.
 *
 * This interface was referenced by `Cluster`'s JSON-Schema
 * via the `definition` "TopologySpec".
 */
export interface TopologySpec {
  /**
   * The environment to launch the Kubernetes masters in public|private. Default: public.
   */
  masters?: "public" | "private";
  /**
   * ControlPlane is the kops v1alpha3 name of masters (accepted by kforge as an alias). Default: the value of masters.
   */
  controlPlane?: "public" | "private";
  /**
   * The environment to launch the Kubernetes nodes in public|private. Default: public.
   */
  nodes?: "public" | "private";
  /**
   * Bastion provide an external facing point of entry into a network containing private network instances. This host can provide a single point of fortification or audit and can be started and stopped to enable or disable inbound SSH communication from the Internet, some call bastion as the "jump server". Default: unset.
   */
  bastion?: BastionSpec;
  /**
   * DNS configures options relating to DNS, in particular whether we use a public or a private hosted zone. Default: type Public.
   */
  dns?: DNSSpec;
}
/**
 * BastionSpec configures the bastion hosts.
 *
 * This interface was referenced by `Cluster`'s JSON-Schema
 * via the `definition` "BastionSpec".
 */
export interface BastionSpec {
  /**
   * PublicName is the DNS name of the bastion load balancer. Default: bastion.<cluster name>.
   */
  bastionPublicName?: string;
  /**
   * IdleTimeoutSeconds is unused. Default: unset.
   */
  idleTimeoutSeconds?: number;
  /**
   * LoadBalancer configures the bastion load balancer. Default: unset.
   */
  loadBalancer?: BastionLoadBalancerSpec;
}
/**
 * BastionLoadBalancerSpec configures the bastion load balancer.
 *
 * This interface was referenced by `Cluster`'s JSON-Schema
 * via the `definition` "BastionLoadBalancerSpec".
 */
export interface BastionLoadBalancerSpec {
  /**
   * AdditionalSecurityGroups is unused. Default: unset.
   */
  additionalSecurityGroups?: string[];
  /**
   * Type of load balancer to create, it can be Public or Internal. Default: Public.
   */
  type?: LoadBalancerType;
}
/**
 * DNSSpec configures the DNS zone type.
 *
 * This interface was referenced by `Cluster`'s JSON-Schema
 * via the `definition` "DNSSpec".
 */
export interface DNSSpec {
  /**
   * Type is the type of DNS zone: Public, Private or None (gossip / no DNS). Default: Public.
   */
  type?: DNSType;
}
/**
 * DNSControllerGossipConfig configures gossip for dns-controller.
 *
 * This interface was referenced by `Cluster`'s JSON-Schema
 * via the `definition` "DNSControllerGossipConfig".
 */
export interface DNSControllerGossipConfig {
  /**
   * Protocol is the gossip protocol. Default: unset.
   */
  protocol?: string;
  /**
   * Listen is the gossip listen address. Default: unset.
   */
  listen?: string;
  /**
   * Secret is the gossip shared secret. Default: unset.
   */
  secret?: string;
  /**
   * Secondary configures a secondary gossip protocol. Default: unset.
   */
  secondary?: DNSControllerGossipConfigSecondary;
  /**
   * Seed is the gossip seed. Default: unset.
   */
  seed?: string;
}
/**
 * DNSControllerGossipConfigSecondary configures a secondary gossip protocol for dns-controller.
 *
 * This interface was referenced by `Cluster`'s JSON-Schema
 * via the `definition` "DNSControllerGossipConfigSecondary".
 */
export interface DNSControllerGossipConfigSecondary {
  /**
   * Protocol is the gossip protocol. Default: unset.
   */
  protocol?: string;
  /**
   * Listen is the gossip listen address. Default: unset.
   */
  listen?: string;
  /**
   * Secret is the gossip shared secret. Default: unset.
   */
  secret?: string;
  /**
   * Seed is the gossip seed. Default: unset.
   */
  seed?: string;
}
/**
 * EgressProxySpec configures an HTTP forward proxy for egress traffic.
 *
 * This interface was referenced by `Cluster`'s JSON-Schema
 * via the `definition` "EgressProxySpec".
 */
export interface EgressProxySpec {
  /**
   * HTTPProxy is the proxy endpoint. Default: unset.
   */
  httpProxy?: HTTPProxy;
  /**
   * ProxyExcludes is a comma-separated list of hosts that bypass the proxy. Default: unset.
   */
  excludes?: string;
}
/**
 * HTTPProxy is an HTTP proxy endpoint.
 *
 * This interface was referenced by `Cluster`'s JSON-Schema
 * via the `definition` "HTTPProxy".
 */
export interface HTTPProxy {
  /**
   * Host is the proxy host name or IP. Default: unset.
   */
  host?: string;
  /**
   * Port is the proxy port. Default: unset.
   */
  port?: number;
}
/**
 * FileAssetSpec defines the structure for a file asset.
 *
 * This interface was referenced by `Cluster`'s JSON-Schema
 * via the `definition` "FileAssetSpec".
 */
export interface FileAssetSpec {
  /**
   * Name is a shortened reference to the asset. Default: unset.
   */
  name?: string;
  /**
   * Path is the location this file should reside. Default: unset.
   */
  path?: string;
  /**
   * Roles is a list of roles the file asset should be applied, defaults to all. Default: all roles.
   */
  roles?: InstanceGroupRole[];
  /**
   * Content is the contents of the file. Default: unset.
   */
  content?: string;
  /**
   * IsBase64 indicates the contents is base64 encoded. Default: unset.
   */
  isBase64?: boolean;
}
/**
 * EtcdClusterSpec is the etcd cluster specification.
 *
 * This interface was referenced by `Cluster`'s JSON-Schema
 * via the `definition` "EtcdClusterSpec".
 */
export interface EtcdClusterSpec {
  /**
   * Name is the name of the etcd cluster (main, events etc). Required.
   */
  name: string;
  /**
   * Provider is the provider used to run etcd: Manager, Legacy. Defaults to Manager. Default: Manager.
   */
  provider?: EtcdProviderType;
  /**
   * Members stores the configurations for each member of the cluster (including the data volume). Default: unset.
   */
  etcdMembers?: EtcdMemberSpec[];
  /**
   * EnableEtcdTLS is unused. Default: unset.
   */
  enableEtcdTLS?: boolean;
  /**
   * EnableTLSAuth is unused. Default: unset.
   */
  enableTLSAuth?: boolean;
  /**
   * Version is the version of etcd to run. Default: chosen by kops from kubernetesVersion.
   */
  version?: string;
  /**
   * LeaderElectionTimeout is the time (in milliseconds) for an etcd leader election timeout. Default: unset.
   */
  leaderElectionTimeout?: string;
  /**
   * HeartbeatInterval is the time (in milliseconds) for an etcd heartbeat interval. Default: unset.
   */
  heartbeatInterval?: string;
  /**
   * Image is the etcd docker image to use. Setting this will ignore the Version specified. Default: unset.
   */
  image?: string;
  /**
   * Backups describes how we do backups of etcd. Default: unset.
   */
  backups?: EtcdBackupSpec;
  /**
   * Manager describes the manager configuration. Default: unset.
   */
  manager?: EtcdManagerSpec;
  /**
   * MemoryRequest specifies the memory requests of each etcd container in the cluster. Default: unset.
   */
  memoryRequest?: string | number;
  /**
   * CPURequest specifies the cpu requests of each etcd container in the cluster. Default: unset.
   */
  cpuRequest?: string | number;
}
/**
 * EtcdMemberSpec is a specification for a etcd member.
 *
 * This interface was referenced by `Cluster`'s JSON-Schema
 * via the `definition` "EtcdMemberSpec".
 */
export interface EtcdMemberSpec {
  /**
   * Name is the name of the member within the etcd cluster. Required.
   */
  name: string;
  /**
   * InstanceGroup is the instanceGroup this volume is associated. Default: unset (required).
   */
  instanceGroup?: string;
  /**
   * VolumeType is the underlying cloud storage class. Default: gp3.
   */
  volumeType?: string;
  /**
   * If volume type is io1, then we need to specify the number of IOPS. Default: unset.
   */
  volumeIops?: number;
  /**
   * Parameter for disks that support provisioned throughput. Default: unset.
   */
  volumeThroughput?: number;
  /**
   * VolumeSize is the underlying cloud volume size. Default: 20 (GB).
   */
  volumeSize?: number;
  /**
   * KmsKeyID is a AWS KMS ID used to encrypt the volume. Default: unset.
   */
  kmsKeyId?: string;
  /**
   * EncryptedVolume indicates you want to encrypt the volume. Default: false.
   */
  encryptedVolume?: boolean;
}
/**
 * EtcdBackupSpec describes how we want to do backups of etcd.
 *
 * This interface was referenced by `Cluster`'s JSON-Schema
 * via the `definition` "EtcdBackupSpec".
 */
export interface EtcdBackupSpec {
  /**
   * BackupStore is the VFS path where we will read/write backup data. Default: unset.
   */
  backupStore?: string;
  /**
   * Image is the etcd backup manager image to use. Setting this will create a sidecar container in the etcd pod with the specified image. Default: unset.
   */
  image?: string;
}
/**
 * EtcdManagerSpec describes how we configure the etcd manager.
 *
 * This interface was referenced by `Cluster`'s JSON-Schema
 * via the `definition` "EtcdManagerSpec".
 */
export interface EtcdManagerSpec {
  /**
   * Image is the etcd manager image to use. Default: unset.
   */
  image?: string;
  /**
   * Env allows users to pass in env variables to the etcd-manager container. Variables starting with ETCD_ will be further passed down to the etcd process. This allows etcd setting to be configured/overwriten. No config validation is done. Default: unset.
   */
  env?: EnvVar[];
  /**
   * BackupRetentionDays is the number of days after which hourly and daily backups are cleaned up. The default is 90 days. Default: 90.
   */
  backupRetentionDays?: number;
  /**
   * DiscoveryPollInterval which is used for discovering other cluster members. The default is 60 seconds. Default: 60s.
   */
  discoveryPollInterval?: string;
  /**
   * LogLevel allows the klog library verbose log level to be set for etcd-manager. The default is 6. Default: 6.
   */
  logLevel?: number;
}
/**
 * EnvVar represents an environment variable present in a Container.
 *
 * This interface was referenced by `Cluster`'s JSON-Schema
 * via the `definition` "EnvVar".
 */
export interface EnvVar {
  /**
   * Name of the environment variable. Must be a C_IDENTIFIER. Required.
   */
  name: string;
  /**
   * Value of the environment variable; variable references $(VAR_NAME) are expanded. Default: "".
   */
  value?: string;
}
/**
 * ContainerdConfig is the configuration for containerd.
 *
 * This interface was referenced by `Cluster`'s JSON-Schema
 * via the `definition` "ContainerdConfig".
 */
export interface ContainerdConfig {
  /**
   * Address of containerd's GRPC server (default "/run/containerd/containerd.sock"). Default: /run/containerd/containerd.sock.
   */
  address?: string;
  /**
   * ConfigOverride is the complete containerd config file provided by the user. Default: unset.
   */
  configOverride?: string;
  /**
   * LogLevel controls the logging details [trace, debug, info, warn, error, fatal, panic] (default "info"). Default: info.
   */
  logLevel?: string;
  /**
   * Packages overrides the URL and hash for the packages. Default: unset.
   */
  packages?: PackagesConfig;
  /**
   * RegistryMirrors is list of image registries. Default: unset.
   */
  registryMirrors?: {
    [k: string]: string[];
  };
  /**
   * RegistryMirrorAuthConfigs List of auth configurations for each registry. Default: unset.
   */
  registryMirrorAuths?: RegistryMirrorAuthConfig[];
  /**
   * Root directory for persistent data (default "/var/lib/containerd"). Default: /var/lib/containerd.
   */
  root?: string;
  /**
   * SkipInstall prevents kOps from installing and modifying containerd in any way (default "false"). Default: false.
   */
  skipInstall?: boolean;
  /**
   * State directory for execution state files (default "/run/containerd"). Default: /run/containerd.
   */
  state?: string;
  /**
   * Version used to pick the containerd package. Default: unset.
   */
  version?: string;
  /**
   * NvidiaGPU configures the Nvidia GPU runtime. Default: unset.
   */
  nvidiaGPU?: NvidiaGPUConfig;
  /**
   * runc, the OCI runtime containerd uses (kops v1alpha2 `runc`). Default: the version kops pairs with the Kubernetes minor.
   */
  runc?: {
    /**
     * runc version to install. Default: from kforge's version table for the Kubernetes minor.
     */
    version?: string;
    /**
     * Custom runc binaries by architecture. Default: unset (the upstream release).
     */
    packages?: {
      /**
       * sha256 of the amd64 binary. Default: unset.
       */
      hashAmd64?: string;
      /**
       * URL of the amd64 binary. Default: unset.
       */
      urlAmd64?: string;
      /**
       * sha256 of the arm64 binary. Default: unset.
       */
      hashArm64?: string;
      /**
       * URL of the arm64 binary. Default: unset.
       */
      urlArm64?: string;
    };
  };
  /**
   * UseECRCredentialsForMirrors lets containerd authenticate to ECR registry mirrors with the node's instance credentials. Default: false.
   */
  useECRCredentialsForMirrors?: boolean;
  /**
   * SandboxImage is the image used to scope pod shared resources used by the pod's containers (the pause image; containerd's CRI `sandbox_image`, kops v1alpha2 `containerd.sandboxImage`). It replaces the kubelet flag `--pod-infra-container-image`, which Kubernetes 1.35 removed. Default: `registry.k8s.io/pause:<pause version for the Kubernetes minor>`, from `assets.containerRegistry` when that is set.
   */
  sandboxImage?: string;
}
/**
 * PackagesConfig overrides the URL and hash of a package.
 *
 * This interface was referenced by `Cluster`'s JSON-Schema
 * via the `definition` "PackagesConfig".
 */
export interface PackagesConfig {
  /**
   * HashAmd64 overrides the hash for the AMD64 package. Default: unset.
   */
  hashAmd64?: string;
  /**
   * HashArm64 overrides the hash for the ARM64 package. Default: unset.
   */
  hashArm64?: string;
  /**
   * UrlAmd64 overrides the URL for the AMD64 package. Default: unset.
   */
  urlAmd64?: string;
  /**
   * UrlArm64 overrides the URL for the ARM64 package. Default: unset.
   */
  urlArm64?: string;
}
/**
 * RegistryMirrorAuth configuration for containerd.
 *
 * This interface was referenced by `Cluster`'s JSON-Schema
 * via the `definition` "RegistryMirrorAuthConfig".
 */
export interface RegistryMirrorAuthConfig {
  /**
   * Registry name. Default: unset.
   */
  name?: string;
  /**
   * Registry authentication Username. Default: unset.
   */
  username?: string;
  /**
   * Registry authentication Password. Default: unset.
   */
  password?: string;
  /**
   * Registry Auth Token. Default: unset.
   */
  auth?: string;
}
/**
 * NvidiaGPUConfig configures the Nvidia GPU runtime and drivers.
 *
 * This interface was referenced by `Cluster`'s JSON-Schema
 * via the `definition` "NvidiaGPUConfig".
 */
export interface NvidiaGPUConfig {
  /**
   * Package is the name of the nvidia driver package that will be installed. Default is "nvidia-headless-460-server". Default: nvidia-headless-460-server.
   */
  package?: string;
  /**
   * Enabled determines if kOps will install the Nvidia GPU runtime and drivers. They will only be installed on intances that has an Nvidia GPU. Default: unset.
   */
  enabled?: boolean;
}
/**
 * DockerConfig is the configuration for docker.
 *
 * This interface was referenced by `Cluster`'s JSON-Schema
 * via the `definition` "DockerConfig".
 */
export interface DockerConfig {
  /**
   * AuthorizationPlugins is a list of authorization plugins. Default: unset.
   */
  authorizationPlugins?: string[];
  /**
   * Bridge is the network interface containers should bind onto. Default: unset.
   */
  bridge?: string;
  /**
   * BridgeIP is a specific IP address and netmask for the docker0 bridge, using standard CIDR notation. Default: unset.
   */
  bridgeIP?: string;
  /**
   * DataRoot is the root directory of persistent docker state (default "/var/lib/docker"). Default: /var/lib/docker.
   */
  dataRoot?: string;
  /**
   * DefaultUlimit is the ulimits for containers. Default: unset.
   */
  defaultUlimit?: string[];
  /**
   * DefaultRuntime is the default OCI runtime for containers (default "runc"). Default: runc.
   */
  defaultRuntime?: string;
  /**
   * DNS is the IP address of the DNS server. Default: unset.
   */
  dns?: string[];
  /**
   * ExecOpt is a series of options passed to the runtime. Default: unset.
   */
  execOpt?: string[];
  /**
   * ExecRoot is the root directory for execution state files (default "/var/run/docker"). Default: /var/run/docker.
   */
  execRoot?: string;
  /**
   * Experimental features permits enabling new features such as dockerd metrics. Default: unset.
   */
  experimental?: boolean;
  /**
   * HealthCheck enables the periodic monitoring of docker daemon and restarting if unhealthy. Default: unset.
   */
  healthCheck?: boolean;
  /**
   * Hosts enables you to configure the endpoints the docker daemon listens on i.e. tcp://0.0.0.0.2375 or unix:///var/run/docker.sock etc. Default: unset.
   */
  hosts?: string[];
  /**
   * IPMasq enables ip masquerading for containers. Default: unset.
   */
  ipMasq?: boolean;
  /**
   * IPtables enables addition of iptables rules. Default: unset.
   */
  ipTables?: boolean;
  /**
   * InsecureRegistry enable insecure registry communication @question according to dockers this a list?? Default: unset.
   */
  insecureRegistry?: string;
  /**
   * InsecureRegistries enables multiple insecure docker registry communications. Default: unset.
   */
  insecureRegistries?: string[];
  /**
   * LiveRestore enables live restore of docker when containers are still running. Default: unset.
   */
  liveRestore?: boolean;
  /**
   * LogDriver is the default driver for container logs (default "json-file"). Default: json-file.
   */
  logDriver?: string;
  /**
   * LogLevel is the logging level ("debug", "info", "warn", "error", "fatal") (default "info"). Default: info.
   */
  logLevel?: string;
  /**
   * Logopt is a series of options given to the log driver options for containers. Default: unset.
   */
  logOpt?: string[];
  /**
   * MaxConcurrentDownloads sets the max concurrent downloads for each pull. Default: unset.
   */
  maxConcurrentDownloads?: number;
  /**
   * MaxConcurrentUploads sets the max concurrent uploads for each push. Default: unset.
   */
  maxConcurrentUploads?: number;
  /**
   * MaxDownloadAttempts sets the max download attempts for each pull. Default: unset.
   */
  maxDownloadAttempts?: number;
  /**
   * Metrics address is the endpoint to serve with Prometheus format metrics. Default: unset.
   */
  metricsAddress?: string;
  /**
   * MTU is the containers network MTU. Default: unset.
   */
  mtu?: number;
  /**
   * Packages overrides the URL and hash for the packages. Default: unset.
   */
  packages?: PackagesConfig;
  /**
   * RegistryMirrors is a referred list of docker registry mirror. Default: unset.
   */
  registryMirrors?: string[];
  /**
   * SelinuxEnabled enables SELinux support. Default: unset.
   */
  selinuxEnabled?: boolean;
  /**
   * SkipInstall when set to true will prevent kOps from installing and modifying Docker in any way. Default: unset.
   */
  skipInstall?: boolean;
  /**
   * Storage is the docker storage driver to use. Default: unset.
   */
  storage?: string;
  /**
   * StorageOpts is a series of options passed to the storage driver. Default: unset.
   */
  storageOpts?: string[];
  /**
   * UserNamespaceRemap sets the user namespace remapping option for the docker daemon. Default: unset.
   */
  userNamespaceRemap?: string;
  /**
   * Version is consumed by the nodeup and used to pick the docker version. Default: unset.
   */
  version?: string;
}
/**
 * KubeDNSConfig defines the kube dns configuration.
 *
 * This interface was referenced by `Cluster`'s JSON-Schema
 * via the `definition` "KubeDNSConfig".
 */
export interface KubeDNSConfig {
  /**
   * CacheMaxSize is the maximum entries to keep in dnsmasq. Default: unset.
   */
  cacheMaxSize?: number;
  /**
   * CacheMaxConcurrent is the maximum number of concurrent queries for dnsmasq. Default: unset.
   */
  cacheMaxConcurrent?: number;
  /**
   * Tolerations are tolerations to apply to the kube-dns deployment. Default: unset.
   */
  tolerations?: Toleration[];
  /**
   * Affinity is the kube-dns affinity, uses the same syntax as kubectl's affinity. Default: unset.
   */
  affinity?: Affinity;
  /**
   * CoreDNSImage is used to override the default image used for CoreDNS. Default: unset.
   */
  coreDNSImage?: string;
  /**
   * CPAImage is used to override the default image used for Cluster Proportional Autoscaler. Default: unset.
   */
  cpaImage?: string;
  /**
   * Domain is the dns domain. Default: spec.clusterDNSDomain.
   */
  domain?: string;
  /**
   * ExternalCoreFile is used to provide a complete CoreDNS CoreFile by the user - ignores other provided flags which modify the CoreFile. Default: unset.
   */
  externalCoreFile?: string;
  /**
   * Image is the name of the docker image to run - @deprecated as this is now in the addon. Default: unset.
   */
  image?: string;
  /**
   * Replicas is the number of pod replicas - @deprecated as this is now in the addon, and controlled by autoscaler. Default: unset.
   */
  replicas?: number;
  /**
   * Provider indicates whether CoreDNS or kube-dns will be the default service discovery. Default: CoreDNS.
   */
  provider?: "CoreDNS" | "KubeDNS";
  /**
   * ServerIP is the server ip. Default: the tenth address of serviceClusterIPRange.
   */
  serverIP?: string;
  /**
   * StubDomains redirects a domains to another DNS service. Default: unset.
   */
  stubDomains?: {
    [k: string]: string[];
  };
  /**
   * UpstreamNameservers sets the upstream nameservers for queries not on the cluster domain. Default: unset.
   */
  upstreamNameservers?: string[];
  /**
   * MemoryRequest specifies the memory requests of each dns container in the cluster. Default 70m. Default: 70m.
   */
  memoryRequest?: string | number;
  /**
   * CPURequest specifies the cpu requests of each dns container in the cluster. Default 100m. Default: 100m.
   */
  cpuRequest?: string | number;
  /**
   * MemoryLimit specifies the memory limit of each dns container in the cluster. Default 170m. Default: 170m.
   */
  memoryLimit?: string | number;
  /**
   * NodeLocalDNS specifies the configuration for the node-local-dns addon. Default: unset.
   */
  nodeLocalDNS?: NodeLocalDNSConfig;
}
/**
 * Toleration is a Kubernetes core/v1 Toleration.
 *
 * This interface was referenced by `Cluster`'s JSON-Schema
 * via the `definition` "Toleration".
 */
export interface Toleration {
  /**
   * Key is the taint key that the toleration applies to. Default: unset.
   */
  key?: string;
  /**
   * Operator represents a key's relationship to the value (Exists or Equal). Default: unset.
   */
  operator?: string;
  /**
   * Value is the taint value the toleration matches to. Default: unset.
   */
  value?: string;
  /**
   * Effect indicates the taint effect to match (NoSchedule, PreferNoSchedule, NoExecute). Default: unset.
   */
  effect?: string;
  /**
   * TolerationSeconds represents the period of time the toleration tolerates a NoExecute taint. Default: unset.
   */
  tolerationSeconds?: number;
}
/**
 * Affinity is a Kubernetes core/v1 Affinity; its three blocks are passed through to the pod spec unchanged (not validated by kforge).
 *
 * This interface was referenced by `Cluster`'s JSON-Schema
 * via the `definition` "Affinity".
 */
export interface Affinity {
  /**
   * NodeAffinity is a core/v1 NodeAffinity (opaque). Default: unset.
   */
  nodeAffinity?: {
    [k: string]: unknown;
  };
  /**
   * PodAffinity is a core/v1 PodAffinity (opaque). Default: unset.
   */
  podAffinity?: {
    [k: string]: unknown;
  };
  /**
   * PodAntiAffinity is a core/v1 PodAntiAffinity (opaque). Default: unset.
   */
  podAntiAffinity?: {
    [k: string]: unknown;
  };
}
/**
 * NodeLocalDNSConfig are options of the node-local-dns.
 *
 * This interface was referenced by `Cluster`'s JSON-Schema
 * via the `definition` "NodeLocalDNSConfig".
 */
export interface NodeLocalDNSConfig {
  /**
   * Enabled activates the node-local-dns addon. Default: false.
   */
  enabled?: boolean;
  /**
   * Image overrides the default docker image used for node-local-dns addon. Default: unset.
   */
  image?: string;
  /**
   * Local listen IP address. It can be any IP in the 169.254.20.0/16 space or any other IP address that can be guaranteed to not collide with any existing IP. Default: 169.254.20.10.
   */
  localIP?: string;
  /**
   * If enabled, nodelocal dns will use kubedns as a default upstream. Default: unset.
   */
  forwardToKubeDNS?: boolean;
  /**
   * MemoryRequest specifies the memory requests of each node-local-dns container in the daemonset. Default 5Mi. Default: 5Mi.
   */
  memoryRequest?: string | number;
  /**
   * CPURequest specifies the cpu requests of each node-local-dns container in the daemonset. Default 25m. Default: 25m.
   */
  cpuRequest?: string | number;
}
/**
 * KubeAPIServerConfig defines the configuration for the kube api.
 *
 * This interface was referenced by `Cluster`'s JSON-Schema
 * via the `definition` "KubeAPIServerConfig".
 */
export interface KubeAPIServerConfig {
  /**
   * Image is the docker container used. Default: unset.
   */
  image?: string;
  /**
   * DisableBasicAuth removes the --basic-auth-file flag. Default: unset.
   */
  disableBasicAuth?: boolean;
  /**
   * LogFormat is the logging format of the api. Supported values: text, json. Default: text.
   */
  logFormat?: "text" | "json";
  /**
   * LogLevel is the logging level of the api. Default: unset.
   */
  logLevel?: number;
  /**
   * CloudProvider is the name of the cloudProvider we are using, aws, gce etcd. Default: unset.
   */
  cloudProvider?: string;
  /**
   * SecurePort is the port the kube runs on. Default: unset.
   */
  securePort?: number;
  /**
   * InsecurePort is the port the insecure api runs. Default: unset.
   */
  insecurePort?: number;
  /**
   * Address is the binding address for the kube api: Deprecated - use insecure-bind-address and bind-address. Default: unset.
   */
  address?: string;
  /**
   * AdvertiseAddress is the IP address on which to advertise the apiserver to members of the cluster. Default: unset.
   */
  advertiseAddress?: string;
  /**
   * BindAddress is the binding address for the secure kubernetes API. Default: unset.
   */
  bindAddress?: string;
  /**
   * InsecureBindAddress is the binding address for the InsecurePort for the insecure kubernetes API. Default: unset.
   */
  insecureBindAddress?: string;
  /**
   * EnableBootstrapAuthToken enables 'bootstrap.kubernetes.io/token' in the 'kube-system' namespace to be used for TLS bootstrapping authentication. Default: unset.
   */
  enableBootstrapTokenAuth?: boolean;
  /**
   * EnableAggregatorRouting enables aggregator routing requests to endpoints IP rather than cluster IP. Default: unset.
   */
  enableAggregatorRouting?: boolean;
  /**
   * AdmissionControl is a list of admission controllers to use: Deprecated - use enable-admission-plugins instead. Default: unset.
   */
  admissionControl?: string[];
  /**
   * AppendAdmissionPlugins appends list of enabled admission plugins. Default: unset (nothing appended).
   */
  appendAdmissionPlugins?: string[];
  /**
   * EnableAdmissionPlugins is a list of enabled admission plugins. Default: unset.
   */
  enableAdmissionPlugins?: string[];
  /**
   * DisableAdmissionPlugins is a list of disabled admission plugins. Default: unset.
   */
  disableAdmissionPlugins?: string[];
  /**
   * AdmissionControlConfigFile is the location of the admission-control-config-file. Default: unset.
   */
  admissionControlConfigFile?: string;
  /**
   * ServiceClusterIPRange is the service address range. Default: unset.
   */
  serviceClusterIPRange?: string;
  /**
   * Passed as --service-node-port-range to kube-apiserver. Expects 'startPort-endPort' format e.g. 30000-33000. Default: unset.
   */
  serviceNodePortRange?: string;
  /**
   * EtcdServers is a list of the etcd service to connect. Default: unset.
   */
  etcdServers?: string[];
  /**
   * EtcdServersOverrides is per-resource etcd servers overrides, comma separated. The individual override format: group/resource#servers, where servers are http://ip:port, semicolon separated. Default: unset.
   */
  etcdServersOverrides?: string[];
  /**
   * EtcdCAFile is the path to a ca certificate. Default: unset.
   */
  etcdCaFile?: string;
  /**
   * EtcdCertFile is the path to a certificate. Default: unset.
   */
  etcdCertFile?: string;
  /**
   * EtcdKeyFile is the path to a private key. Default: unset.
   */
  etcdKeyFile?: string;
  /**
   * BasicAuthFile is unused (kops plans to remove it). Default: unset.
   */
  basicAuthFile?: string;
  /**
   * ClientCAFile is the file used by apisever that contains the client CA. Default: unset.
   */
  clientCAFile?: string;
  /**
   * TLSCertFile is unused (kops plans to remove it). Default: unset.
   */
  tlsCertFile?: string;
  /**
   * TLSPrivateKeyFile is unused (kops plans to remove it). Default: unset.
   */
  tlsPrivateKeyFile?: string;
  /**
   * TLSCipherSuites indicates the allowed TLS cipher suite. Default: unset.
   */
  tlsCipherSuites?: string[];
  /**
   * TLSMinVersion indicates the minimum TLS version allowed. Default: unset.
   */
  tlsMinVersion?: string;
  /**
   * TokenAuthFile is unused (kops plans to remove it). Default: unset.
   */
  tokenAuthFile?: string;
  /**
   * AllowPrivileged indicates if we can run privileged containers. Default: unset.
   */
  allowPrivileged?: boolean;
  /**
   * APIServerCount is the number of api servers. Default: unset.
   */
  apiServerCount?: number;
  /**
   * RuntimeConfig is a series of keys/values are parsed into the '--runtime-config' parameters. Default: unset.
   */
  runtimeConfig?: {
    [k: string]: string;
  };
  /**
   * KubeletClientCertificate is the path of a certificate for secure communication between api and kubelet. Default: unset.
   */
  kubeletClientCertificate?: string;
  /**
   * KubeletCertificateAuthority is the path of a certificate authority for secure communication between api and kubelet. Default: unset.
   */
  kubeletCertificateAuthority?: string;
  /**
   * KubeletClientKey is the path of a private to secure communication between api and kubelet. Default: unset.
   */
  kubeletClientKey?: string;
  /**
   * AnonymousAuth indicates if anonymous authentication is permitted. Default: unset.
   */
  anonymousAuth?: boolean;
  /**
   * KubeletPreferredAddressTypes is a list of the preferred NodeAddressTypes to use for kubelet connections. Default: unset.
   */
  kubeletPreferredAddressTypes?: string[];
  /**
   * StorageBackend is the backend storage. Default: unset.
   */
  storageBackend?: string;
  /**
   * OIDCUsernameClaim is the OpenID claim to use as the user name. Note that claims other than the default ('sub') is not guaranteed to be unique and immutable. Default: unset.
   */
  oidcUsernameClaim?: string;
  /**
   * OIDCUsernamePrefix is the prefix prepended to username claims to prevent clashes with existing names (such as 'system:' users). Default: unset.
   */
  oidcUsernamePrefix?: string;
  /**
   * OIDCGroupsClaim if provided, the name of a custom OpenID Connect claim for specifying user groups. The claim value is expected to be a string or array of strings. Default: unset.
   */
  oidcGroupsClaim?: string;
  /**
   * OIDCGroupsPrefix is the prefix prepended to group claims to prevent clashes with existing names (such as 'system:' groups). Default: unset.
   */
  oidcGroupsPrefix?: string;
  /**
   * OIDCIssuerURL is the URL of the OpenID issuer, only HTTPS scheme will be accepted. If set, it will be used to verify the OIDC JSON Web Token (JWT). Default: unset.
   */
  oidcIssuerURL?: string;
  /**
   * OIDCClientID is the client ID for the OpenID Connect client, must be set if oidc-issuer-url is set. Default: unset.
   */
  oidcClientID?: string;
  /**
   * A key=value pair that describes a required claim in the ID Token. If set, the claim is verified to be present in the ID Token with a matching value. Repeat this flag to specify multiple claims. Default: unset.
   */
  oidcRequiredClaim?: string[];
  /**
   * OIDCCAFile if set, the OpenID server's certificate will be verified by one of the authorities in the oidc-ca-file. Default: unset.
   */
  oidcCAFile?: string;
  /**
   * The apiserver's client certificate used for outbound requests. Default: unset.
   */
  proxyClientCertFile?: string;
  /**
   * The apiserver's client key used for outbound requests. Default: unset.
   */
  proxyClientKeyFile?: string;
  /**
   * AuditLogFormat flag specifies the format type for audit log files. Default: unset.
   */
  auditLogFormat?: string;
  /**
   * If set, all requests coming to the apiserver will be logged to this file. Default: unset.
   */
  auditLogPath?: string;
  /**
   * The maximum number of days to retain old audit log files based on the timestamp encoded in their filename. Default: unset.
   */
  auditLogMaxAge?: number;
  /**
   * The maximum number of old audit log files to retain. Default: unset.
   */
  auditLogMaxBackups?: number;
  /**
   * The maximum size in megabytes of the audit log file before it gets rotated. Defaults to 100MB. Default: 100.
   */
  auditLogMaxSize?: number;
  /**
   * AuditPolicyFile is the full path to a advanced audit configuration file e.g. /srv/kubernetes/audit.conf. Default: unset.
   */
  auditPolicyFile?: string;
  /**
   * AuditWebhookBatchBufferSize is The size of the buffer to store events before batching and writing. Only used in batch mode. (default 10000). Default: 10000.
   */
  auditWebhookBatchBufferSize?: number;
  /**
   * AuditWebhookBatchMaxSize is The maximum size of a batch. Only used in batch mode. (default 400). Default: 400.
   */
  auditWebhookBatchMaxSize?: number;
  /**
   * AuditWebhookBatchMaxWait is The amount of time to wait before force writing the batch that hadn't reached the max size. Only used in batch mode. (default 30s). Default: 30s.
   */
  auditWebhookBatchMaxWait?: string;
  /**
   * AuditWebhookBatchThrottleBurst is Maximum number of requests sent at the same moment if ThrottleQPS was not utilized before. Only used in batch mode. (default 15). Default: 15.
   */
  auditWebhookBatchThrottleBurst?: number;
  /**
   * AuditWebhookBatchThrottleEnable is Whether batching throttling is enabled. Only used in batch mode. (default true). Default: true.
   */
  auditWebhookBatchThrottleEnable?: boolean;
  /**
   * AuditWebhookBatchThrottleQps is Maximum average number of batches per second. Only used in batch mode. (default 10). Default: 10.
   */
  auditWebhookBatchThrottleQps?: string | number;
  /**
   * AuditWebhookConfigFile is Path to a kubeconfig formatted file that defines the audit webhook configuration. Requires the 'AdvancedAuditing' feature gate. Default: unset.
   */
  auditWebhookConfigFile?: string;
  /**
   * AuditWebhookInitialBackoff is The amount of time to wait before retrying the first failed request. (default 10s). Default: 10s.
   */
  auditWebhookInitialBackoff?: string;
  /**
   * AuditWebhookMode is Strategy for sending audit events. Blocking indicates sending events should block server responses. Batch causes the backend to buffer and write events asynchronously. Known modes are batch,blocking. (default "batch"). Default: batch.
   */
  auditWebhookMode?: string;
  /**
   * File with webhook configuration for token authentication in kubeconfig format. The API server will query the remote service to determine authentication for bearer tokens. Default: unset.
   */
  authenticationTokenWebhookConfigFile?: string;
  /**
   * The duration to cache responses from the webhook token authenticator. Default is 2m. (default 2m0s). Default: 2m0s.
   */
  authenticationTokenWebhookCacheTtl?: string;
  /**
   * AuthorizationMode is the authorization mode the kubeapi is running in. Default: unset.
   */
  authorizationMode?: string;
  /**
   * File with webhook configuration for authorization in kubeconfig format. The API server will query the remote service to determine whether to authorize the request. Default: unset.
   */
  authorizationWebhookConfigFile?: string;
  /**
   * The duration to cache authorized responses from the webhook token authorizer. Default is 5m. (default 5m0s). Default: 5m0s.
   */
  authorizationWebhookCacheAuthorizedTtl?: string;
  /**
   * The duration to cache authorized responses from the webhook token authorizer. Default is 30s. (default 30s). Default: 30s.
   */
  authorizationWebhookCacheUnauthorizedTtl?: string;
  /**
   * AuthorizationRBACSuperUser is the name of the superuser for default rbac. Default: unset.
   */
  authorizationRbacSuperUser?: string;
  /**
   * EncryptionProviderConfig enables encryption at rest for secrets. Default: unset.
   */
  encryptionProviderConfig?: string;
  /**
   * ExperimentalEncryptionProviderConfig enables encryption at rest for secrets. Default: unset.
   */
  experimentalEncryptionProviderConfig?: string;
  /**
   * List of request headers to inspect for usernames. X-Remote-User is common. Default: unset.
   */
  requestheaderUsernameHeaders?: string[];
  /**
   * List of request headers to inspect for groups. X-Remote-Group is suggested. Default: unset.
   */
  requestheaderGroupHeaders?: string[];
  /**
   * List of request header prefixes to inspect. X-Remote-Extra- is suggested. Default: unset.
   */
  requestheaderExtraHeaderPrefixes?: string[];
  /**
   * Root certificate bundle to use to verify client certificates on incoming requests before trusting usernames in headers specified by --requestheader-username-headers. Default: unset.
   */
  requestheaderClientCAFile?: string;
  /**
   * List of client certificate common names to allow to provide usernames in headers specified by --requestheader-username-headers. If empty, any client certificate validated by the authorities in --requestheader-client-ca-file is allowed. Default: unset.
   */
  requestheaderAllowedNames?: string[];
  /**
   * FeatureGates is set of key=value pairs that describe feature gates for alpha/experimental features. Default: unset.
   */
  featureGates?: {
    [k: string]: string;
  };
  /**
   * MaxRequestsInflight The maximum number of non-mutating requests in flight at a given time. Default: unset.
   */
  maxRequestsInflight?: number;
  /**
   * MaxMutatingRequestsInflight The maximum number of mutating requests in flight at a given time. Defaults to 200. Default: 200.
   */
  maxMutatingRequestsInflight?: number;
  /**
   * HTTP2MaxStreamsPerConnection sets the limit that the server gives to clients for the maximum number of streams in an HTTP/2 connection. Zero means to use golang's default. Default: unset.
   */
  http2MaxStreamsPerConnection?: number;
  /**
   * EtcdQuorumRead configures the etcd-quorum-read flag, which forces consistent reads from etcd. Default: unset.
   */
  etcdQuorumRead?: boolean;
  /**
   * RequestTimeout configures the duration a handler must keep a request open before timing it out. (default 1m0s). Default: 1m0s.
   */
  requestTimeout?: string;
  /**
   * MinRequestTimeout configures the minimum number of seconds a handler must keep a request open before timing it out. Currently only honored by the watch request handler. Default: unset.
   */
  minRequestTimeout?: number;
  /**
   * Memory limit for apiserver in MB (used to configure sizes of caches, etc.). Default: unset.
   */
  targetRamMb?: number;
  /**
   * File containing PEM-encoded x509 RSA or ECDSA private or public keys, used to verify ServiceAccount tokens. The specified file can contain multiple keys, and the flag can be specified multiple times with different files. If unspecified, --tls-private-key-file is used. Default: unset.
   */
  serviceAccountKeyFile?: string[];
  /**
   * Path to the file that contains the current private key of the service account token issuer. The issuer will sign issued ID tokens with this private key. (Requires the 'TokenRequest' feature gate.). Default: unset.
   */
  serviceAccountSigningKeyFile?: string;
  /**
   * Identifier of the service account token issuer. The issuer will assert this identifier in "iss" claim of issued tokens. This value is a string or URI. Default: unset.
   */
  serviceAccountIssuer?: string;
  /**
   * ServiceAccountJWKSURI overrides the path for the jwks document; this is useful when we are republishing the service account discovery information elsewhere. Default: unset.
   */
  serviceAccountJWKSURI?: string;
  /**
   * Identifiers of the API. The service account token authenticator will validate that tokens used against the API are bound to at least one of these audiences. If the --service-account-issuer flag is configured and this flag is not, this field defaults to a single element list containing the issuer URL. Default: the service account issuer URL when serviceAccountIssuer is set.
   */
  apiAudiences?: string[];
  /**
   * CPURequest, cpu request compute resource for api server. Defaults to "150m". Default: 150m.
   */
  cpuRequest?: string | number;
  /**
   * CPULimit, cpu limit compute resource for api server e.g. "500m". Default: unset.
   */
  cpuLimit?: string | number;
  /**
   * MemoryRequest, memory request compute resource for api server e.g. "30Mi". Default: unset.
   */
  memoryRequest?: string | number;
  /**
   * MemoryLimit, memory limit compute resource for api server e.g. "30Mi". Default: unset.
   */
  memoryLimit?: string | number;
  /**
   * Amount of time to retain Kubernetes events. Default: unset.
   */
  eventTTL?: string;
  /**
   * AuditDynamicConfiguration enables dynamic audit configuration via AuditSinks. Default: unset.
   */
  auditDynamicConfiguration?: boolean;
  /**
   * EnableProfiling enables profiling via web interface host:port/debug/pprof/. Default: unset.
   */
  enableProfiling?: boolean;
  /**
   * CorsAllowedOrigins is a list of origins for CORS. An allowed origin can be a regular expression to support subdomain matching. If this list is empty CORS will not be enabled. Default: unset.
   */
  corsAllowedOrigins?: string[];
  /**
   * DefaultNotReadyTolerationSeconds is the toleration seconds for notReady:NoExecute added to pods without such a toleration. Default: unset.
   */
  defaultNotReadyTolerationSeconds?: number;
  /**
   * DefaultUnreachableTolerationSeconds is the toleration seconds for unreachable:NoExecute added to pods without such a toleration. Default: unset.
   */
  defaultUnreachableTolerationSeconds?: number;
}
/**
 * KubeControllerManagerConfig is the configuration for the controller.
 *
 * This interface was referenced by `Cluster`'s JSON-Schema
 * via the `definition` "KubeControllerManagerConfig".
 */
export interface KubeControllerManagerConfig {
  /**
   * Master is the url for the kube api master. Default: unset.
   */
  master?: string;
  /**
   * LogFormat is the logging format of the controler manager. Supported values: text, json. Default: text.
   */
  logFormat?: "text" | "json";
  /**
   * LogLevel is the defined logLevel. Default: unset.
   */
  logLevel?: number;
  /**
   * ServiceAccountPrivateKeyFile is the location of the private key for service account token signing. Default: unset.
   */
  serviceAccountPrivateKeyFile?: string;
  /**
   * Image is the docker image to use. Default: unset.
   */
  image?: string;
  /**
   * CloudProvider is the provider for cloud services. Default: unset.
   */
  cloudProvider?: string;
  /**
   * ClusterName is the instance prefix for the cluster. Default: unset.
   */
  clusterName?: string;
  /**
   * ClusterCIDR is CIDR Range for Pods in cluster. Default: unset.
   */
  clusterCIDR?: string;
  /**
   * AllocateNodeCIDRs enables CIDRs for Pods to be allocated and, if ConfigureCloudRoutes is true, to be set on the cloud provider. Default: unset.
   */
  allocateNodeCIDRs?: boolean;
  /**
   * NodeCIDRMaskSize set the size for the mask of the nodes. Default: unset.
   */
  nodeCIDRMaskSize?: number;
  /**
   * ConfigureCloudRoutes enables CIDRs allocated with to be configured on the cloud provider. Default: unset.
   */
  configureCloudRoutes?: boolean;
  /**
   * Controllers is a list of controllers to enable on the controller-manager. Default: unset.
   */
  controllers?: string[];
  /**
   * CIDRAllocatorType specifies the type of CIDR allocator to use. Default: unset.
   */
  cidrAllocatorType?: string;
  /**
   * rootCAFile is the root certificate authority will be included in service account's token secret. This must be a valid PEM-encoded CA bundle. Default: unset.
   */
  rootCAFile?: string;
  /**
   * LeaderElection defines the configuration of leader election client. Default: unset.
   */
  leaderElection?: LeaderElectionConfiguration;
  /**
   * ReconcilerSyncLoopPeriod is the amount of time the reconciler sync states loop wait between successive executions. Is set to 1 min by kops by default. Default: 1m0s.
   */
  attachDetachReconcileSyncPeriod?: string;
  /**
   * DisableAttachDetachReconcileSync disables the reconcile sync loop in the attach-detach controller. This can cause volumes to become mismatched with pods. Default: unset.
   */
  disableAttachDetachReconcileSync?: boolean;
  /**
   * TerminatedPodGCThreshold is the number of terminated pods that can exist before the terminated pod garbage collector starts deleting terminated pods. If <= 0, the terminated pod garbage collector is disabled. Default: unset.
   */
  terminatedPodGCThreshold?: number;
  /**
   * NodeMonitorPeriod is the period for syncing NodeStatus in NodeController. (default 5s). Default: 5s.
   */
  nodeMonitorPeriod?: string;
  /**
   * NodeMonitorGracePeriod is the amount of time which we allow running Node to be unresponsive before marking it unhealthy. (default 40s). Must be N-1 times more than kubelet's nodeStatusUpdateFrequency, where N means number of retries allowed for kubelet to post node status. Default: 40s.
   */
  nodeMonitorGracePeriod?: string;
  /**
   * PodEvictionTimeout is the grace period for deleting pods on failed nodes. (default 5m0s). Default: 5m0s.
   */
  podEvictionTimeout?: string;
  /**
   * UseServiceAccountCredentials controls whether we use individual service account credentials for each controller. Default: unset.
   */
  useServiceAccountCredentials?: boolean;
  /**
   * HorizontalPodAutoscalerSyncPeriod is the amount of time between syncs. During each period, the controller manager queries the resource utilization against the metrics specified in each HorizontalPodAutoscaler definition. Default: unset.
   */
  horizontalPodAutoscalerSyncPeriod?: string;
  /**
   * HorizontalPodAutoscalerDownscaleDelay is a duration that specifies how long the autoscaler has to wait before another downscale operation can be performed after the current one has completed. Default: unset.
   */
  horizontalPodAutoscalerDownscaleDelay?: string;
  /**
   * HorizontalPodAutoscalerDownscaleStabilization is the period for which autoscaler will look backwards and not scale down below any recommendation it made during that period. Default: unset.
   */
  horizontalPodAutoscalerDownscaleStabilization?: string;
  /**
   * HorizontalPodAutoscalerUpscaleDelay is a duration that specifies how long the autoscaler has to wait before another upscale operation can be performed after the current one has completed. Default: unset.
   */
  horizontalPodAutoscalerUpscaleDelay?: string;
  /**
   * HorizontalPodAutoscalerInitialReadinessDelay is the period after pod start during which readiness changes will be treated as initial readiness. (default 30s). Default: 30s.
   */
  horizontalPodAutoscalerInitialReadinessDelay?: string;
  /**
   * HorizontalPodAutoscalerCPUInitializationPeriod is the period after pod start when CPU samples might be skipped. (default 5m). Default: 5m.
   */
  horizontalPodAutoscalerCpuInitializationPeriod?: string;
  /**
   * HorizontalPodAutoscalerTolerance is the minimum change (from 1.0) in the desired-to-actual metrics ratio for the horizontal pod autoscaler to consider scaling. Default: unset.
   */
  horizontalPodAutoscalerTolerance?: string | number;
  /**
   * HorizontalPodAutoscalerUseRestClients determines if the new-style clients should be used if support for custom metrics is enabled. Default: unset.
   */
  horizontalPodAutoscalerUseRestClients?: boolean;
  /**
   * ExperimentalClusterSigningDuration is the duration that determines the length of duration that the signed certificates will be given. (default 8760h0m0s). Default: 8760h0m0s.
   */
  experimentalClusterSigningDuration?: string;
  /**
   * FeatureGates is set of key=value pairs that describe feature gates for alpha/experimental features. Default: unset.
   */
  featureGates?: {
    [k: string]: string;
  };
  /**
   * TLSCertFile is the file containing the TLS server certificate. Default: unset.
   */
  tlsCertFile?: string;
  /**
   * TLSCipherSuites indicates the allowed TLS cipher suite. Default: unset.
   */
  tlsCipherSuites?: string[];
  /**
   * TLSMinVersion indicates the minimum TLS version allowed. Default: unset.
   */
  tlsMinVersion?: string;
  /**
   * TLSPrivateKeyFile is the file containing the private key for the TLS server certificate. Default: unset.
   */
  tlsPrivateKeyFile?: string;
  /**
   * MinResyncPeriod indicates the resync period in reflectors. The resync period will be random between MinResyncPeriod and 2*MinResyncPeriod. (default 12h0m0s). Default: 12h0m0s.
   */
  minResyncPeriod?: string;
  /**
   * KubeAPIQPS QPS to use while talking with kubernetes apiserver. (default 20). Default: 20.
   */
  kubeAPIQPS?: string | number;
  /**
   * KubeAPIBurst Burst to use while talking with kubernetes apiserver. (default 30). Default: 30.
   */
  kubeAPIBurst?: number;
  /**
   * The number of deployment objects that are allowed to sync concurrently. Default: unset.
   */
  concurrentDeploymentSyncs?: number;
  /**
   * The number of endpoint objects that are allowed to sync concurrently. Default: unset.
   */
  concurrentEndpointSyncs?: number;
  /**
   * The number of namespace objects that are allowed to sync concurrently. Default: unset.
   */
  concurrentNamespaceSyncs?: number;
  /**
   * The number of replicaset objects that are allowed to sync concurrently. Default: unset.
   */
  concurrentReplicasetSyncs?: number;
  /**
   * The number of service objects that are allowed to sync concurrently. Default: unset.
   */
  concurrentServiceSyncs?: number;
  /**
   * The number of resourcequota objects that are allowed to sync concurrently. Default: unset.
   */
  concurrentResourceQuotaSyncs?: number;
  /**
   * The number of serviceaccount objects that are allowed to sync concurrently to create tokens. Default: unset.
   */
  concurrentServiceaccountTokenSyncs?: number;
  /**
   * The number of replicationcontroller objects that are allowed to sync concurrently. This only works on kubernetes >= 1.14. Default: unset.
   */
  concurrentRcSyncs?: number;
  /**
   * AuthenticationKubeconfig is the path to an Authentication Kubeconfig. Default: unset.
   */
  authenticationKubeconfig?: string;
  /**
   * AuthorizationKubeconfig is the path to an Authorization Kubeconfig. Default: unset.
   */
  authorizationKubeconfig?: string;
  /**
   * AuthorizationAlwaysAllowPaths is the list of HTTP paths to skip during authorization. Default: unset.
   */
  authorizationAlwaysAllowPaths?: string[];
  /**
   * ExternalCloudVolumePlugin is a fallback mechanism that allows a legacy, in-tree cloudprovider to be used for volume plugins even when an external cloud controller manager is being used. This can be used instead of installing CSI. The value should be the same as is used for the --cloud-provider flag, i.e. "aws". Default: unset.
   */
  externalCloudVolumePlugin?: string;
  /**
   * EnableProfiling enables profiling via web interface host:port/debug/pprof/. Default: unset.
   */
  enableProfiling?: boolean;
  /**
   * EnableLeaderMigration enables controller leader migration. Default: unset.
   */
  enableLeaderMigration?: boolean;
  /**
   * CPU request of the static pod. Default: 100m.
   */
  cpuRequest?: string | number;
  /**
   * CPU limit of the static pod. Default: unset.
   */
  cpuLimit?: string | number;
  /**
   * memory request of the static pod. Default: unset.
   */
  memoryRequest?: string | number;
  /**
   * memory limit of the static pod. Default: unset.
   */
  memoryLimit?: string | number;
  /**
   * The number of horizontal pod autoscaler objects that are allowed to sync concurrently (the field name keeps kops's spelling). Default: unset.
   */
  concurrentHorizontalPodAustoscalerSyncs?: number;
  /**
   * The number of job objects that are allowed to sync concurrently. Default: unset.
   */
  concurrentJobSyncs?: number;
}
/**
 * LeaderElectionConfiguration defines the configuration of leader election clients for components that can run with leader election enabled.
 *
 * This interface was referenced by `Cluster`'s JSON-Schema
 * via the `definition` "LeaderElectionConfiguration".
 */
export interface LeaderElectionConfiguration {
  /**
   * leaderElect enables a leader election client to gain leadership before executing the main loop. Enable this when running replicated components for high availability. Default: unset.
   */
  leaderElect?: boolean;
  /**
   * leaderElectLeaseDuration is the length in time non-leader candidates will wait after observing a leadership renewal until attempting to acquire leadership of a led but unrenewed leader slot. This is effectively the maximum duration that a leader can be stopped before it is replaced by another candidate. Default: unset.
   */
  leaderElectLeaseDuration?: string;
  /**
   * LeaderElectRenewDeadlineDuration is the interval between attempts by the acting master to renew a leadership slot before it stops leading. This must be less than or equal to the lease duration. Default: unset.
   */
  leaderElectRenewDeadlineDuration?: string;
  /**
   * LeaderElectResourceLock is the type of resource object that is used for locking during leader election. Supported options are endpoints (default) and 'configmaps'. Default: endpoints.
   */
  leaderElectResourceLock?: string;
  /**
   * LeaderElectResourceName is the name of resource object that is used for locking during leader election. Default: unset.
   */
  leaderElectResourceName?: string;
  /**
   * LeaderElectResourceNamespace is the namespace of resource object that is used for locking during leader election. Default: unset.
   */
  leaderElectResourceNamespace?: string;
  /**
   * LeaderElectRetryPeriod is The duration the clients should wait between attempting acquisition and renewal of a leadership. This is only applicable if leader election is enabled. Default: unset.
   */
  leaderElectRetryPeriod?: string;
}
/**
 * CloudControllerManagerConfig is the configuration of the cloud controller.
 *
 * This interface was referenced by `Cluster`'s JSON-Schema
 * via the `definition` "CloudControllerManagerConfig".
 */
export interface CloudControllerManagerConfig {
  /**
   * Master is the url for the kube api master. Default: unset.
   */
  master?: string;
  /**
   * LogLevel is the verbosity of the logs. Default: unset.
   */
  logLevel?: number;
  /**
   * Image is the OCI image of the cloud controller manager. Default: unset.
   */
  image?: string;
  /**
   * CloudProvider is the provider for cloud services. Default: unset.
   */
  cloudProvider?: string;
  /**
   * ClusterName is the instance prefix for the cluster. Default: unset.
   */
  clusterName?: string;
  /**
   * ClusterCIDR is CIDR Range for Pods in cluster. Default: unset.
   */
  clusterCIDR?: string;
  /**
   * AllocateNodeCIDRs enables CIDRs for Pods to be allocated and, if ConfigureCloudRoutes is true, to be set on the cloud provider. Default: unset.
   */
  allocateNodeCIDRs?: boolean;
  /**
   * ConfigureCloudRoutes enables CIDRs allocated with to be configured on the cloud provider. Default: unset.
   */
  configureCloudRoutes?: boolean;
  /**
   * Controllers is a list of controllers to enable on the controller-manager. Default: unset.
   */
  controllers?: string[];
  /**
   * CIDRAllocatorType specifies the type of CIDR allocator to use. Default: unset.
   */
  cidrAllocatorType?: string;
  /**
   * LeaderElection defines the configuration of leader election client. Default: unset.
   */
  leaderElection?: LeaderElectionConfiguration;
  /**
   * UseServiceAccountCredentials controls whether we use individual service account credentials for each controller. Default: unset.
   */
  useServiceAccountCredentials?: boolean;
  /**
   * EnableLeaderMigration enables controller leader migration. Default: unset.
   */
  enableLeaderMigration?: boolean;
  /**
   * CPURequest of CloudControllerManager container. Default: 200m.
   */
  cpuRequest?: string | number;
  /**
   * The number of workers syncing nodes concurrently in the cloud node controller. Default: unset.
   */
  concurrentNodeSyncs?: number;
}
/**
 * KubeSchedulerConfig is the configuration for the kube-scheduler.
 *
 * This interface was referenced by `Cluster`'s JSON-Schema
 * via the `definition` "KubeSchedulerConfig".
 */
export interface KubeSchedulerConfig {
  /**
   * Master is a url to the kube master. Default: unset.
   */
  master?: string;
  /**
   * LogFormat is the logging format of the scheduler. Supported values: text, json. Default: text.
   */
  logFormat?: "text" | "json";
  /**
   * LogLevel is the logging level. Default: unset.
   */
  logLevel?: number;
  /**
   * Image is the docker image to use. Default: unset.
   */
  image?: string;
  /**
   * LeaderElection defines the configuration of leader election client. Default: unset.
   */
  leaderElection?: LeaderElectionConfiguration;
  /**
   * UsePolicyConfigMap enable setting the scheduler policy from a configmap. Default: unset.
   */
  usePolicyConfigMap?: boolean;
  /**
   * FeatureGates is set of key=value pairs that describe feature gates for alpha/experimental features. Default: unset.
   */
  featureGates?: {
    [k: string]: string;
  };
  /**
   * MaxPersistentVolumes changes the maximum number of persistent volumes the scheduler will scheduler onto the same node. Only takes effect if value is positive. This corresponds to the KUBE_MAX_PD_VOLS environment variable. The default depends on the version and the cloud provider. Default: unset (depends on the Kubernetes version and cloud provider).
   */
  maxPersistentVolumes?: number;
  /**
   * Qps sets the maximum qps to send to apiserver after the burst quota is exhausted. Default: unset.
   */
  qps?: string | number;
  /**
   * Burst sets the maximum qps to send to apiserver after the burst quota is exhausted. Default: unset.
   */
  burst?: number;
  /**
   * AuthenticationKubeconfig is the path to an Authentication Kubeconfig. Default: unset.
   */
  authenticationKubeconfig?: string;
  /**
   * AuthorizationKubeconfig is the path to an Authorization Kubeconfig. Default: unset.
   */
  authorizationKubeconfig?: string;
  /**
   * AuthorizationAlwaysAllowPaths is the list of HTTP paths to skip during authorization. Default: unset.
   */
  authorizationAlwaysAllowPaths?: string[];
  /**
   * EnableProfiling enables profiling via web interface host:port/debug/pprof/. Default: unset.
   */
  enableProfiling?: boolean;
  /**
   * TLSCertFile is the file containing the TLS server certificate. Default: unset.
   */
  tlsCertFile?: string;
  /**
   * TLSPrivateKeyFile is the file containing the private key for the TLS server certificate. Default: unset.
   */
  tlsPrivateKeyFile?: string;
  /**
   * CPU request of the static pod. Default: 100m.
   */
  cpuRequest?: string | number;
  /**
   * CPU limit of the static pod. Default: unset.
   */
  cpuLimit?: string | number;
  /**
   * memory request of the static pod. Default: unset.
   */
  memoryRequest?: string | number;
  /**
   * memory limit of the static pod. Default: unset.
   */
  memoryLimit?: string | number;
}
/**
 * KubeProxyConfig defines the configuration for a proxy.
 *
 * This interface was referenced by `Cluster`'s JSON-Schema
 * via the `definition` "KubeProxyConfig".
 */
export interface KubeProxyConfig {
  /**
   * Image is the kube-proxy container image. Default: unset.
   */
  image?: string;
  /**
   * CPURequest, cpu request compute resource for kube proxy e.g. "20m". Default: unset.
   */
  cpuRequest?: string | number;
  /**
   * CPULimit, cpu limit compute resource for kube proxy e.g. "30m". Default: unset.
   */
  cpuLimit?: string | number;
  /**
   * MemoryRequest, memory request compute resource for kube proxy e.g. "30Mi". Default: unset.
   */
  memoryRequest?: string | number;
  /**
   * MemoryLimit, memory limit compute resource for kube proxy e.g. "30Mi". Default: unset.
   */
  memoryLimit?: string | number;
  /**
   * LogLevel is the logging level of the proxy. Default: unset.
   */
  logLevel?: number;
  /**
   * ClusterCIDR is the CIDR range of the pods in the cluster. Default: unset.
   */
  clusterCIDR?: string;
  /**
   * HostnameOverride, if non-empty, will be used as the identity instead of the actual hostname. Default: unset.
   */
  hostnameOverride?: string;
  /**
   * BindAddress is IP address for the proxy server to serve on. Default: unset.
   */
  bindAddress?: string;
  /**
   * Master is the address of the Kubernetes API server (overrides any value in kubeconfig). Default: unset.
   */
  master?: string;
  /**
   * MetricsBindAddress is the IP address for the metrics server to serve on. Default: unset.
   */
  metricsBindAddress?: string;
  /**
   * Enabled allows enabling or disabling kube-proxy. Default: true.
   */
  enabled?: boolean;
  /**
   * Which proxy mode to use: (userspace, iptables, ipvs). Default: iptables.
   */
  proxyMode?: "userspace" | "iptables" | "ipvs" | "nftables";
  /**
   * IPVSExcludeCIDRs is comma-separated list of CIDR's which the ipvs proxier should not touch when cleaning up IPVS rules. Default: unset.
   */
  ipvsExcludeCidrs?: string[];
  /**
   * IPVSMinSyncPeriod is the minimum interval of how often the ipvs rules can be refreshed as endpoints and services change (e.g. '5s', '1m', '2h22m'). Default: unset.
   */
  ipvsMinSyncPeriod?: string;
  /**
   * IPVSScheduler is the ipvs scheduler type when proxy mode is ipvs. Default: unset.
   */
  ipvsScheduler?: string;
  /**
   * IPVSSyncPeriod duration is the maximum interval of how often ipvs rules are refreshed. Default: unset.
   */
  ipvsSyncPeriod?: string;
  /**
   * FeatureGates is a series of key pairs used to switch on features for the proxy. Default: unset.
   */
  featureGates?: {
    [k: string]: string;
  };
  /**
   * Maximum number of NAT connections to track per CPU core (default: 131072). Default: 131072.
   */
  conntrackMaxPerCore?: number;
  /**
   * Minimum number of conntrack entries to allocate, regardless of conntrack-max-per-core. Default: unset.
   */
  conntrackMin?: number;
}
/**
 * KubeletConfigSpec defines the kubelet configuration.
 *
 * This interface was referenced by `Cluster`'s JSON-Schema
 * via the `definition` "KubeletConfigSpec".
 */
export interface KubeletConfigSpec {
  /**
   * APIServers is not used for clusters version 1.6 and later - flag removed. Default: unset.
   */
  apiServers?: string;
  /**
   * AnonymousAuth permits you to control auth to the kubelet api. Default: unset.
   */
  anonymousAuth?: boolean;
  /**
   * AuthorizationMode is the authorization mode the kubelet is running in. Default: unset.
   */
  authorizationMode?: string;
  /**
   * BootstrapKubeconfig is the path to a kubeconfig file that will be used to get client certificate for kubelet. Default: unset.
   */
  bootstrapKubeconfig?: string;
  /**
   * ClientCAFile is the path to a CA certificate. Default: unset.
   */
  clientCaFile?: string;
  /**
   * TLSCertFile is unused (kops plans to remove it). Default: unset.
   */
  tlsCertFile?: string;
  /**
   * TLSPrivateKeyFile is unused (kops plans to remove it). Default: unset.
   */
  tlsPrivateKeyFile?: string;
  /**
   * TLSCipherSuites indicates the allowed TLS cipher suite. Default: unset.
   */
  tlsCipherSuites?: string[];
  /**
   * TLSMinVersion indicates the minimum TLS version allowed. Default: unset.
   */
  tlsMinVersion?: string;
  /**
   * KubeconfigPath is the path of kubeconfig for the kubelet. Default: unset.
   */
  kubeconfigPath?: string;
  /**
   * RequireKubeconfig indicates a kubeconfig is required. Default: unset.
   */
  requireKubeconfig?: boolean;
  /**
   * LogFormat is the logging format of the kubelet. Supported values: text, json. Default: text.
   */
  logFormat?: "text" | "json";
  /**
   * LogLevel is the logging level of the kubelet. Default: unset.
   */
  logLevel?: number;
  /**
   * config is the path to the config file or directory of files. Default: unset.
   */
  podManifestPath?: string;
  /**
   * HostnameOverride is the hostname used to identify the kubelet instead of the actual hostname. Default: unset.
   */
  hostnameOverride?: string;
  /**
   * PodInfraContainerImage is the image whose network/ipc containers in each pod will use. Default: unset.
   */
  podInfraContainerImage?: string;
  /**
   * SeccompProfileRoot is the directory path for seccomp profiles. Default: unset.
   */
  seccompProfileRoot?: string;
  /**
   * AllowPrivileged enables containers to request privileged mode (defaults to false). Default: false.
   */
  allowPrivileged?: boolean;
  /**
   * EnableDebuggingHandlers enables server endpoints for log collection and local running of containers and commands. Default: unset.
   */
  enableDebuggingHandlers?: boolean;
  /**
   * RegisterNode enables automatic registration with the apiserver. Default: unset.
   */
  registerNode?: boolean;
  /**
   * NodeStatusUpdateFrequency Specifies how often kubelet posts node status to master (default 10s) must work with nodeMonitorGracePeriod in KubeControllerManagerConfig. Default: 10s.
   */
  nodeStatusUpdateFrequency?: string;
  /**
   * ClusterDomain is the DNS domain for this cluster. Default: unset.
   */
  clusterDomain?: string;
  /**
   * ClusterDNS is the IP address for a cluster DNS server. Default: unset.
   */
  clusterDNS?: string;
  /**
   * NetworkPluginName is the name of the network plugin to be invoked for various events in kubelet/pod lifecycle. Default: unset.
   */
  networkPluginName?: string;
  /**
   * CloudProvider is the provider for cloud services. Default: unset.
   */
  cloudProvider?: string;
  /**
   * KubeletCgroups is the absolute name of cgroups to isolate the kubelet in. Default: unset.
   */
  kubeletCgroups?: string;
  /**
   * Cgroups that container runtime is expected to be isolated in. Default: unset.
   */
  runtimeCgroups?: string;
  /**
   * ReadOnlyPort is the port used by the kubelet api for read-only access (default 10255). Default: 10255.
   */
  readOnlyPort?: number;
  /**
   * SystemCgroups is absolute name of cgroups in which to place all non-kernel processes that are not already in a container. Empty for no container. Rolling back the flag requires a reboot. Default: unset.
   */
  systemCgroups?: string;
  /**
   * cgroupRoot is the root cgroup to use for pods. This is handled by the container runtime on a best effort basis. Default: unset.
   */
  cgroupRoot?: string;
  /**
   * configureCBR0 enables the kubelet to configure cbr0 based on Node.Spec.PodCIDR. Default: unset.
   */
  configureCbr0?: boolean;
  /**
   * How should the kubelet configure the container bridge for hairpin packets. Setting this flag allows endpoints in a Service to loadbalance back to themselves if they should try to access their own Service. Values: "promiscuous-bridge": make the container bridge promiscuous. "hairpin-veth": set the hairpin flag on container veth interfaces. "none": do nothing. Default: unset.
   */
  hairpinMode?: string;
  /**
   * The node has babysitter process monitoring docker and kubelet. Removed as of 1.7. Default: unset.
   */
  babysitDaemons?: boolean;
  /**
   * MaxPods is the number of pods that can run on this Kubelet. Default: unset.
   */
  maxPods?: number;
  /**
   * NvidiaGPUs is the number of NVIDIA GPU devices on this node. Default: unset.
   */
  nvidiaGPUs?: number;
  /**
   * PodCIDR is the CIDR to use for pod IP addresses, only used in standalone mode. In cluster mode, this is obtained from the master. Default: unset.
   */
  podCIDR?: string;
  /**
   * ResolverConfig is the resolver configuration file used as the basis for the container DNS resolution configuration. Default: unset.
   */
  resolvConf?: string;
  /**
   * ReconcileCIDR is Reconcile node CIDR with the CIDR specified by the API server. No-op if register-node or configure-cbr0 is false. Default: unset.
   */
  reconcileCIDR?: boolean;
  /**
   * registerSchedulable tells the kubelet to register the node as schedulable. No-op if register-node is false. Default: unset.
   */
  registerSchedulable?: boolean;
  /**
   * SerializeImagePulls when enabled, tells the Kubelet to pull images one at a time. We recommend *not* changing the default value on nodes that run docker daemon with version < 1.9 or an Aufs storage backend. Default: unset.
   */
  serializeImagePulls?: boolean;
  /**
   * NodeLabels to add when registering the node in the cluster. Default: unset.
   */
  nodeLabels?: {
    [k: string]: string;
  };
  /**
   * NonMasqueradeCIDR configures masquerading: traffic to IPs outside this range will use IP masquerade. Default: unset.
   */
  nonMasqueradeCIDR?: string;
  /**
   * Enable gathering custom metrics. Default: unset.
   */
  enableCustomMetrics?: boolean;
  /**
   * NetworkPluginMTU is the MTU to be passed to the network plugin, and overrides the default MTU for cases where it cannot be automatically computed (such as IPSEC). Default: unset.
   */
  networkPluginMTU?: number;
  /**
   * ImageGCHighThresholdPercent is the percent of disk usage after which image garbage collection is always run. Default: unset.
   */
  imageGCHighThresholdPercent?: number;
  /**
   * ImageGCLowThresholdPercent is the percent of disk usage before which image garbage collection is never run. Lowest disk usage to garbage collect to. Default: unset.
   */
  imageGCLowThresholdPercent?: number;
  /**
   * ImagePullProgressDeadline is the timeout for image pulls. If no pulling progress is made before this deadline, the image pulling will be cancelled. (default 1m0s). Default: 1m0s.
   */
  imagePullProgressDeadline?: string;
  /**
   * Comma-delimited list of hard eviction expressions. For example, 'memory.available<300Mi'. Default: unset.
   */
  evictionHard?: string;
  /**
   * Comma-delimited list of soft eviction expressions. For example, 'memory.available<300Mi'. Default: unset.
   */
  evictionSoft?: string;
  /**
   * Comma-delimited list of grace periods for each soft eviction signal. For example, 'memory.available=30s'. Default: unset.
   */
  evictionSoftGracePeriod?: string;
  /**
   * Duration for which the kubelet has to wait before transitioning out of an eviction pressure condition. Default: unset.
   */
  evictionPressureTransitionPeriod?: string;
  /**
   * Maximum allowed grace period (in seconds) to use when terminating pods in response to a soft eviction threshold being met. Default: unset.
   */
  evictionMaxPodGracePeriod?: number;
  /**
   * Comma-delimited list of minimum reclaims (e.g. imagefs.available=2Gi) that describes the minimum amount of resource the kubelet will reclaim when performing a pod eviction if that resource is under pressure. Default: unset.
   */
  evictionMinimumReclaim?: string;
  /**
   * The full path of the directory in which to search for additional third party volume plugins (this path must be writeable, dependent on your choice of OS). Default: unset.
   */
  volumePluginDirectory?: string;
  /**
   * Taints to add when registering a node in the cluster. Default: unset.
   */
  taints?: string[];
  /**
   * FeatureGates is set of key=value pairs that describe feature gates for alpha/experimental features. Default: unset.
   */
  featureGates?: {
    [k: string]: string;
  };
  /**
   * Integrate with the kernel memcg notification to determine if memory eviction thresholds are crossed rather than polling. Default: unset.
   */
  kernelMemcgNotification?: boolean;
  /**
   * Resource reservation for kubernetes system daemons like the kubelet, container runtime, node problem detector, etc. Default: unset.
   */
  kubeReserved?: {
    [k: string]: string;
  };
  /**
   * Control group for kube daemons. Default: unset.
   */
  kubeReservedCgroup?: string;
  /**
   * Capture resource reservation for OS system daemons like sshd, udev, etc. Default: unset.
   */
  systemReserved?: {
    [k: string]: string;
  };
  /**
   * Parent control group for OS system daemons. Default: unset.
   */
  systemReservedCgroup?: string;
  /**
   * Enforce Allocatable across pods whenever the overall usage across all pods exceeds Allocatable. Default: unset.
   */
  enforceNodeAllocatable?: string;
  /**
   * RuntimeRequestTimeout is timeout for runtime requests on - pull, logs, exec and attach. Default: unset.
   */
  runtimeRequestTimeout?: string;
  /**
   * VolumeStatsAggPeriod is the interval for kubelet to calculate and cache the volume disk usage for all pods and volumes. Default: unset.
   */
  volumeStatsAggPeriod?: string;
  /**
   * Tells the Kubelet to fail to start if swap is enabled on the node. Default: unset.
   */
  failSwapOn?: boolean;
  /**
   * ExperimentalAllowedUnsafeSysctls are passed to the kubelet config to whitelist allowable sysctls. Was promoted to beta and renamed. https://github.com/kubernetes/kubernetes/pull/63717. Default: unset.
   */
  experimentalAllowedUnsafeSysctls?: string[];
  /**
   * AllowedUnsafeSysctls are passed to the kubelet config to whitelist allowable sysctls. Default: unset.
   */
  allowedUnsafeSysctls?: string[];
  /**
   * StreamingConnectionIdleTimeout is the maximum time a streaming connection can be idle before the connection is automatically closed. Default: unset.
   */
  streamingConnectionIdleTimeout?: string;
  /**
   * DockerDisableSharedPID uses a shared PID namespace for containers in a pod. Default: unset.
   */
  dockerDisableSharedPID?: boolean;
  /**
   * RootDir is the directory path for managing kubelet files (volume mounts,etc). Default: unset.
   */
  rootDir?: string;
  /**
   * AuthenticationTokenWebhook uses the TokenReview API to determine authentication for bearer tokens. Default: unset.
   */
  authenticationTokenWebhook?: boolean;
  /**
   * AuthenticationTokenWebhook sets the duration to cache responses from the webhook token authenticator. Default is 2m. (default 2m0s). Default: 2m0s.
   */
  authenticationTokenWebhookCacheTtl?: string;
  /**
   * CPUCFSQuota enables CPU CFS quota enforcement for containers that specify CPU limits. Default: unset.
   */
  cpuCFSQuota?: boolean;
  /**
   * CPUCFSQuotaPeriod sets CPU CFS quota period value, cpu.cfs_period_us, defaults to Linux Kernel default. Default: unset (the Linux kernel default, 100ms).
   */
  cpuCFSQuotaPeriod?: string;
  /**
   * CpuManagerPolicy allows for changing the default policy of None to static. Default: unset.
   */
  cpuManagerPolicy?: string;
  /**
   * RegistryPullQPS if > 0, limit registry pull QPS to this value. If 0, unlimited. (default 5). Default: 5.
   */
  registryPullQPS?: number;
  /**
   * RegistryBurst Maximum size of a bursty pulls, temporarily allows pulls to burst to this number, while still not exceeding registry-qps. Only used if --registry-qps > 0 (default 10). Default: 10.
   */
  registryBurst?: number;
  /**
   * TopologyManagerPolicy determines the allocation policy for the topology manager. Default: unset.
   */
  topologyManagerPolicy?: string;
  /**
   * rotateCertificates enables client certificate rotation. Default: unset.
   */
  rotateCertificates?: boolean;
  /**
   * Default kubelet behaviour for kernel tuning. If set, kubelet errors if any of kernel tunables is different than kubelet defaults. Default: unset (the kubelet default, false).
   */
  protectKernelDefaults?: boolean;
  /**
   * CgroupDriver allows the explicit setting of the kubelet cgroup driver. If omitted, defaults to cgroupfs. Default: cgroupfs.
   */
  cgroupDriver?: string;
  /**
   * HousekeepingInterval allows to specify interval between container housekeepings. Default: unset.
   */
  housekeepingInterval?: string;
  /**
   * EventQPS if > 0, limit event creations per second to this value. If 0, unlimited. Default: unset.
   */
  eventQPS?: number;
  /**
   * EventBurst temporarily allows event records to burst to this number, while still not exceeding EventQPS. Only used if EventQPS > 0. Default: unset.
   */
  eventBurst?: number;
  /**
   * ContainerLogMaxSize is the maximum size (e.g. 10Mi) of container log file before it is rotated. Default: unset.
   */
  containerLogMaxSize?: string;
  /**
   * ContainerLogMaxFiles is the maximum number of container log files that can be present for a container. The number must be >= 2. Default: unset.
   */
  containerLogMaxFiles?: number;
  /**
   * EnableCadvisorJsonEndpoints enables cAdvisor json '/spec' and '/stats/*' endpoints. Defaults to False. Default: false.
   */
  enableCadvisorJsonEndpoints?: boolean;
  /**
   * PodPidsLimit is the maximum number of pids in any pod. Default: unset.
   */
  podPidsLimit?: number;
  /**
   * ShutdownGracePeriod specifies the total duration that the node should delay the shutdown by. Default: 30s.
   */
  shutdownGracePeriod?: string;
  /**
   * ShutdownGracePeriodCriticalPods specifies the duration used to terminate critical pods during a node shutdown. Default: 10s.
   */
  shutdownGracePeriodCriticalPods?: string;
}
/**
 * CloudConfiguration defines the cloud provider configuration.
 *
 * This interface was referenced by `Cluster`'s JSON-Schema
 * via the `definition` "CloudConfiguration".
 */
export interface CloudConfiguration {
  /**
   * ManageStorageClasses specifies whether kOps should create and maintain a set of StorageClasses, one of which it nominates as the default class for the cluster. Default: unset.
   */
  manageStorageClasses?: boolean;
  /**
   * Multizone is a GCE cloud-config option. Default: unset.
   */
  multizone?: boolean;
  /**
   * NodeTags is a GCE cloud-config option. Default: unset.
   */
  nodeTags?: string;
  /**
   * NodeInstancePrefix is a GCE cloud-config option. Default: unset.
   */
  nodeInstancePrefix?: string;
  /**
   * NodeIPFamilies controls the IP families reported for each node (AWS only). Default: unset.
   */
  nodeIPFamilies?: string[];
  /**
   * GCEServiceAccount specifies the service account with which the GCE VM runs. Default: unset.
   */
  gceServiceAccount?: string;
  /**
   * DisableSecurityGroupIngress is an AWS cloud-config option. Default: unset.
   */
  disableSecurityGroupIngress?: boolean;
  /**
   * ElbSecurityGroup is an AWS cloud-config option. Default: unset.
   */
  elbSecurityGroup?: string;
  /**
   * VSphereUsername is unused. Default: unset.
   */
  vSphereUsername?: string;
  /**
   * VSpherePassword is unused. Default: unset.
   */
  vSpherePassword?: string;
  /**
   * VSphereServer is unused. Default: unset.
   */
  vSphereServer?: string;
  /**
   * VShpereDatacenter is unused. Default: unset.
   */
  vSphereDatacenter?: string;
  /**
   * VSphereResourcePool is unused. Default: unset.
   */
  vSphereResourcePool?: string;
  /**
   * VSphereDatastore is unused. Default: unset.
   */
  vSphereDatastore?: string;
  /**
   * VSphereCoreDNSServer is unused. Default: unset.
   */
  vSphereCoreDNSServer?: string;
  /**
   * SpotinstProduct is a Spotinst cloud-config option. Default: unset.
   */
  spotinstProduct?: string;
  /**
   * SpotinstOrientation is a Spotinst cloud-config option. Default: unset.
   */
  spotinstOrientation?: string;
  /**
   * Openstack cloud-config options. Default: unset.
   */
  openstack?: OpenstackSpec;
  /**
   * Azure cloud-config options. Default: unset.
   */
  azure?: AzureSpec;
  /**
   * AWSEBSCSIDriver is the config for the AWS EBS CSI driver. Default: unset.
   */
  awsEBSCSIDriver?: AWSEBSCSIDriver;
  /**
   * GCPPDCSIDriver is the config for the GCP PD CSI driver. Only on GCE. Default: enabled on GCE.
   */
  gcpPDCSIDriver?: GCPPDCSIDriver;
  /**
   * GCEUseStartupScript passes the node bootstrap script as `startup-script` metadata instead of `user-data`. Default: false.
   */
  gceUseStartupScript?: boolean;
}
/**
 * OpenstackSpec defines cloud config elements for the openstack cloud provider.
 *
 * This interface was referenced by `Cluster`'s JSON-Schema
 * via the `definition` "OpenstackSpec".
 */
export interface OpenstackSpec {
  /**
   * Loadbalancer configures the load balancer. Default: unset.
   */
  loadbalancer?: OpenstackLoadbalancerConfig;
  /**
   * Monitor configures load balancer health monitors. Default: unset.
   */
  monitor?: OpenstackMonitor;
  /**
   * Router configures the router. Default: unset.
   */
  router?: OpenstackRouter;
  /**
   * BlockStorage configures block storage. Default: unset.
   */
  blockStorage?: OpenstackBlockStorageConfig;
  /**
   * InsecureSkipVerify skips TLS verification of the OpenStack API. Default: unset.
   */
  insecureSkipVerify?: boolean;
  /**
   * Network configures the network. Default: unset.
   */
  network?: OpenstackNetwork;
  /**
   * Metadata configures the metadata service. Default: unset.
   */
  metadata?: OpenstackMetadata;
}
/**
 * OpenstackLoadbalancerConfig defines the config for a neutron loadbalancer.
 *
 * This interface was referenced by `Cluster`'s JSON-Schema
 * via the `definition` "OpenstackLoadbalancerConfig".
 */
export interface OpenstackLoadbalancerConfig {
  /**
   * Method is the load balancing method. Default: unset.
   */
  method?: string;
  /**
   * Provider is the load balancer provider. Default: unset.
   */
  provider?: string;
  /**
   * UseOctavia selects Octavia instead of Neutron LBaaS. Default: unset.
   */
  useOctavia?: boolean;
  /**
   * FloatingNetwork is the name of the floating network. Default: unset.
   */
  floatingNetwork?: string;
  /**
   * FloatingNetworkID is the ID of the floating network. Default: unset.
   */
  floatingNetworkID?: string;
  /**
   * FloatingSubnet is the name of the floating subnet. Default: unset.
   */
  floatingSubnet?: string;
  /**
   * SubnetID is the load balancer subnet ID. Default: unset.
   */
  subnetID?: string;
  /**
   * ManageSecGroups lets the cloud provider manage load balancer security groups. Default: unset.
   */
  manageSecurityGroups?: boolean;
  /**
   * EnableIngressHostname enables the ingress hostname workaround. Default: unset.
   */
  enableIngressHostname?: boolean;
  /**
   * IngressHostnameSuffix is the suffix used by the ingress hostname workaround. Default: unset.
   */
  ingressHostnameSuffix?: string;
}
/**
 * OpenstackMonitor defines the config for a health monitor.
 *
 * This interface was referenced by `Cluster`'s JSON-Schema
 * via the `definition` "OpenstackMonitor".
 */
export interface OpenstackMonitor {
  /**
   * Delay between health checks. Default: unset.
   */
  delay?: string;
  /**
   * Timeout of a health check. Default: unset.
   */
  timeout?: string;
  /**
   * MaxRetries before a member is marked down. Default: unset.
   */
  maxRetries?: number;
}
/**
 * OpenstackRouter defines the config for a router.
 *
 * This interface was referenced by `Cluster`'s JSON-Schema
 * via the `definition` "OpenstackRouter".
 */
export interface OpenstackRouter {
  /**
   * ExternalNetwork is the external network of the router. Default: unset.
   */
  externalNetwork?: string;
  /**
   * DNSServers is a comma-separated list of DNS servers. Default: unset.
   */
  dnsServers?: string;
  /**
   * ExternalSubnet is the external subnet of the router. Default: unset.
   */
  externalSubnet?: string;
  /**
   * AvailabilityZoneHints are the router availability zone hints. Default: unset.
   */
  availabilityZoneHints?: string[];
}
/**
 * OpenstackBlockStorageConfig defines the config for Cinder block storage.
 *
 * This interface was referenced by `Cluster`'s JSON-Schema
 * via the `definition` "OpenstackBlockStorageConfig".
 */
export interface OpenstackBlockStorageConfig {
  /**
   * Version is the block storage API version. Default: unset.
   */
  "bs-version"?: string;
  /**
   * IgnoreAZ ignores the volume availability zone. Default: unset.
   */
  "ignore-volume-az"?: boolean;
  /**
   * OverrideAZ overrides the volume availability zone. Default: unset.
   */
  "override-volume-az"?: string;
  /**
   * CreateStorageClass provisions a default class for the Cinder plugin. Default: unset.
   */
  createStorageClass?: boolean;
  /**
   * CSIPluginImage is the Cinder CSI plugin image. Default: unset.
   */
  csiPluginImage?: string;
  /**
   * CSITopologySupport enables topology support in the Cinder CSI plugin. Default: unset.
   */
  csiTopologySupport?: boolean;
}
/**
 * OpenstackNetwork defines the config for a network.
 *
 * This interface was referenced by `Cluster`'s JSON-Schema
 * via the `definition` "OpenstackNetwork".
 */
export interface OpenstackNetwork {
  /**
   * AvailabilityZoneHints are the network availability zone hints. Default: unset.
   */
  availabilityZoneHints?: string[];
}
/**
 * OpenstackMetadata defines config for metadata service related settings.
 *
 * This interface was referenced by `Cluster`'s JSON-Schema
 * via the `definition` "OpenstackMetadata".
 */
export interface OpenstackMetadata {
  /**
   * ConfigDrive specifies to use config drive for retrieving user data instead of the metadata service when launching instances. Default: unset.
   */
  configDrive?: boolean;
}
/**
 * AzureSpec defines Azure specific cluster configuration.
 *
 * This interface was referenced by `Cluster`'s JSON-Schema
 * via the `definition` "AzureSpec".
 */
export interface AzureSpec {
  /**
   * SubscriptionID specifies the subscription used for the cluster installation. Default: unset.
   */
  subscriptionId?: string;
  /**
   * TenantID is the ID of the tenant that the cluster is deployed in. Default: unset.
   */
  tenantId?: string;
  /**
   * ResourceGroupName specifies the name of the resource group where the cluster is built. If this is empty, kops will create a new resource group whose name is same as the cluster name. Default: unset.
   */
  resourceGroupName?: string;
  /**
   * RouteTableName is the name of the route table attached to the subnet that the cluster is deployed in. Default: unset.
   */
  routeTableName?: string;
  /**
   * AdminUser specifies the admin user of VMs. Default: unset.
   */
  adminUser?: string;
}
/**
 * AWSEBSCSIDriver is the config for the AWS EBS CSI driver.
 *
 * This interface was referenced by `Cluster`'s JSON-Schema
 * via the `definition` "AWSEBSCSIDriver".
 */
export interface AWSEBSCSIDriver {
  /**
   * Enabled enables the AWS EBS CSI driver; it can only be true (kops refuses false): the driver provisions the default StorageClass of every AWS cluster. Default: true.
   */
  enabled?: boolean;
  /**
   * Version is the container image tag used. Default: the latest stable release compatible with the Kubernetes version.
   */
  version?: string;
  /**
   * VolumeAttachLimit is the maximum number of volumes attachable per node. If specified, the limit applies to all nodes. If not specified, the value is approximated from the instance type. Default: unset.
   */
  volumeAttachLimit?: number;
  /**
   * PodAnnotations are the annotations added to AWS EBS CSI node and controller Pods. Default: none.
   */
  podAnnotations?: {
    [k: string]: string;
  };
  /**
   * HostNetwork runs the EBS CSI node pods in the host network, for nodes whose pods cannot reach the instance metadata service. Default: false.
   */
  hostNetwork?: boolean;
}
/**
 * GCPPDCSIDriver is the config for the GCP PD CSI driver.
 *
 * This interface was referenced by `Cluster`'s JSON-Schema
 * via the `definition` "GCPPDCSIDriver".
 */
export interface GCPPDCSIDriver {
  /**
   * Enabled enables the GCP PD CSI driver (the gcp-pd-csi-driver addon and its StorageClasses). Only on GCE. Default: true on GCE.
   */
  enabled?: boolean;
  /**
   * Version is the tag of the driver's image (registry.k8s.io/cloud-provider-gcp/gcp-compute-persistent-disk-csi-driver). Default: v1.22.1.
   */
  version?: string;
  /**
   * DefaultStorageClassName is the driver's StorageClass marked default: balanced-csi (pd-balanced) or balanced-storage (hyperdisk-balanced). Default: balanced-csi.
   */
  defaultStorageClassName?: "balanced-csi" | "balanced-storage";
}
/**
 * ExternalDNSConfig are options of the dns-controller.
 *
 * This interface was referenced by `Cluster`'s JSON-Schema
 * via the `definition` "ExternalDNSConfig".
 */
export interface ExternalDNSConfig {
  /**
   * Disable indicates we do not wish to run the dns-controller addon. Default: false.
   */
  disable?: boolean;
  /**
   * WatchIngress indicates you want the dns-controller to watch and create dns entries for ingress resources. Default: true if provider is 'external-dns', false otherwise.
   */
  watchIngress?: boolean;
  /**
   * WatchNamespace is namespace to watch, defaults to all (use to control whom can creates dns entries). Default: all namespaces.
   */
  watchNamespace?: string;
  /**
   * Provider determines which implementation of ExternalDNS to use. 'dns-controller' will use kOps DNS Controller. 'external-dns' will use kubernetes-sigs/external-dns. Default: dns-controller.
   */
  provider?: ExternalDNSProvider;
}
/**
 * NTPConfig is the configuration for NTP.
 *
 * This interface was referenced by `Cluster`'s JSON-Schema
 * via the `definition` "NTPConfig".
 */
export interface NTPConfig {
  /**
   * Managed controls if the NTP configuration is managed by kOps. The NTP configuration task is skipped if this is set to false. Default: unset.
   */
  managed?: boolean;
  /**
   * Chrony replaces timesyncd for Ubuntu 20.04 and older when set to true. Default: unset.
   */
  chrony?: boolean;
}
/**
 * NodeIdentitySpec (kforge) is how workers obtain their kubelet certificates from the node-identity service (docs/node-identity.md).
 *
 * This interface was referenced by `Cluster`'s JSON-Schema
 * via the `definition` "NodeIdentitySpec".
 */
export interface NodeIdentitySpec {
  /**
   * Mode is Automatic (a worker proves its cloud identity, a signed sts:GetCallerIdentity on AWS, Google's instance identity token on GCE, and gets its certificate at once; a request without a proof is refused) or Approval (no proof is used: every request waits as pending until `kforge approve node-request NAME`; for machines without a cloud identity, e.g. bare metal through `kforge get nodeup-config`). Default: Automatic.
   */
  mode?: "Automatic" | "Approval";
}
/**
 * NodeTerminationHandlerConfig determines the node termination handler configuration.
 *
 * This interface was referenced by `Cluster`'s JSON-Schema
 * via the `definition` "NodeTerminationHandlerConfig".
 */
export interface NodeTerminationHandlerConfig {
  /**
   * Enabled enables the node termination handler. Default: true.
   */
  enabled?: boolean;
  /**
   * EnableSpotInterruptionDraining makes node termination handler drain nodes when spot interruption termination notice is received. Default: true.
   */
  enableSpotInterruptionDraining?: boolean;
  /**
   * EnableScheduledEventDraining makes node termination handler drain nodes before the maintenance window starts for an EC2 instance scheduled event. Default: false.
   */
  enableScheduledEventDraining?: boolean;
  /**
   * EnableRebalanceMonitoring makes node termination handler cordon nodes when the rebalance recommendation notice is received. Default: false.
   */
  enableRebalanceMonitoring?: boolean;
  /**
   * EnableRebalanceDraining makes node termination handler drain nodes when the rebalance recommendation notice is received. Default: false.
   */
  enableRebalanceDraining?: boolean;
  /**
   * EnablePrometheusMetrics enables the "/metrics" endpoint. Default: false.
   */
  prometheusEnable?: boolean;
  /**
   * EnableSQSTerminationDraining enables queue-processor mode which drains nodes when an SQS termination event is received. Default: false.
   */
  enableSQSTerminationDraining?: boolean;
  /**
   * ExcludeFromLoadBalancers makes node termination handler will mark for exclusion from load balancers before node are cordoned. Default: true.
   */
  excludeFromLoadBalancers?: boolean;
  /**
   * ManagedASGTag is the tag used to determine which nodes NTH can take action on. Default: unset.
   */
  managedASGTag?: string;
  /**
   * MemoryRequest of NodeTerminationHandler container. Default: 64Mi.
   */
  memoryRequest?: string | number;
  /**
   * CPURequest of NodeTerminationHandler container. Default: 50m.
   */
  cpuRequest?: string | number;
  /**
   * Version is the container image tag used. Default: unset.
   */
  version?: string;
}
/**
 * NodeProblemDetector determines the node problem detector configuration.
 *
 * This interface was referenced by `Cluster`'s JSON-Schema
 * via the `definition` "NodeProblemDetectorConfig".
 */
export interface NodeProblemDetectorConfig {
  /**
   * Enabled enables the NodeProblemDetector. Default: false.
   */
  enabled?: boolean;
  /**
   * Image is the NodeProblemDetector docker container used. Default: unset.
   */
  image?: string;
  /**
   * MemoryRequest of NodeProblemDetector container. Default: 80Mi.
   */
  memoryRequest?: string | number;
  /**
   * CPURequest of NodeProblemDetector container. Default: 10m.
   */
  cpuRequest?: string | number;
  /**
   * MemoryLimit of NodeProblemDetector container. Default: 80Mi.
   */
  memoryLimit?: string | number;
  /**
   * CPULimit of NodeProblemDetector container. Default: 10m.
   */
  cpuLimit?: string | number;
}
/**
 * MetricsServerConfig determines the metrics server configuration.
 *
 * This interface was referenced by `Cluster`'s JSON-Schema
 * via the `definition` "MetricsServerConfig".
 */
export interface MetricsServerConfig {
  /**
   * Enabled enables the metrics server. Default: false.
   */
  enabled?: boolean;
  /**
   * Image is the docker container used. Default: the latest supported image for the specified kubernetes version.
   */
  image?: string;
  /**
   * Insecure determines if API server will validate metrics server TLS cert. Default: true.
   */
  insecure?: boolean;
}
/**
 * CertManagerConfig determines the cert manager configuration.
 *
 * This interface was referenced by `Cluster`'s JSON-Schema
 * via the `definition` "CertManagerConfig".
 */
export interface CertManagerConfig {
  /**
   * Enabled enables the cert manager. Default: false.
   */
  enabled?: boolean;
  /**
   * Managed controls if cert-manager is manged and deployed by kOps. The deployment of cert-manager is skipped if this is set to false. Default: unset.
   */
  managed?: boolean;
  /**
   * Image is the docker container used. Default: the latest supported image for the specified kubernetes version.
   */
  image?: string;
  /**
   * defaultIssuer sets a default clusterIssuer. Default: none.
   */
  defaultIssuer?: string;
  /**
   * nameservers is a list of nameserver IP addresses to use instead of the pod defaults. Default: none.
   */
  nameservers?: string[];
  /**
   * HostedZoneIDs is a list of route53 hostedzone IDs that cert-manager will be allowed to do dns-01 validation for. Default: unset.
   */
  hostedZoneIDs?: string[];
  /**
   * FeatureGates of cert-manager (name to enabled). Default: unset.
   */
  featureGates?: {
    [k: string]: boolean;
  };
}
/**
 * AWSLoadBalancerControllerConfig determines the AWS LB controller configuration.
 *
 * This interface was referenced by `Cluster`'s JSON-Schema
 * via the `definition` "AWSLoadBalancerControllerConfig".
 */
export interface AWSLoadBalancerControllerConfig {
  /**
   * Enabled enables the loadbalancer controller. Default: false.
   */
  enabled?: boolean;
  /**
   * Version is the container image tag used. Default: unset.
   */
  version?: string;
  /**
   * EnableWAF specifies whether the controller can use WAFs (Classic Regional). Default: false.
   */
  enableWAF?: boolean;
  /**
   * EnableWAFv2 specifies whether the controller can use WAFs (V2). Default: false.
   */
  enableWAFv2?: boolean;
  /**
   * EnableShield specifies whether the controller can enable Shield Advanced. Default: false.
   */
  enableShield?: boolean;
  /**
   * CPURequest of the controller pods. Default: 50m.
   */
  cpuRequest?: string;
  /**
   * CPULimit of the controller pods. Default: unset.
   */
  cpuLimit?: string;
  /**
   * MemoryRequest of the controller pods. Default: 64Mi.
   */
  memoryRequest?: string;
  /**
   * MemoryLimit of the controller pods. Default: unset.
   */
  memoryLimit?: string;
}
/**
 * NetworkingSpec allows selection and configuration of a networking plugin.
 *
 * This interface was referenced by `Cluster`'s JSON-Schema
 * via the `definition` "NetworkingSpec".
 */
export interface NetworkingSpec {
  /**
   * Classic selects classic networking (removed since Kubernetes 1.4). Default: unset.
   */
  classic?: ClassicNetworkingSpec;
  /**
   * Kubenet selects kubenet networking. Default: unset.
   */
  kubenet?: KubenetNetworkingSpec;
  /**
   * External selects networking implemented by a user-provided daemonset using the kubenet plugin. Default: unset.
   */
  external?: ExternalNetworkingSpec;
  /**
   * CNI selects networking implemented by a user-provided CNI daemonset. Default: unset.
   */
  cni?: CNINetworkingSpec;
  /**
   * Kopeio selects kopeio networking. Default: unset.
   */
  kopeio?: KopeioNetworkingSpec;
  /**
   * Weave selects Weave networking. Default: unset.
   */
  weave?: WeaveNetworkingSpec;
  /**
   * Flannel selects Flannel networking. Default: unset.
   */
  flannel?: FlannelNetworkingSpec;
  /**
   * Calico selects Calico networking. Default: unset.
   */
  calico?: CalicoNetworkingSpec;
  /**
   * Canal selects Canal (Calico policy + Flannel) networking. Default: unset.
   */
  canal?: CanalNetworkingSpec;
  /**
   * Kuberouter selects kube-router networking. Default: unset.
   */
  kuberouter?: KuberouterNetworkingSpec;
  /**
   * Romana selects Romana networking (removed as of kOps 1.19). Default: unset.
   */
  romana?: RomanaNetworkingSpec;
  /**
   * AmazonVPC selects the Amazon VPC CNI. Default: unset.
   */
  amazonvpc?: AmazonVPCNetworkingSpec;
  /**
   * Cilium selects Cilium networking. Default: unset.
   */
  cilium?: CiliumNetworkingSpec;
  /**
   * LyftVPC selects the cni-ipvlan-vpc-k8s CNI. Default: unset.
   */
  lyftvpc?: LyftVPCNetworkingSpec;
  /**
   * GCE selects GCE IP-alias networking (older kops name of gcp). Default: unset.
   */
  gce?: GCENetworkingSpec;
  /**
   * GCP selects GCP IP-alias networking. Default: unset.
   */
  gcp?: GCPNetworkingSpec;
  /**
   * Kindnet selects kindnet networking. Default: unset.
   */
  kindnet?: KindnetNetworkingSpec;
}
/**
 * ClassicNetworkingSpec is the specification of classic networking mode, integrated into kubernetes.
 *
 * This interface was referenced by `Cluster`'s JSON-Schema
 * via the `definition` "ClassicNetworkingSpec".
 */
export interface ClassicNetworkingSpec {}
/**
 * KubenetNetworkingSpec is the specification for kubenet networking, largely integrated but intended to replace classic.
 *
 * This interface was referenced by `Cluster`'s JSON-Schema
 * via the `definition` "KubenetNetworkingSpec".
 */
export interface KubenetNetworkingSpec {}
/**
 * ExternalNetworkingSpec is the specification for networking that is implemented by a user-provided Daemonset that uses the Kubenet kubelet networking plugin.
 *
 * This interface was referenced by `Cluster`'s JSON-Schema
 * via the `definition` "ExternalNetworkingSpec".
 */
export interface ExternalNetworkingSpec {}
/**
 * CNINetworkingSpec is the specification for networking that is implemented by a user-provided Daemonset, which uses the CNI kubelet networking plugin.
 *
 * This interface was referenced by `Cluster`'s JSON-Schema
 * via the `definition` "CNINetworkingSpec".
 */
export interface CNINetworkingSpec {
  /**
   * UsesSecondaryIP indicates the CNI plugin gives pods secondary IPs of the node interfaces. Default: unset.
   */
  usesSecondaryIP?: boolean;
}
/**
 * KopeioNetworkingSpec declares that we want Kopeio networking.
 *
 * This interface was referenced by `Cluster`'s JSON-Schema
 * via the `definition` "KopeioNetworkingSpec".
 */
export interface KopeioNetworkingSpec {}
/**
 * WeaveNetworkingSpec declares that we want Weave networking.
 *
 * This interface was referenced by `Cluster`'s JSON-Schema
 * via the `definition` "WeaveNetworkingSpec".
 */
export interface WeaveNetworkingSpec {
  /**
   * MTU is the MTU of the weave network. Default: unset.
   */
  mtu?: number;
  /**
   * ConnLimit is the maximum number of weave peer connections. Default: unset.
   */
  connLimit?: number;
  /**
   * NoMasqLocal disables masquerading of local traffic. Default: unset.
   */
  noMasqLocal?: number;
  /**
   * MemoryRequest memory request of weave container. Default 200Mi. Default: 200Mi.
   */
  memoryRequest?: string | number;
  /**
   * CPURequest CPU request of weave container. Default 50m. Default: 50m.
   */
  cpuRequest?: string | number;
  /**
   * MemoryLimit memory limit of weave container. Default 200Mi. Default: 200Mi.
   */
  memoryLimit?: string | number;
  /**
   * CPULimit CPU limit of weave container. Default: unset.
   */
  cpuLimit?: string | number;
  /**
   * NetExtraArgs are extra arguments that are passed to weave-kube. Default: unset.
   */
  netExtraArgs?: string;
  /**
   * NPCMemoryRequest memory request of weave npc container. Default 200Mi. Default: 200Mi.
   */
  npcMemoryRequest?: string | number;
  /**
   * NPCCPURequest CPU request of weave npc container. Default 50m. Default: 50m.
   */
  npcCPURequest?: string | number;
  /**
   * NPCMemoryLimit memory limit of weave npc container. Default 200Mi. Default: 200Mi.
   */
  npcMemoryLimit?: string | number;
  /**
   * NPCCPULimit CPU limit of weave npc container. Default: unset.
   */
  npcCPULimit?: string | number;
  /**
   * NPCExtraArgs are extra arguments that are passed to weave-npc. Default: unset.
   */
  npcExtraArgs?: string;
  /**
   * Version specifies the Weave container image tag. The default depends on the kOps version. Default: the version bundled with kOps.
   */
  version?: string;
}
/**
 * FlannelNetworkingSpec declares that we want Flannel networking.
 *
 * This interface was referenced by `Cluster`'s JSON-Schema
 * via the `definition` "FlannelNetworkingSpec".
 */
export interface FlannelNetworkingSpec {
  /**
   * Backend is the backend overlay type we want to use (vxlan or udp). Default: vxlan.
   */
  backend?: "vxlan" | "udp";
  /**
   * DisableTxChecksumOffloading is deprecated as of kOps 1.19 and has no effect. Default: unset.
   */
  disableTxChecksumOffloading?: boolean;
  /**
   * IptablesResyncSeconds sets resync period for iptables rules, in seconds. Default: unset.
   */
  iptablesResyncSeconds?: number;
}
/**
 * CalicoNetworkingSpec declares that we want Calico networking.
 *
 * This interface was referenced by `Cluster`'s JSON-Schema
 * via the `definition` "CalicoNetworkingSpec".
 */
export interface CalicoNetworkingSpec {
  /**
   * Registry overrides the Calico container image registry. Default: unset.
   */
  registry?: string;
  /**
   * Version overrides the Calico container image tag. Default: unset.
   */
  version?: string;
  /**
   * AWSSrcDstCheck enables/disables ENI source/destination checks (AWS only). Options: Disable (default), Enable, or DoNothing. Default: Disable.
   */
  awsSrcDstCheck?: "Disable" | "Enable" | "DoNothing";
  /**
   * BPFEnabled enables the eBPF dataplane mode. Default: unset.
   */
  bpfEnabled?: boolean;
  /**
   * BPFExternalServiceMode controls how traffic from outside the cluster to NodePorts and ClusterIPs is handled. In Tunnel mode, packet is tunneled from the ingress host to the host with the backing pod and back again. In DSR mode, traffic is tunneled to the host with the backing pod and then returned directly; this requires a network that allows direct return. Default: Tunnel (other options: DSR).
   */
  bpfExternalServiceMode?: string;
  /**
   * BPFKubeProxyIptablesCleanupEnabled controls whether Felix will clean up the iptables rules created by the Kubernetes kube-proxy; should only be enabled if kube-proxy is not running. Default: unset.
   */
  bpfKubeProxyIptablesCleanupEnabled?: boolean;
  /**
   * BPFLogLevel controls the log level used by the BPF programs. The logs are emitted to the BPF trace pipe, accessible with the command tc exec BPF debug. Default: Off (other options: Info, Debug).
   */
  bpfLogLevel?: string;
  /**
   * ChainInsertMode controls whether Felix inserts rules to the top of iptables chains, or appends to the bottom. Leaving the default option is safest to prevent accidentally breaking connectivity. Default: 'insert' (other options: 'append').
   */
  chainInsertMode?: string;
  /**
   * CPURequest CPU request of Calico container. Default: 100m.
   */
  cpuRequest?: string | number;
  /**
   * CrossSubnet is deprecated as of kOps 1.22 and has no effect. Default: unset.
   */
  crossSubnet?: boolean;
  /**
   * EncapsulationMode specifies the network packet encapsulation protocol for Calico to use, employing such encapsulation at the necessary scope per the related CrossSubnet field. In "ipip" mode, Calico will use IP-in-IP encapsulation as needed. In "vxlan" mode, Calico will encapsulate packets as needed using the VXLAN scheme. Options: ipip (default) or vxlan. Default: ipip.
   */
  encapsulationMode?: "ipip" | "vxlan";
  /**
   * IPIPMode determines when to use IP-in-IP encapsulation for the default Calico IPv4 pool. It is conveyed to the "calico-node" daemon container via the CALICO_IPV4POOL_IPIP environment variable. EncapsulationMode must be set to "ipip". Options: "CrossSubnet", "Always", or "Never". Default: "CrossSubnet" if EncapsulationMode is "ipip", "Never" otherwise.
   */
  ipipMode?: string;
  /**
   * IPv4AutoDetectionMethod configures how Calico chooses the IP address used to route between nodes. This should be set when the host has multiple interfaces and it is important to select the interface used. Options: "first-found" (default), "can-reach=DESTINATION", "interface=INTERFACE-REGEX", or "skip-interface=INTERFACE-REGEX". Default: first-found.
   */
  ipv4AutoDetectionMethod?: string;
  /**
   * IPv6AutoDetectionMethod configures how Calico chooses the IP address used to route between nodes. This should be set when the host has multiple interfaces and it is important to select the interface used. Options: "first-found" (default), "can-reach=DESTINATION", "interface=INTERFACE-REGEX", or "skip-interface=INTERFACE-REGEX". Default: first-found.
   */
  ipv6AutoDetectionMethod?: string;
  /**
   * IptablesBackend controls which variant of iptables binary Felix uses. Default: Auto (other options: Legacy, NFT).
   */
  iptablesBackend?: string;
  /**
   * LogSeverityScreen lets us set the desired log level. (Default: info).
   */
  logSeverityScreen?: string;
  /**
   * MTU to be set in the cni-network-config for calico. Default: unset.
   */
  mtu?: number;
  /**
   * PrometheusMetricsEnabled can be set to enable the experimental Prometheus metrics server (default: false). Default: false.
   */
  prometheusMetricsEnabled?: boolean;
  /**
   * PrometheusMetricsPort is the TCP port that the experimental Prometheus metrics server should bind to (default: 9091). Default: 9091.
   */
  prometheusMetricsPort?: number;
  /**
   * PrometheusGoMetricsEnabled enables Prometheus Go runtime metrics collection. Default: unset.
   */
  prometheusGoMetricsEnabled?: boolean;
  /**
   * PrometheusProcessMetricsEnabled enables Prometheus process metrics collection. Default: unset.
   */
  prometheusProcessMetricsEnabled?: boolean;
  /**
   * MajorVersion is deprecated as of kOps 1.20 and has no effect. Default: unset.
   */
  majorVersion?: string;
  /**
   * TyphaPrometheusMetricsEnabled enables Prometheus metrics collection from Typha (default: false). Default: false.
   */
  typhaPrometheusMetricsEnabled?: boolean;
  /**
   * TyphaPrometheusMetricsPort is the TCP port the typha Prometheus metrics server should bind to (default: 9093). Default: 9093.
   */
  typhaPrometheusMetricsPort?: number;
  /**
   * TyphaReplicas is the number of replicas of Typha to deploy. Default: unset.
   */
  typhaReplicas?: number;
  /**
   * VXLANMode determines when to use VXLAN encapsulation for the default Calico IPv4 pool. It is conveyed to the "calico-node" daemon container via the CALICO_IPV4POOL_VXLAN environment variable. EncapsulationMode must be set to "vxlan". Options: "CrossSubnet", "Always", or "Never". Default: "CrossSubnet" if EncapsulationMode is "vxlan", "Never" otherwise.
   */
  vxlanMode?: string;
  /**
   * WireguardEnabled enables WireGuard encryption for all on-the-wire pod-to-pod traffic (default: false). Default: false.
   */
  wireguardEnabled?: boolean;
}
/**
 * CanalNetworkingSpec declares that we want Canal networking.
 *
 * This interface was referenced by `Cluster`'s JSON-Schema
 * via the `definition` "CanalNetworkingSpec".
 */
export interface CanalNetworkingSpec {
  /**
   * ChainInsertMode controls whether Felix inserts rules to the top of iptables chains, or appends to the bottom. Leaving the default option is safest to prevent accidentally breaking connectivity. Default: 'insert' (other options: 'append').
   */
  chainInsertMode?: string;
  /**
   * CPURequest CPU request of Canal container. Default: 100m.
   */
  cpuRequest?: string | number;
  /**
   * DefaultEndpointToHostAction allows users to configure the default behaviour for traffic between pod to host after calico rules have been processed. Default: ACCEPT (other options: DROP, RETURN).
   */
  defaultEndpointToHostAction?: string;
  /**
   * DisableFlannelForwardRules configures Flannel to NOT add the default ACCEPT traffic rules to the iptables FORWARD chain. Default: unset.
   */
  disableFlannelForwardRules?: boolean;
  /**
   * DisableTxChecksumOffloading is deprecated as of kOps 1.19 and has no effect. Default: unset.
   */
  disableTxChecksumOffloading?: boolean;
  /**
   * IptablesBackend controls which variant of iptables binary Felix uses. Default: Auto (other options: Legacy, NFT).
   */
  iptablesBackend?: string;
  /**
   * LogSeveritySys the severity to set for logs which are sent to syslog. Default: INFO (other options: DEBUG, WARNING, ERROR, CRITICAL, NONE).
   */
  logSeveritySys?: string;
  /**
   * MTU to be set in the cni-network-config (default: 1500). Default: 1500.
   */
  mtu?: number;
  /**
   * PrometheusGoMetricsEnabled enables Prometheus Go runtime metrics collection. Default: unset.
   */
  prometheusGoMetricsEnabled?: boolean;
  /**
   * PrometheusMetricsEnabled can be set to enable the experimental Prometheus metrics server (default: false). Default: false.
   */
  prometheusMetricsEnabled?: boolean;
  /**
   * PrometheusMetricsPort is the TCP port that the experimental Prometheus metrics server should bind to (default: 9091). Default: 9091.
   */
  prometheusMetricsPort?: number;
  /**
   * PrometheusProcessMetricsEnabled enables Prometheus process metrics collection. Default: unset.
   */
  prometheusProcessMetricsEnabled?: boolean;
  /**
   * TyphaPrometheusMetricsEnabled enables Prometheus metrics collection from Typha (default: false). Default: false.
   */
  typhaPrometheusMetricsEnabled?: boolean;
  /**
   * TyphaPrometheusMetricsPort is the TCP port the typha Prometheus metrics server should bind to (default: 9093). Default: 9093.
   */
  typhaPrometheusMetricsPort?: number;
  /**
   * TyphaReplicas is the number of replicas of Typha to deploy. Default: unset.
   */
  typhaReplicas?: number;
}
/**
 * KuberouterNetworkingSpec declares that we want Kube-router networking.
 *
 * This interface was referenced by `Cluster`'s JSON-Schema
 * via the `definition` "KuberouterNetworkingSpec".
 */
export interface KuberouterNetworkingSpec {}
/**
 * RomanaNetworkingSpec declares that we want Romana networking. Romana is deprecated as of kOps 1.18 and removed as of kOps 1.19.
 *
 * This interface was referenced by `Cluster`'s JSON-Schema
 * via the `definition` "RomanaNetworkingSpec".
 */
export interface RomanaNetworkingSpec {
  /**
   * DaemonServiceIP is the Kubernetes Service IP for the romana-daemon pod. Default: unset.
   */
  daemonServiceIP?: string;
  /**
   * EtcdServiceIP is the Kubernetes Service IP for the etcd backend used by Romana. Default: unset.
   */
  etcdServiceIP?: string;
}
/**
 * AmazonVPCNetworkingSpec declares that we want Amazon VPC CNI networking.
 *
 * This interface was referenced by `Cluster`'s JSON-Schema
 * via the `definition` "AmazonVPCNetworkingSpec".
 */
export interface AmazonVPCNetworkingSpec {
  /**
   * ImageName is the container image name to use. Default: unset.
   */
  imageName?: string;
  /**
   * InitImageName is the init container image name to use. Default: unset.
   */
  initImageName?: string;
  /**
   * Env is a list of environment variables to set in the container. Default: unset.
   */
  env?: EnvVar[];
  /**
   * NetworkPolicyAgentImage is the container image of the Amazon VPC CNI network policy agent. Default: the image that matches the VPC CNI version.
   */
  networkPolicyAgentImage?: string;
}
/**
 * CiliumNetworkingSpec declares that we want Cilium networking.
 *
 * This interface was referenced by `Cluster`'s JSON-Schema
 * via the `definition` "CiliumNetworkingSpec".
 */
export interface CiliumNetworkingSpec {
  /**
   * Version is the version of the Cilium agent and the Cilium Operator. Default: unset.
   */
  version?: string;
  /**
   * MemoryRequest memory request of Cilium agent + operator container. (default: 128Mi). Default: 128Mi.
   */
  memoryRequest?: string | number;
  /**
   * CPURequest CPU request of Cilium agent + operator container. (default: 25m). Default: 25m.
   */
  cpuRequest?: string | number;
  /**
   * AccessLog is not implemented; setting this has no effect. Default: unset.
   */
  accessLog?: string;
  /**
   * AgentLabels is not implemented; setting this has no effect. Default: unset.
   */
  agentLabels?: string[];
  /**
   * AgentPrometheusPort is the port to listen to for Prometheus metrics. Defaults to 9090. Default: 9090.
   */
  agentPrometheusPort?: number;
  /**
   * AllowLocalhost is not implemented; setting this has no effect. Default: unset.
   */
  allowLocalhost?: string;
  /**
   * AutoIpv6NodeRoutes is not implemented; setting this has no effect. Default: unset.
   */
  autoIpv6NodeRoutes?: boolean;
  /**
   * BPFRoot is not implemented; setting this has no effect. Default: unset.
   */
  bpfRoot?: string;
  /**
   * ContainerRuntime is not implemented; setting this has no effect. Default: unset.
   */
  containerRuntime?: string[];
  /**
   * ContainerRuntimeEndpoint is not implemented; setting this has no effect. Default: unset.
   */
  containerRuntimeEndpoint?: {
    [k: string]: string;
  };
  /**
   * Debug runs Cilium in debug mode. Default: unset.
   */
  debug?: boolean;
  /**
   * DebugVerbose is not implemented; setting this has no effect. Default: unset.
   */
  debugVerbose?: string[];
  /**
   * Device is not implemented; setting this has no effect. Default: unset.
   */
  device?: string;
  /**
   * DisableConntrack is not implemented; setting this has no effect. Default: unset.
   */
  disableConntrack?: boolean;
  /**
   * DisableEndpointCRD disables usage of CiliumEndpoint CRD. Default: false.
   */
  disableEndpointCRD?: boolean;
  /**
   * DisableIpv4 is deprecated: Use EnableIpv4 instead. Setting this flag has no effect. Default: unset.
   */
  disableIpv4?: boolean;
  /**
   * DisableK8sServices is not implemented; setting this has no effect. Default: unset.
   */
  disableK8sServices?: boolean;
  /**
   * EnablePolicy specifies the policy enforcement mode. "default": Follows Kubernetes policy enforcement. "always": Cilium restricts all traffic if no policy is in place. "never": Cilium allows all traffic regardless of policies in place. If unspecified, "default" policy mode will be used. Default: default.
   */
  enablePolicy?: string;
  /**
   * EnableL7Proxy enables L7 proxy for L7 policy enforcement. Default: true.
   */
  enableL7Proxy?: boolean;
  /**
   * EnableBPFMasquerade enables masquerading packets from endpoints leaving the host with BPF instead of iptables. Default: false.
   */
  enableBPFMasquerade?: boolean;
  /**
   * EnableEndpointHealthChecking enables connectivity health checking between virtual endpoints. Default: true.
   */
  enableEndpointHealthChecking?: boolean;
  /**
   * EnableTracing is not implemented; setting this has no effect. Default: unset.
   */
  enableTracing?: boolean;
  /**
   * EnablePrometheusMetrics enables the Cilium "/metrics" endpoint for both the agent and the operator. Default: unset.
   */
  enablePrometheusMetrics?: boolean;
  /**
   * EnableEncryption enables Cilium Encryption. Default: false.
   */
  enableEncryption?: boolean;
  /**
   * EncryptionType specifies Cilium Encryption method ("ipsec", "wireguard"). Default: ipsec.
   */
  encryptionType?: string;
  /**
   * EnvoyLog is not implemented; setting this has no effect. Default: unset.
   */
  envoyLog?: string;
  /**
   * IdentityAllocationMode specifies in which backend identities are stored ("crd", "kvstore"). Default: crd.
   */
  identityAllocationMode?: string;
  /**
   * IdentityChangeGracePeriod specifies the duration to wait before using a changed identity. Default: 5s.
   */
  identityChangeGracePeriod?: string;
  /**
   * Ipv4ClusterCIDRMaskSize is not implemented; setting this has no effect. Default: unset.
   */
  ipv4ClusterCidrMaskSize?: number;
  /**
   * Ipv4Node is not implemented; setting this has no effect. Default: unset.
   */
  ipv4Node?: string;
  /**
   * Ipv4Range is not implemented; setting this has no effect. Default: unset.
   */
  ipv4Range?: string;
  /**
   * Ipv4ServiceRange is not implemented; setting this has no effect. Default: unset.
   */
  ipv4ServiceRange?: string;
  /**
   * Ipv6ClusterAllocCidr is not implemented; setting this has no effect. Default: unset.
   */
  ipv6ClusterAllocCidr?: string;
  /**
   * Ipv6Node is not implemented; setting this has no effect. Default: unset.
   */
  ipv6Node?: string;
  /**
   * Ipv6Range is not implemented; setting this has no effect. Default: unset.
   */
  ipv6Range?: string;
  /**
   * Ipv6ServiceRange is not implemented; setting this has no effect. Default: unset.
   */
  ipv6ServiceRange?: string;
  /**
   * K8sAPIServer is not implemented; setting this has no effect. Default: unset.
   */
  k8sApiServer?: string;
  /**
   * K8sKubeconfigPath is not implemented; setting this has no effect. Default: unset.
   */
  k8sKubeconfigPath?: string;
  /**
   * KeepBPFTemplates is not implemented; setting this has no effect. Default: unset.
   */
  keepBpfTemplates?: boolean;
  /**
   * KeepConfig is not implemented; setting this has no effect. Default: unset.
   */
  keepConfig?: boolean;
  /**
   * LabelPrefixFile is not implemented; setting this has no effect. Default: unset.
   */
  labelPrefixFile?: string;
  /**
   * Labels is not implemented; setting this has no effect. Default: unset.
   */
  labels?: string[];
  /**
   * LB is not implemented; setting this has no effect. Default: unset.
   */
  lb?: string;
  /**
   * LibDir is not implemented; setting this has no effect. Default: unset.
   */
  libDir?: string;
  /**
   * LogDrivers is not implemented; setting this has no effect. Default: unset.
   */
  logDriver?: string[];
  /**
   * LogOpt is not implemented; setting this has no effect. Default: unset.
   */
  logOpt?: {
    [k: string]: string;
  };
  /**
   * Logstash is not implemented; setting this has no effect. Default: unset.
   */
  logstash?: boolean;
  /**
   * LogstashAgent is not implemented; setting this has no effect. Default: unset.
   */
  logstashAgent?: string;
  /**
   * LogstashProbeTimer is not implemented; setting this has no effect. Default: unset.
   */
  logstashProbeTimer?: number;
  /**
   * DisableMasquerade disables masquerading traffic to external destinations behind the node IP. Default: unset.
   */
  disableMasquerade?: boolean;
  /**
   * Nat46Range is not implemented; setting this has no effect. Default: unset.
   */
  nat46Range?: string;
  /**
   * Pprof is not implemented; setting this has no effect. Default: unset.
   */
  pprof?: boolean;
  /**
   * PrefilterDevice is not implemented; setting this has no effect. Default: unset.
   */
  prefilterDevice?: string;
  /**
   * PrometheusServeAddr is deprecated. Use EnablePrometheusMetrics and AgentPrometheusPort instead. Setting this has no effect. Default: unset.
   */
  prometheusServeAddr?: string;
  /**
   * Restore is not implemented; setting this has no effect. Default: unset.
   */
  restore?: boolean;
  /**
   * SingleClusterRoute is not implemented; setting this has no effect. Default: unset.
   */
  singleClusterRoute?: boolean;
  /**
   * SocketPath is not implemented; setting this has no effect. Default: unset.
   */
  socketPath?: string;
  /**
   * StateDir is not implemented; setting this has no effect. Default: unset.
   */
  stateDir?: string;
  /**
   * TracePayloadLen is not implemented; setting this has no effect. Default: unset.
   */
  tracePayloadlen?: number;
  /**
   * Tunnel specifies the Cilium tunnelling mode. Possible values are "vxlan", "geneve", or "disabled". Default: vxlan.
   */
  tunnel?: string;
  /**
   * EnableIpv6 is not implemented; setting this has no effect. Default: unset.
   */
  enableipv6?: boolean;
  /**
   * EnableIpv4 is not implemented; setting this has no effect. Default: unset.
   */
  enableipv4?: boolean;
  /**
   * MonitorAggregation sets the level of packet monitoring. Possible values are "low", "medium", or "maximum". Default: medium.
   */
  monitorAggregation?: string;
  /**
   * BPFCTGlobalTCPMax is the maximum number of entries in the TCP CT table. Default: 524288.
   */
  bpfCTGlobalTCPMax?: number;
  /**
   * BPFCTGlobalAnyMax is the maximum number of entries in the non-TCP CT table. Default: 262144.
   */
  bpfCTGlobalAnyMax?: number;
  /**
   * BPFLBAlgorithm is the load balancing algorithm ("random", "maglev"). Default: random.
   */
  bpfLBAlgorithm?: string;
  /**
   * BPFLBMaglevTableSize is the per service backend table size when going with Maglev (parameter M). Default: 16381.
   */
  bpfLBMaglevTableSize?: string;
  /**
   * BPFNATGlobalMax is the the maximum number of entries in the BPF NAT table. Default: 524288.
   */
  bpfNATGlobalMax?: number;
  /**
   * BPFNeighGlobalMax is the the maximum number of entries in the BPF Neighbor table. Default: 524288.
   */
  bpfNeighGlobalMax?: number;
  /**
   * BPFPolicyMapMax is the maximum number of entries in endpoint policy map. Default: 16384.
   */
  bpfPolicyMapMax?: number;
  /**
   * BPFLBMapMax is the maximum number of entries in bpf lb service, backend and affinity maps. Default: 65536.
   */
  bpfLBMapMax?: number;
  /**
   * PreallocateBPFMaps reduces the per-packet latency at the expense of up-front memory allocation. Default: true.
   */
  preallocateBPFMaps?: boolean;
  /**
   * SidecarIstioProxyImage is the regular expression matching compatible Istio sidecar istio-proxy container image names. Default: cilium/istio_proxy.
   */
  sidecarIstioProxyImage?: string;
  /**
   * ClusterName is the name of the cluster. It is only relevant when building a mesh of clusters. Default: unset.
   */
  clusterName?: string;
  /**
   * ToFqdnsDNSRejectResponseCode sets the DNS response code for rejecting DNS requests. Possible values are "nameError" or "refused". Default: refused.
   */
  toFqdnsDnsRejectResponseCode?: string;
  /**
   * ToFqdnsEnablePoller replaces the DNS proxy-based implementation of FQDN policies with the less powerful legacy implementation. Default: false.
   */
  toFqdnsEnablePoller?: boolean;
  /**
   * ContainerRuntimeLabels enables fetching of container-runtime labels from the specified container runtime and associating them with endpoints. As of Cilium 1.7.0, Cilium no longer fetches information from the container runtime and this field is ignored. Default: none.
   */
  containerRuntimeLabels?: string;
  /**
   * Ipam specifies the IP address allocation mode to use. Possible values are "crd" and "eni". "eni" will use AWS native networking for pods. Eni requires masquerade to be set to false. "crd" will use CRDs for controlling IP address management. "hostscope" will use hostscope IPAM mode. "kubernetes" will use addersing based on node pod CIDR. Empty value will use hostscope for cilum <= 1.7 and "kubernetes" otherwise. Default: unset (kubernetes IPAM, i.e. addresses from the node pod CIDR).
   */
  ipam?: string;
  /**
   * IPTablesRulesNoinstall disables installing the base IPTables rules used for masquerading and kube-proxy. Default: false.
   */
  IPTablesRulesNoinstall?: boolean;
  /**
   * AutoDirectNodeRoutes adds automatic L2 routing between nodes. Default: false.
   */
  autoDirectNodeRoutes?: boolean;
  /**
   * EnableHostReachableServices configures Cilium to enable services to be reached from the host namespace in addition to pod namespaces. Default: false.
   */
  enableHostReachableServices?: boolean;
  /**
   * EnableNodePort replaces kube-proxy with Cilium's BPF implementation. Requires spec.kubeProxy.enabled be set to false. Default: false.
   */
  enableNodePort?: boolean;
  /**
   * EtcdManagd installs an additional etcd cluster that is used for Cilium state change. The cluster is operated by cilium-etcd-operator. Default: false.
   */
  etcdManaged?: boolean;
  /**
   * EnableRemoteNodeIdentity enables the remote-node-identity added in Cilium 1.7.0. Default: true.
   */
  enableRemoteNodeIdentity?: boolean;
  /**
   * Hubble configures the Hubble service on the Cilium agent. Default: unset.
   */
  hubble?: HubbleSpec;
  /**
   * RemoveCbrBridge is not implemented; setting this has no effect. Default: unset.
   */
  removeCbrBridge?: boolean;
  /**
   * RestartPods is not implemented; setting this has no effect. Default: unset.
   */
  restartPods?: boolean;
  /**
   * ReconfigureKubelet is not implemented; setting this has no effect. Default: unset.
   */
  reconfigureKubelet?: boolean;
  /**
   * NodeInitBootstrapFile is not implemented; setting this has no effect. Default: unset.
   */
  nodeInitBootstrapFile?: string;
  /**
   * CniBinPath is not implemented; setting this has no effect. Default: unset.
   */
  cniBinPath?: string;
  /**
   * AgentPodAnnotations are annotations added to the cilium agent pods. Default: unset.
   */
  agentPodAnnotations?: {
    [k: string]: string;
  };
  /**
   * OperatorPodAnnotations are annotations added to the cilium operator pods. Default: unset.
   */
  operatorPodAnnotations?: {
    [k: string]: string;
  };
  /**
   * ClusterID is the unique identifier of this cluster in a cilium cluster mesh (0-255). Default: unset (0).
   */
  clusterID?: number;
  /**
   * EnableHostFirewall enables cilium's host firewall, which applies network policies to the nodes themselves. Default: false.
   */
  enableHostFirewall?: boolean;
  /**
   * Ingress configures cilium's ingress controller. Default: unset (disabled).
   */
  ingress?: {
    /**
     * Enabled enables cilium's ingress controller. Default: false.
     */
    enabled?: boolean;
    /**
     * EnforceHttps redirects HTTP to HTTPS for ingresses with TLS. Default: true.
     */
    enforceHttps?: boolean;
    /**
     * EnableSecretsSync syncs TLS secrets of ingresses into cilium's namespace. Default: true.
     */
    enableSecretsSync?: boolean;
    /**
     * LoadBalancerAnnotationPrefixes are the service annotation prefixes copied to the ingress load balancer service. Default: unset.
     */
    loadBalancerAnnotationPrefixes?: string;
    /**
     * DefaultLoadBalancerMode is `dedicated` (a load balancer per ingress) or `shared`. Default: dedicated.
     */
    defaultLoadBalancerMode?: "dedicated" | "shared";
    /**
     * SharedLoadBalancerServiceName names the shared load balancer service. Default: cilium-ingress.
     */
    sharedLoadBalancerServiceName?: string;
  };
}
/**
 * HubbleSpec configures the Hubble service on the Cilium agent.
 *
 * This interface was referenced by `Cluster`'s JSON-Schema
 * via the `definition` "HubbleSpec".
 */
export interface HubbleSpec {
  /**
   * Enabled decides if Hubble is enabled on the agent or not. Default: unset.
   */
  enabled?: boolean;
  /**
   * Metrics is a list of metrics to collect. If empty or null, metrics are disabled. Default: unset.
   */
  metrics?: string[];
}
/**
 * LyftVPCNetworkingSpec declares that we want to use the cni-ipvlan-vpc-k8s CNI networking.
 *
 * This interface was referenced by `Cluster`'s JSON-Schema
 * via the `definition` "LyftVPCNetworkingSpec".
 */
export interface LyftVPCNetworkingSpec {
  /**
   * SubnetTags are the tags used to select the pod subnets. Default: unset.
   */
  subnetTags?: {
    [k: string]: string;
  };
}
/**
 * GCENetworkingSpec is the specification of GCE's native networking mode, using IP aliases.
 *
 * This interface was referenced by `Cluster`'s JSON-Schema
 * via the `definition` "GCENetworkingSpec".
 */
export interface GCENetworkingSpec {}
/**
 * GCPNetworkingSpec is the specification of GCP's native networking mode, using IP aliases.
 *
 * This interface was referenced by `Cluster`'s JSON-Schema
 * via the `definition` "GCPNetworkingSpec".
 */
export interface GCPNetworkingSpec {}
/**
 * KindnetNetworkingSpec declares that we want kindnet networking (its options are not modelled yet).
 *
 * This interface was referenced by `Cluster`'s JSON-Schema
 * via the `definition` "KindnetNetworkingSpec".
 */
export interface KindnetNetworkingSpec {}
/**
 * AccessSpec provides configuration details related to kubeapi dns and ELB access.
 *
 * This interface was referenced by `Cluster`'s JSON-Schema
 * via the `definition` "AccessSpec".
 */
export interface AccessSpec {
  /**
   * DNS will be used to provide config on kube-apiserver ELB DNS. Default: unset.
   */
  dns?: DNSAccessSpec;
  /**
   * LoadBalancer is the configuration for the kube-apiserver ELB. Default: unset.
   */
  loadBalancer?: LoadBalancerAccessSpec;
  /**
   * PublicName is the external DNS name for the Kubernetes API (kops v1alpha3 name; kforge treats it as an alias of spec.masterPublicName). Default: the value of spec.masterPublicName.
   */
  publicName?: string;
  /**
   * AdditionalSANs adds additional Subject Alternate Names to the kube-apiserver certificate (kops v1alpha3 name; merged with spec.additionalSans). Default: unset.
   */
  additionalSANs?: string[];
  /**
   * Access is a list of the CIDRs that can access the Kubernetes API endpoint (kops v1alpha3 name; merged with spec.kubernetesApiAccess). Default: unset.
   */
  access?: string[];
}
/**
 * DNSAccessSpec exposes the API through a DNS record pointing at the control plane (no options).
 *
 * This interface was referenced by `Cluster`'s JSON-Schema
 * via the `definition` "DNSAccessSpec".
 */
export interface DNSAccessSpec {}
/**
 * LoadBalancerAccessSpec provides configuration details related to API LoadBalancer and its access.
 *
 * This interface was referenced by `Cluster`'s JSON-Schema
 * via the `definition` "LoadBalancerAccessSpec".
 */
export interface LoadBalancerAccessSpec {
  /**
   * LoadBalancerClass specifies the class of load balancer to create: Classic, Network. Default: unset.
   */
  class?: LoadBalancerClass;
  /**
   * Type of load balancer to create may Public or Internal. Default: unset (required when loadBalancer is set).
   */
  type?: LoadBalancerType;
  /**
   * IdleTimeoutSeconds sets the timeout of the api loadbalancer. Default: 300.
   */
  idleTimeoutSeconds?: number;
  /**
   * SecurityGroupOverride overrides the default Kops created SG for the load balancer. Default: unset.
   */
  securityGroupOverride?: string;
  /**
   * AdditionalSecurityGroups attaches additional security groups (e.g. sg-123456). Default: unset.
   */
  additionalSecurityGroups?: string[];
  /**
   * UseForInternalAPI indicates whether the LB should be used by the kubelet. Default: unset.
   */
  useForInternalApi?: boolean;
  /**
   * SSLCertificate allows you to specify the ACM cert to be used the LB. Default: unset.
   */
  sslCertificate?: string;
  /**
   * SSLPolicy allows you to overwrite the LB listener's Security Policy. Default: unset.
   */
  sslPolicy?: string;
  /**
   * CrossZoneLoadBalancing allows you to enable the cross zone load balancing. Default: false.
   */
  crossZoneLoadBalancing?: boolean;
  /**
   * Subnets allows you to specify the subnets that must be used for the load balancer. Default: unset.
   */
  subnets?: LoadBalancerSubnetSpec[];
  /**
   * AccessLog is the configuration of access logs. Default: unset.
   */
  accessLog?: AccessLogSpec;
}
/**
 * LoadBalancerSubnetSpec provides configuration for subnets used for a load balancer.
 *
 * This interface was referenced by `Cluster`'s JSON-Schema
 * via the `definition` "LoadBalancerSubnetSpec".
 */
export interface LoadBalancerSubnetSpec {
  /**
   * Name specifies the name of the cluster subnet. Default: unset.
   */
  name?: string;
  /**
   * PrivateIPv4Address specifies the private IPv4 address to use for a NLB. Default: unset.
   */
  privateIPv4Address?: string;
  /**
   * AllocationID specifies the Elastic IP Allocation ID for use by a NLB. Default: unset.
   */
  allocationId?: string;
}
/**
 * AccessLogSpec configures load balancer access logs.
 *
 * This interface was referenced by `Cluster`'s JSON-Schema
 * via the `definition` "AccessLogSpec".
 */
export interface AccessLogSpec {
  /**
   * Interval is publishing interval in minutes. This parameter is only used with classic load balancer. Default: unset.
   */
  interval?: number;
  /**
   * Bucket is S3 bucket name to store the logs in. Default: unset.
   */
  bucket?: string;
  /**
   * BucketPrefix is S3 bucket prefix. Logs are stored in the root if not configured. Default: unset.
   */
  bucketPrefix?: string;
}
/**
 * AuthenticationSpec configures the authentication webhooks of the cluster.
 *
 * This interface was referenced by `Cluster`'s JSON-Schema
 * via the `definition` "AuthenticationSpec".
 */
export interface AuthenticationSpec {
  /**
   * Kopeio enables the kopeio authentication webhook. Default: unset.
   */
  kopeio?: KopeioAuthenticationSpec;
  /**
   * AWS enables the AWS IAM Authenticator. Default: unset.
   */
  aws?: AWSAuthenticationSpec;
}
/**
 * KopeioAuthenticationSpec enables kopeio authentication (no options).
 *
 * This interface was referenced by `Cluster`'s JSON-Schema
 * via the `definition` "KopeioAuthenticationSpec".
 */
export interface KopeioAuthenticationSpec {}
/**
 * AWSAuthenticationSpec configures the AWS IAM Authenticator.
 *
 * This interface was referenced by `Cluster`'s JSON-Schema
 * via the `definition` "AWSAuthenticationSpec".
 */
export interface AWSAuthenticationSpec {
  /**
   * Image is the AWS IAM Authenticator docker image to uses. Default: unset.
   */
  image?: string;
  /**
   * BackendMode is the AWS IAM Authenticator backend to use. Default MountedFile. Default: MountedFile.
   */
  backendMode?: string;
  /**
   * ClusterID identifies the cluster performing authentication to prevent certain replay attacks. Default master public DNS name. Default: the master public DNS name.
   */
  clusterID?: string;
  /**
   * MemoryRequest memory request of AWS IAM Authenticator container. Default 20Mi. Default: 20Mi.
   */
  memoryRequest?: string | number;
  /**
   * CPURequest CPU request of AWS IAM Authenticator container. Default 10m. Default: 10m.
   */
  cpuRequest?: string | number;
  /**
   * MemoryLimit memory limit of AWS IAM Authenticator container. Default 20Mi. Default: 20Mi.
   */
  memoryLimit?: string | number;
  /**
   * CPULimit CPU limit of AWS IAM Authenticator container. Default 10m. Default: 10m.
   */
  cpuLimit?: string | number;
  /**
   * IdentityMappings maps IAM Identities to Kubernetes users/groups. Default: unset.
   */
  identityMappings?: AWSAuthenticationIdentityMappingSpec[];
}
/**
 * AWSAuthenticationIdentityMappingSpec maps an IAM identity to a Kubernetes user and groups.
 *
 * This interface was referenced by `Cluster`'s JSON-Schema
 * via the `definition` "AWSAuthenticationIdentityMappingSpec".
 */
export interface AWSAuthenticationIdentityMappingSpec {
  /**
   * Arn of the IAM User or IAM Role to be allowed to authenticate. Default: unset.
   */
  arn?: string;
  /**
   * Username that Kubernetes will see the user as. Default: unset.
   */
  username?: string;
  /**
   * Groups to be attached to your users/roles. Default: unset.
   */
  groups?: string[];
}
/**
 * AuthorizationSpec selects the authorization mode of the cluster.
 *
 * This interface was referenced by `Cluster`'s JSON-Schema
 * via the `definition` "AuthorizationSpec".
 */
export interface AuthorizationSpec {
  /**
   * AlwaysAllow selects the AlwaysAllow authorizer (no authorization). Default: unset.
   */
  alwaysAllow?: AlwaysAllowAuthorizationSpec;
  /**
   * RBAC selects the RBAC authorizer. Default: unset.
   */
  rbac?: RBACAuthorizationSpec;
}
/**
 * AlwaysAllowAuthorizationSpec selects AlwaysAllow authorization (no options).
 *
 * This interface was referenced by `Cluster`'s JSON-Schema
 * via the `definition` "AlwaysAllowAuthorizationSpec".
 */
export interface AlwaysAllowAuthorizationSpec {}
/**
 * RBACAuthorizationSpec selects RBAC authorization (no options).
 *
 * This interface was referenced by `Cluster`'s JSON-Schema
 * via the `definition` "RBACAuthorizationSpec".
 */
export interface RBACAuthorizationSpec {}
/**
 * NodeAuthorizationSpec is used to node authorization.
 *
 * This interface was referenced by `Cluster`'s JSON-Schema
 * via the `definition` "NodeAuthorizationSpec".
 */
export interface NodeAuthorizationSpec {
  /**
   * NodeAuthorizer defined the configuration for the node authorizer. Default: unset.
   */
  nodeAuthorizer?: NodeAuthorizerSpec;
}
/**
 * NodeAuthorizerSpec defines the configuration for a node authorizer.
 *
 * This interface was referenced by `Cluster`'s JSON-Schema
 * via the `definition` "NodeAuthorizerSpec".
 */
export interface NodeAuthorizerSpec {
  /**
   * Authorizer is the authorizer to use. Default: unset.
   */
  authorizer?: string;
  /**
   * Features is a series of authorizer features to enable or disable. Default: unset.
   */
  features?: string[];
  /**
   * Image is the location of container. Default: unset.
   */
  image?: string;
  /**
   * NodeURL is the node authorization service url. Default: unset.
   */
  nodeURL?: string;
  /**
   * Port is the port the service is running on the master. Default: unset.
   */
  port?: number;
  /**
   * Interval the time between retires for authorization request. Default: unset.
   */
  interval?: string;
  /**
   * Timeout the max time for authorization request. Default: unset.
   */
  timeout?: string;
  /**
   * TokenTTL is the max ttl for an issued token. Default: unset.
   */
  tokenTTL?: string;
}
/**
 * HookSpec is a definition hook.
 *
 * This interface was referenced by `Cluster`'s JSON-Schema
 * via the `definition` "HookSpec".
 */
export interface HookSpec {
  /**
   * Name is an optional name for the hook, otherwise the name is kops-hook-<index>. Default: kops-hook-<index>.
   */
  name?: string;
  /**
   * Disabled indicates if you want the unit switched off. Default: unset.
   */
  disabled?: boolean;
  /**
   * Roles is an optional list of roles the hook should be rolled out to, defaults to all. Default: all roles.
   */
  roles?: InstanceGroupRole[];
  /**
   * Requires is a series of systemd units the action requires. Default: unset.
   */
  requires?: string[];
  /**
   * Before is a series of systemd units which this hook must run before. Default: unset.
   */
  before?: string[];
  /**
   * ExecContainer is the image itself. Default: unset.
   */
  execContainer?: ExecContainerAction;
  /**
   * Manifest is a raw systemd unit file. Default: unset.
   */
  manifest?: string;
  /**
   * UseRawManifest indicates that the contents of Manifest should be used as the contents of the systemd unit, unmodified. Before and Requires are ignored when used together with this value (and validation shouldn't allow them to be set). Default: unset.
   */
  useRawManifest?: boolean;
}
/**
 * ExecContainerAction defines an hood action.
 *
 * This interface was referenced by `Cluster`'s JSON-Schema
 * via the `definition` "ExecContainerAction".
 */
export interface ExecContainerAction {
  /**
   * Image is the docker image. Default: unset.
   */
  image?: string;
  /**
   * Command is the command supplied to the above image. Default: unset.
   */
  command?: string[];
  /**
   * Environment is a map of environment variables added to the hook. Default: unset.
   */
  environment?: {
    [k: string]: string;
  };
}
/**
 * Assets defined the privately hosted assets.
 *
 * This interface was referenced by `Cluster`'s JSON-Schema
 * via the `definition` "Assets".
 */
export interface Assets {
  /**
   * ContainerRegistry is a url for to a docker registry. Default: unset.
   */
  containerRegistry?: string;
  /**
   * FileRepository is the url for a private file serving repository. Default: unset.
   */
  fileRepository?: string;
  /**
   * ContainerProxy is a url for a pull-through proxy of a docker registry. Default: unset.
   */
  containerProxy?: string;
  /**
   * ReleaseHashes (kforge) are the sha256 sums of kubelet and kubectl for a Kubernetes patch release that is not in kforge's built-in table: kforge fetches them from the `.sha256` files published next to each download (through fileRepository when set) the first time a command writes the cluster, and records them in the completed spec, where every later command reuses them. `unresolved: true` means they could not be fetched yet (offline); the nodeup configs then carry no hash for those files and nodes refuse them until a command resolves them. Default: unset (versions in the table need none).
   */
  releaseHashes?: {
    /**
     * The Kubernetes version the hashes belong to. Required.
     */
    version: string;
    /**
     * True while the hashes could not be fetched. Default: false.
     */
    unresolved?: boolean;
    /**
     * kubelet sha256 per architecture. Default: unset.
     */
    kubelet?: {
      /**
       * sha256 of the amd64 binary. Default: unset.
       */
      amd64?: string;
      /**
       * sha256 of the arm64 binary. Default: unset.
       */
      arm64?: string;
    };
    /**
     * kubectl sha256 per architecture. Default: unset.
     */
    kubectl?: {
      /**
       * sha256 of the amd64 binary. Default: unset.
       */
      amd64?: string;
      /**
       * sha256 of the arm64 binary. Default: unset.
       */
      arm64?: string;
    };
  };
}
/**
 * IAMSpec adds control over the IAM security policies applied to resources.
 *
 * This interface was referenced by `Cluster`'s JSON-Schema
 * via the `definition` "IAMSpec".
 */
export interface IAMSpec {
  /**
   * Legacy enables the legacy (broad) IAM policies. Default: false.
   */
  legacy?: boolean;
  /**
   * AllowContainerRegistry grants nodes read access to the cloud container registry (ECR). Default: false.
   */
  allowContainerRegistry?: boolean;
  /**
   * PermissionsBoundary is the ARN of an IAM policy used as permissions boundary for the IAM roles kops creates. Default: unset.
   */
  permissionsBoundary?: string;
  /**
   * UseServiceAccountExternalPermissions determines if managed ServiceAccounts will use external permissions directly. If this is set to false, ServiceAccounts will assume external permissions from the instances they run on. Default: false.
   */
  useServiceAccountExternalPermissions?: boolean;
  /**
   * ServiceAccountExternalPermissions defines the relationship between Kubernetes ServiceAccounts and permissions with external resources. Default: unset.
   */
  serviceAccountExternalPermissions?: ServiceAccountExternalPermission[];
}
/**
 * ServiceAccountExternalPermissions grants a ServiceAccount permissions to external resources.
 *
 * This interface was referenced by `Cluster`'s JSON-Schema
 * via the `definition` "ServiceAccountExternalPermission".
 */
export interface ServiceAccountExternalPermission {
  /**
   * Name is the name of the Kubernetes ServiceAccount. Required.
   */
  name: string;
  /**
   * Namespace is the namespace of the Kubernetes ServiceAccount. Required.
   */
  namespace: string;
  /**
   * AWS grants permissions to AWS resources. Default: unset.
   */
  aws?: AWSPermission;
}
/**
 * AWSPermission grants permissions to AWS resources.
 *
 * This interface was referenced by `Cluster`'s JSON-Schema
 * via the `definition` "AWSPermission".
 */
export interface AWSPermission {
  /**
   * PolicyARNs is a list of existing IAM Policies. Default: unset.
   */
  policyARNs?: string[];
  /**
   * InlinePolicy is an IAM Policy that will be attached inline to the IAM Role. Default: unset.
   */
  inlinePolicy?: string;
}
/**
 * TargetSpec allows for specifying target config in an extensible way.
 *
 * This interface was referenced by `Cluster`'s JSON-Schema
 * via the `definition` "TargetSpec".
 */
export interface TargetSpec {
  /**
   * Terraform configures the terraform target. Default: unset.
   */
  terraform?: TerraformSpec;
}
/**
 * TerraformSpec allows us to specify terraform config in an extensible way.
 *
 * This interface was referenced by `Cluster`'s JSON-Schema
 * via the `definition` "TerraformSpec".
 */
export interface TerraformSpec {
  /**
   * ProviderExtraConfig contains key/value pairs to add to the main terraform provider block. Default: unset.
   */
  providerExtraConfig?: {
    [k: string]: string;
  };
  /**
   * FilesProviderExtraConfig contains key/value pairs to add to the terraform provider block used for managed files. Default: unset.
   */
  filesProviderExtraConfig?: {
    [k: string]: string;
  };
}
/**
 * RollingUpdate defines the rolling-update behaviour.
 *
 * This interface was referenced by `Cluster`'s JSON-Schema
 * via the `definition` "RollingUpdate".
 */
export interface RollingUpdate {
  /**
   * DrainAndTerminate enables draining and terminating nodes during rolling updates. Defaults to true. Default: true.
   */
  drainAndTerminate?: boolean;
  /**
   * MaxUnavailable is the maximum number of nodes that can be unavailable during the update. The value can be an absolute number (for example 5) or a percentage of desired nodes (for example 10%). Defaults to 1 if MaxSurge is 0, otherwise defaults to 0. Default: 1 if maxSurge is 0, otherwise 0.
   */
  maxUnavailable?: string | number;
  /**
   * MaxSurge is the maximum number of extra nodes that can be created during the update. The value can be an absolute number (for example 5) or a percentage of desired machines (for example 10%). Has no effect on instance groups with role "Master". Defaults to 1 on AWS, 0 otherwise. Default: 1 on AWS, 0 otherwise.
   */
  maxSurge?: string | number;
}
/**
 * ClusterAutoscalerConfig determines the cluster autoscaler configuration.
 *
 * This interface was referenced by `Cluster`'s JSON-Schema
 * via the `definition` "ClusterAutoscalerConfig".
 */
export interface ClusterAutoscalerConfig {
  /**
   * Enabled enables the cluster autoscaler. Default: false.
   */
  enabled?: boolean;
  /**
   * Expander determines the strategy for which instance group gets expanded. Supported values: least-waste, most-pods, random, price, priority. The price expander is only supported on GCE. The priority expander requires additional configuration via a ConfigMap. Default: least-waste.
   */
  expander?: string;
  /**
   * BalanceSimilarNodeGroups makes cluster autoscaler treat similar node groups as one. Default: false.
   */
  balanceSimilarNodeGroups?: boolean;
  /**
   * AWSUseStaticInstanceList makes cluster autoscaler to use statically defined set of AWS EC2 Instance List. Default: false.
   */
  awsUseStaticInstanceList?: boolean;
  /**
   * ScaleDownUtilizationThreshold determines the utilization threshold for node scale-down. Default: 0.5.
   */
  scaleDownUtilizationThreshold?: string;
  /**
   * SkipNodesWithSystemPods makes cluster autoscaler skip scale-down of nodes with non-DaemonSet pods in the kube-system namespace. Default: true.
   */
  skipNodesWithSystemPods?: boolean;
  /**
   * SkipNodesWithLocalStorage makes cluster autoscaler skip scale-down of nodes with local storage. Default: true.
   */
  skipNodesWithLocalStorage?: boolean;
  /**
   * NewPodScaleUpDelay causes cluster autoscaler to ignore unschedulable pods until they are a certain "age", regardless of the scan-interval. Default: 0s.
   */
  newPodScaleUpDelay?: string;
  /**
   * ScaleDownDelayAfterAdd determines the time after scale up that scale down evaluation resumes. Default: 10m0s.
   */
  scaleDownDelayAfterAdd?: string;
  /**
   * Image is the docker container used. Default: the latest supported image for the specified kubernetes version.
   */
  image?: string;
  /**
   * MemoryRequest of cluster autoscaler container. Default: 300Mi.
   */
  memoryRequest?: string | number;
  /**
   * CPURequest of cluster autoscaler container. Default: 100m.
   */
  cpuRequest?: string | number;
  /**
   * MaxNodeProvisionTime determines how long CAS will wait for a node to join the cluster. Default: unset.
   */
  maxNodeProvisionTime?: string;
  /**
   * PodAnnotations are the annotations added to cluster autoscaler pod when they are created. Default: none.
   */
  podAnnotations?: {
    [k: string]: string;
  };
  /**
   * CustomPriorityExpanderConfig is the priority expander's configuration: priority (as a string) to instance-group name patterns. Used when expander includes `priority`. Default: unset (kops derives priorities from the instance groups).
   */
  customPriorityExpanderConfig?: {
    [k: string]: string[];
  };
}
/**
 * WarmPoolSpec configures an ASG warm pool.
 *
 * This interface was referenced by `Cluster`'s JSON-Schema
 * via the `definition` "WarmPoolSpec".
 */
export interface WarmPoolSpec {
  /**
   * MinSize is the minimum size of the pool. Default: 0.
   */
  minSize?: number;
  /**
   * MaxSize is the maximum size of the warm pool. The desired size of the instance group is subtracted from this number to determine the desired size of the warm pool (unless the resulting number is smaller than MinSize). The default is the instance group's MaxSize. Default: the instance group's maxSize.
   */
  maxSize?: number;
  /**
   * EnableLifecycleHook determines if an ASG lifecycle hook will be added ensuring that nodeup runs to completion. Note that the metadata API must be protected from arbitrary Pods when this is enabled. Default: false.
   */
  enableLifecycleHook?: boolean;
}
/**
 * ServiceAccountIssuerDiscoveryConfig configures an OIDC Issuer.
 *
 * This interface was referenced by `Cluster`'s JSON-Schema
 * via the `definition` "ServiceAccountIssuerDiscoveryConfig".
 */
export interface ServiceAccountIssuerDiscoveryConfig {
  /**
   * DiscoveryStore is the VFS path to where OIDC Issuer Discovery metadata is stored. Default: unset.
   */
  discoveryStore?: string;
  /**
   * EnableAWSOIDCProvider will provision an AWS OIDC provider that trusts the ServiceAccount Issuer. Default: unset.
   */
  enableAWSOIDCProvider?: boolean;
  /**
   * AdditionalAudiences adds user defined audiences to the provisioned AWS OIDC provider. Default: unset.
   */
  additionalAudiences?: string[];
}
/**
 * SnapshotControllerConfig is the config for the CSI Snapshot Controller.
 *
 * This interface was referenced by `Cluster`'s JSON-Schema
 * via the `definition` "SnapshotControllerConfig".
 */
export interface SnapshotControllerConfig {
  /**
   * Enabled enables the CSI Snapshot Controller. Default: unset.
   */
  enabled?: boolean;
  /**
   * InstallDefaultClass will install the default VolumeSnapshotClass. Default: unset.
   */
  installDefaultClass?: boolean;
}
/**
 * KarpenterConfig defines the Karpenter configuration.
 *
 * This interface was referenced by `Cluster`'s JSON-Schema
 * via the `definition` "KarpenterConfig".
 */
export interface KarpenterConfig {
  /**
   * Enabled enables Karpenter. Default: unset.
   */
  enabled?: boolean;
  /**
   * LogEncoding is the Karpenter log format (json or console). Default: unset.
   */
  logFormat?: string;
  /**
   * LogLevel is the Karpenter log level. Default: unset.
   */
  logLevel?: string;
  /**
   * Image is the Karpenter container image. Default: unset.
   */
  image?: string;
  /**
   * MemoryLimit of the Karpenter container. Default: unset.
   */
  memoryLimit?: string | number;
  /**
   * MemoryRequest of the Karpenter container. Default: unset.
   */
  memoryRequest?: string | number;
  /**
   * CPURequest of the Karpenter container. Default: unset.
   */
  cpuRequest?: string | number;
  /**
   * FeatureGates of karpenter: kops's string form (`StaticCapacity=true,Other=false`, KarpenterConfig.FeatureGates in kops's v1alpha2), or name to enabled. Default: unset.
   */
  featureGates?:
    | {
        [k: string]: boolean;
      }
    | string;
}
/**
 * PodIdentityWebhookSpec configures an EKS Pod Identity Webhook.
 *
 * This interface was referenced by `Cluster`'s JSON-Schema
 * via the `definition` "PodIdentityWebhookSpec".
 */
export interface PodIdentityWebhookSpec {
  /**
   * Enabled enables the pod identity webhook. Default: unset.
   */
  enabled?: boolean;
  /**
   * Replicas is the number of webhook replicas. Default: unset.
   */
  replicas?: number;
}
/**
 * InstanceGroupSpec is the specification for an InstanceGroup.
 *
 * This interface was referenced by `Cluster`'s JSON-Schema
 * via the `definition` "InstanceGroupSpec".
 */
export interface InstanceGroupSpec {
  /**
   * Manager determines what is managing the node lifecycle. Default: CloudGroup.
   */
  manager?: InstanceManager;
  /**
   * Type determines the role of instances in this instance group: masters or nodes. Required.
   */
  role: InstanceGroupRole;
  /**
   * Image is the instance (ami etc) we should use. Default: the channel's image for the Kubernetes version and architecture.
   */
  image?: string;
  /**
   * MinSize is the minimum size of the pool. At most 1000, kforge's bound against a mistyped size, unless the group's metadata.annotations has "kforge.dev/allow-large-instance-group": "true". Default: 1 for ControlPlane, Master, APIServer and Bastion; 2 for Node.
   */
  minSize?: number;
  /**
   * MaxSize is the maximum size of the pool. At most 1000, kforge's bound against a mistyped size, unless the group's metadata.annotations has "kforge.dev/allow-large-instance-group": "true". Default: the value of minSize.
   */
  maxSize?: number;
  /**
   * Autoscale determines if autoscaling will be enabled for this instance group if cluster autoscaler is enabled. Default: true when the cluster autoscaler is enabled.
   */
  autoscale?: boolean;
  /**
   * AutoscalePriority determines the InstanceGroup priority for scaling when cluster autoscaler uses the priority expander. Default: 0.
   */
  autoscalePriority?: number;
  /**
   * MachineType is the instance class. Default: chosen by kops for the cloud and role (e.g. t3.medium on AWS).
   */
  machineType?: string;
  /**
   * RootVolumeSize is the size of the EBS root volume to use, in GB. Default: 64 for control plane, 128 for nodes, 32 for bastions (GB).
   */
  rootVolumeSize?: number;
  /**
   * RootVolumeType is the type of the EBS root volume to use (e.g. gp2). Default: gp3.
   */
  rootVolumeType?: string;
  /**
   * RootVolumeIOPS is the provisioned IOPS when the volume type is io1, io2 or gp3 (AWS only). Default: 3000 for gp3 volumes.
   */
  rootVolumeIops?: number;
  /**
   * RootVolumeThroughput is the volume throughput in MBps when the volume type is gp3 (AWS only). Default: 125 for gp3 volumes.
   */
  rootVolumeThroughput?: number;
  /**
   * RootVolumeOptimization enables EBS optimization for an instance. Default: false.
   */
  rootVolumeOptimization?: boolean;
  /**
   * RootVolumeDeleteOnTermination is unused. Default: unset.
   */
  rootVolumeDeleteOnTermination?: boolean;
  /**
   * RootVolumeEncryption enables EBS root volume encryption for an instance. Default: unset (the account's default EBS encryption applies).
   */
  rootVolumeEncryption?: boolean;
  /**
   * RootVolumeEncryptionKey provides the key identifier for root volume encryption. Default: unset.
   */
  rootVolumeEncryptionKey?: string;
  /**
   * Volumes is a collection of additional volumes to create for instances within this InstanceGroup. Default: unset.
   */
  volumes?: VolumeSpec[];
  /**
   * VolumeMounts a collection of volume mounts. Default: unset.
   */
  volumeMounts?: VolumeMountSpec[];
  /**
   * Subnets is the names of the Subnets (as specified in the Cluster) where machines in this instance group should be placed. Default: unset (required).
   */
  subnets?: string[];
  /**
   * Zones is the names of the Zones where machines in this instance group should be placed. This is needed for regional subnets (e.g. GCE), to restrict placement to particular zones. Default: the zones of the subnets.
   */
  zones?: string[];
  /**
   * Hooks is a list of hooks for this instanceGroup, note: these can override the cluster wide ones if required. Default: unset.
   */
  hooks?: HookSpec[];
  /**
   * MaxPrice indicates this is a spot-pricing group, with the specified value as our max-price bid. Default: unset (on-demand instances).
   */
  maxPrice?: string;
  /**
   * SpotDurationInMinutes indicates this is a spot-block group, with the specified value as the spot reservation time. Default: unset.
   */
  spotDurationInMinutes?: number;
  /**
   * CPUCredits is the credit option for CPU Usage on burstable instance types (AWS only). Default: unset.
   */
  cpuCredits?: "standard" | "unlimited";
  /**
   * AssociatePublicIP is true if we want instances to have a public IP. Default: true for instances in Public or Utility subnets.
   */
  associatePublicIp?: boolean;
  /**
   * AdditionalSecurityGroups attaches additional security groups (e.g. i-123456). Default: unset.
   */
  additionalSecurityGroups?: string[];
  /**
   * CloudLabels defines additional tags or labels on cloud provider resources. Default: unset.
   */
  cloudLabels?: {
    [k: string]: string;
  };
  /**
   * NodeLabels indicates the kubernetes labels for nodes in this instance group. Default: unset.
   */
  nodeLabels?: {
    [k: string]: string;
  };
  /**
   * FileAssets is a collection of file assets for this instance group. Default: unset.
   */
  fileAssets?: FileAssetSpec[];
  /**
   * Describes the tenancy of this instance group. Can be either default or dedicated. Currently only applies to AWS. Default: default.
   */
  tenancy?: "default" | "dedicated" | "host";
  /**
   * Kubelet overrides kubelet config from the ClusterSpec. Default: unset (spec.kubelet or spec.masterKubelet of the Cluster applies).
   */
  kubelet?: KubeletConfigSpec;
  /**
   * Taints indicates the kubernetes taints for nodes in this instance group. Default: unset.
   */
  taints?: string[];
  /**
   * MixedInstancesPolicy defined a optional backing of an AWS ASG by a EC2 Fleet (AWS Only). Default: unset.
   */
  mixedInstancesPolicy?: MixedInstancesPolicySpec;
  /**
   * CapacityRebalance makes ASGs proactively replace spot instances when the ASG receives a rebalance recommendation (AWS Only). Default: false.
   */
  capacityRebalance?: boolean;
  /**
   * AdditionalUserData is any additional user-data to be passed to the host. Default: unset.
   */
  additionalUserData?: UserData[];
  /**
   * SuspendProcesses disables the listed Scaling Policies. Default: unset.
   */
  suspendProcesses?: string[];
  /**
   * ExternalLoadBalancers define loadbalancers that should be attached to this instance group. Default: unset.
   */
  externalLoadBalancers?: LoadBalancerSpec[];
  /**
   * DetailedInstanceMonitoring defines if detailed-monitoring is enabled (AWS only). Default: false.
   */
  detailedInstanceMonitoring?: boolean;
  /**
   * IAMProfileSpec defines the identity of the cloud group IAM profile (AWS only). Default: unset.
   */
  iam?: IAMProfileSpec;
  /**
   * SecurityGroupOverride overrides the default security group created by Kops for this IG (AWS only). Default: unset (kops creates the security group).
   */
  securityGroupOverride?: string;
  /**
   * InstanceProtection makes new instances in an autoscaling group protected from scale in. Default: false.
   */
  instanceProtection?: boolean;
  /**
   * SysctlParameters will configure kernel parameters using sysctl(8). When specified, each parameter must follow the form variable=value, the way it would appear in sysctl.conf. Default: unset.
   */
  sysctlParameters?: string[];
  /**
   * RollingUpdate defines the rolling-update behavior. Default: unset.
   */
  rollingUpdate?: RollingUpdate;
  /**
   * InstanceInterruptionBehavior defines if a spot instance should be terminated, hibernated, or stopped after interruption. Default: terminate.
   */
  instanceInterruptionBehavior?: "terminate" | "hibernate" | "stop";
  /**
   * CompressUserData compresses parts of the user data to save space. Default: false.
   */
  compressUserData?: boolean;
  /**
   * InstanceMetadata defines the EC2 instance metadata service options (AWS Only). Default: unset.
   */
  instanceMetadata?: InstanceMetadataOptions;
  /**
   * UpdatePolicy determines the policy for applying upgrades automatically. If specified, this value overrides a value specified in the Cluster's "spec.updatePolicy" field. Valid values: 'automatic' (default): apply updates automatically (apply OS security upgrades, avoiding rebooting when possible) 'external': do not apply updates automatically; they are applied manually or by an external system. Default: the Cluster's spec.updatePolicy.
   */
  updatePolicy?: "automatic" | "external";
  /**
   * WarmPool configures an ASG warm pool for the instance group. Default: unset.
   */
  warmPool?: WarmPoolSpec;
  /**
   * Containerd specifies override configuration for instance group. Default: unset (the Cluster's spec.containerd applies).
   */
  containerd?: ContainerdConfig;
  /**
   * Packages specifies additional packages to be installed. Default: unset.
   */
  packages?: string[];
  /**
   * GuestAccelerators configures additional accelerators. Default: unset.
   */
  guestAccelerators?: AcceleratorConfig[];
  /**
   * MaxInstanceLifetime to the maximum amount of time, in seconds, that an instance can be in service. Value expected must be in form of duration ("ms", "s", "m", "h"). Default: unset.
   */
  maxInstanceLifetime?: string;
  /**
   * GCPProvisioningModel: Specifies the provisioning model of the GCP instance. Valid values: 'STANDARD': (default) standard provisioning with user controlled run time, no discounts 'SPOT': heavily discounted, no guaranteed run time. Default: STANDARD.
   */
  gcpProvisioningModel?: "STANDARD" | "SPOT";
  /**
   * AdditionalNetworkTags are extra GCE network tags on the group's instances. Default: unset.
   */
  additionalNetworkTags?: string[];
}
/**
 * VolumeSpec defined the spec for an additional volume attached to the instance group.
 *
 * This interface was referenced by `Cluster`'s JSON-Schema
 * via the `definition` "VolumeSpec".
 */
export interface VolumeSpec {
  /**
   * DeleteOnTermination configures volume retention policy upon instance termination. The volume is deleted by default. Cluster deletion does not remove retained volumes. Default: true.
   */
  deleteOnTermination?: boolean;
  /**
   * Device is an optional device name of the block device. Default: unset.
   */
  device?: string;
  /**
   * Encrypted indicates you want to encrypt the volume. Default: false.
   */
  encrypted?: boolean;
  /**
   * IOPS is the provisioned IOPS for the volume when the volume type is io1, io2 or gp3 (AWS only). Default: unset.
   */
  iops?: number;
  /**
   * Throughput is the volume throughput in MBps when the volume type is gp3 (AWS only). Default: unset.
   */
  throughput?: number;
  /**
   * Key is the encryption key identifier for the volume. Default: unset.
   */
  key?: string;
  /**
   * Size is the size of the volume in GB. Default: unset.
   */
  size?: number;
  /**
   * Type is the type of volume to create and is cloud specific. Default: unset.
   */
  type?: string;
}
/**
 * VolumeMountSpec defines the specification for mounting a device.
 *
 * This interface was referenced by `Cluster`'s JSON-Schema
 * via the `definition` "VolumeMountSpec".
 */
export interface VolumeMountSpec {
  /**
   * Device is the device name to provision and mount. Default: unset.
   */
  device?: string;
  /**
   * Filesystem is the filesystem to mount. Default: ext4.
   */
  filesystem?: string;
  /**
   * FormatOptions is a collection of options passed when formatting the device. Default: unset.
   */
  formatOptions?: string[];
  /**
   * MountOptions is a collection of mount options. Default: unset.
   */
  mountOptions?: string[];
  /**
   * Path is the location to mount the device. Default: unset.
   */
  path?: string;
}
/**
 * MixedInstancesPolicySpec defines the specification for an autoscaling group backed by a ec2 fleet.
 *
 * This interface was referenced by `Cluster`'s JSON-Schema
 * via the `definition` "MixedInstancesPolicySpec".
 */
export interface MixedInstancesPolicySpec {
  /**
   * Instances is a list of instance types which we are willing to run in the EC2 fleet. Default: unset.
   */
  instances?: string[];
  /**
   * InstanceRequirements is a list of requirements for any instance type we are willing to run in the EC2 fleet. Default: unset.
   */
  instanceRequirements?: InstanceRequirementsSpec;
  /**
   * OnDemandAllocationStrategy indicates how to allocate instance types to fulfill On-Demand capacity. Default: unset.
   */
  onDemandAllocationStrategy?: string;
  /**
   * OnDemandBase is the minimum amount of the Auto Scaling group's capacity that must be fulfilled by On-Demand Instances. This base portion is provisioned first as your group scales. Default: unset.
   */
  onDemandBase?: number;
  /**
   * OnDemandAboveBase controls the percentages of On-Demand Instances and Spot Instances for your additional capacity beyond OnDemandBase. The range is 0–100. The default value is 100. Default: 100.
   */
  onDemandAboveBase?: number;
  /**
   * SpotAllocationStrategy diversifies your Spot capacity across multiple instance types to find the best pricing. Higher Spot availability may result from a larger number of instance types to choose from. Default: unset.
   */
  spotAllocationStrategy?: string;
  /**
   * SpotInstancePools is the number of Spot pools to use to allocate your Spot capacity (defaults to 2) pools are determined from the different instance types in the Overrides array of LaunchTemplate. Default: 2.
   */
  spotInstancePools?: number;
}
/**
 * InstanceRequirementsSpec is a list of requirements for any instance type we are willing to run in the EC2 fleet.
 *
 * This interface was referenced by `Cluster`'s JSON-Schema
 * via the `definition` "InstanceRequirementsSpec".
 */
export interface InstanceRequirementsSpec {
  /**
   * CPU is the range of vCPUs. Default: unset.
   */
  cpu?: MinMaxSpec;
  /**
   * Memory is the range of memory. Default: unset.
   */
  memory?: MinMaxSpec;
}
/**
 * MinMaxSpec is a range of quantities.
 *
 * This interface was referenced by `Cluster`'s JSON-Schema
 * via the `definition` "MinMaxSpec".
 */
export interface MinMaxSpec {
  /**
   * Max is the upper bound (inclusive). Default: unset.
   */
  max?: string | number;
  /**
   * Min is the lower bound (inclusive). Default: unset.
   */
  min?: string | number;
}
/**
 * UserData defines a user-data section.
 *
 * This interface was referenced by `Cluster`'s JSON-Schema
 * via the `definition` "UserData".
 */
export interface UserData {
  /**
   * Name is the name of the user-data. Default: unset.
   */
  name?: string;
  /**
   * Type is the type of user-data. Default: unset.
   */
  type?: string;
  /**
   * Content is the user-data content. Default: unset.
   */
  content?: string;
}
/**
 * LoadBalancer defines a load balancer.
 *
 * This interface was referenced by `Cluster`'s JSON-Schema
 * via the `definition` "LoadBalancerSpec".
 */
export interface LoadBalancerSpec {
  /**
   * LoadBalancerName to associate with this instance group (AWS ELB). Default: unset.
   */
  loadBalancerName?: string;
  /**
   * TargetGroupARN to associate with this instance group (AWS ALB/NLB). Default: unset.
   */
  targetGroupArn?: string;
}
/**
 * IAMProfileSpec is the AWS IAM Profile to attach to instances in this instance group. Specify the ARN for the IAM instance profile (AWS only).
 *
 * This interface was referenced by `Cluster`'s JSON-Schema
 * via the `definition` "IAMProfileSpec".
 */
export interface IAMProfileSpec {
  /**
   * Profile of the cloud group IAM profile. In aws this is the arn for the iam instance profile. Default: unset.
   */
  profile?: string;
}
/**
 * InstanceMetadataOptions defines the EC2 instance metadata service options (AWS Only).
 *
 * This interface was referenced by `Cluster`'s JSON-Schema
 * via the `definition` "InstanceMetadataOptions".
 */
export interface InstanceMetadataOptions {
  /**
   * HTTPPutResponseHopLimit is the desired HTTP PUT response hop limit for instance metadata requests. The larger the number, the further instance metadata requests can travel. The default value is 1. Default: 1.
   */
  httpPutResponseHopLimit?: number;
  /**
   * HTTPTokens is the state of token usage for the instance metadata requests. If the parameter is not specified in the request, the default state is "required". Default: required.
   */
  httpTokens?: "optional" | "required";
}
/**
 * AcceleratorConfig defines an accelerator config.
 *
 * This interface was referenced by `Cluster`'s JSON-Schema
 * via the `definition` "AcceleratorConfig".
 */
export interface AcceleratorConfig {
  /**
   * AcceleratorCount is the number of accelerators attached to each instance. Default: unset.
   */
  acceleratorCount?: number;
  /**
   * AcceleratorType is the accelerator type (e.g. nvidia-tesla-t4). Default: unset.
   */
  acceleratorType?: string;
}
/**
 * A kops InstanceGroup (kops.k8s.io/v1alpha2): a group of instances with the same configuration (an autoscaling group on AWS, a managed instance group on GCE).
 *
 * This interface was referenced by `Cluster`'s JSON-Schema
 * via the `definition` "InstanceGroup".
 */
export interface InstanceGroup {
  /**
   * APIVersion of the object: kops.k8s.io/v1alpha2 (kops's own) or kforge.dev/v1alpha2 (same schema). Required.
   */
  apiVersion: "kops.k8s.io/v1alpha2" | "kforge.dev/v1alpha2";
  /**
   * Kind of the object; always InstanceGroup. Required.
   */
  kind: "InstanceGroup";
  /**
   * Metadata of the object; metadata.name is required. Required.
   */
  metadata: ObjectMeta;
  /**
   * Spec is the instance group configuration. Required.
   */
  spec: InstanceGroupSpec;
}
