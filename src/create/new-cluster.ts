import { CLUSTER_LABEL, DEFAULT_API_VERSION } from '../api/api-versions';
import type { Cluster, ClusterSpec, ClusterSubnetSpec, EtcdClusterSpec, InstanceGroup } from '../api/types';
import type { FieldError } from '../errors/field-error';
import { ValidationError } from '../errors/validation-error';
import { channelKubernetesVersion, defaultKubernetesVersion, knownChannels } from '../expand/assets/asset-catalog';
import { assignSubnetCidrs, DEFAULT_NETWORK_CIDR, DEFAULT_NON_MASQUERADE_CIDR } from '../expand/components/network-defaults';
import { kubernetesVersionProblem } from '../expand/kubernetes-version';
import { Cidr } from '../net/cidr';
import { fieldSupport } from '../validate/field-support';
import { NETWORKING_OPTIONS, regionOfZone, zoneProblem } from '../validate/validate-spec';

/** Inputs of `create cluster`, one per flag; names follow kops's flags. */
export interface NewClusterOptions {
  name: string;
  zones: string[];
  controlPlaneZones?: string[];
  controlPlaneCount?: number;
  nodeCount?: number;
  nodeSize?: string;
  controlPlaneSize?: string;
  /** Default: cilium, as current kops. */
  networking?: string;
  /** Default: public. */
  topology?: 'public' | 'private';
  bastion?: boolean;
  /** Default: public when a DNS zone is given, else none (kops's current rule). */
  dns?: 'public' | 'private' | 'none';
  dnsZone?: string;
  kubernetesVersion?: string;
  /** Channel whose recommendation is used when kubernetesVersion is not given. Default: stable. */
  channel?: string;
  networkCidr?: string;
  /** Default: aws, or inferred from the zone names. */
  cloud?: 'aws' | 'gce';
  cloudLabels?: Record<string, string>;
  /** CIDRs that may reach the API (kops --admin-access). Default: everyone (0.0.0.0/0, ::/0). */
  adminAccess?: string[];
  /** CIDRs that may SSH to the instances (kops --ssh-access). Default: adminAccess. */
  sshAccess?: string[];
  /** Machine image of every instance group (kops --image). Default: unset (update picks kops's image). */
  image?: string;
  /** Machine image of the node groups (kops --node-image); takes precedence over image. Default: unset. */
  nodeImage?: string;
  /** Machine image of the control-plane groups (kops --control-plane-image); takes precedence over image. Default: unset. */
  controlPlaneImage?: string;
  /** Machine image of the bastion group (kops --bastion-image); takes precedence over image. Default: unset. */
  bastionImage?: string;
  /** Root volume type of nodes (kops --node-volume-type). Default: unset (kops's gp3). */
  nodeVolumeType?: string;
  /** Root volume type of control-plane nodes (kops --control-plane-volume-type). Default: unset (kops's gp3). */
  controlPlaneVolumeType?: string;
  /** Root volume of nodes, in GB (kops --node-volume-size). Default: unset (kops's 128). */
  nodeVolumeSize?: number;
  /** Root volume of control-plane nodes, in GB (kops --control-plane-volume-size). Default: unset (kops's 64). */
  controlPlaneVolumeSize?: number;
  /** Whether control-plane and node instances get public IPs (kops --associate-public-ip). Default: unset (public subnets: yes). */
  associatePublicIp?: boolean;
  /** The API load balancer: public or internal (kops --api-loadbalancer-type). Default: public when a load balancer is used. */
  apiLoadBalancerType?: 'public' | 'internal';
  /** An existing VPC to build the cluster in (kops --network-id, formerly --vpc): `spec.networkID`. Needs networkCidr, the VPC's range (create makes no cloud call to read it). */
  vpc?: string;
  /** Existing subnets, one per zone in the order of `zones` (kops --subnets): `spec.subnets[i].id` of the zones' main subnets. */
  subnets?: string[];
  /** Existing utility subnets, one per zone (kops --utility-subnets; private topology). */
  utilitySubnets?: string[];
  /** A public store for the OIDC discovery documents (kops --discovery-store); the cluster's are under `<store>/<name>`. Default: none published. */
  discoveryStore?: string;
  /** The GCE project (kops's --project, spec.project); GCE only. Default: none (update on GCE then refuses). */
  project?: string;
}

/** A new cluster's objects, before expansion. */
export interface NewCluster {
  cluster: Cluster;
  instanceGroups: InstanceGroup[];
}

/** Maps `--networking` values to the spec.networking key (kops's aliases included). */
const NETWORKING_ALIASES: Record<string, string> = { 'flannel-vxlan': 'flannel', 'flannel-udp': 'flannel', 'kube-router': 'kuberouter', 'amazon-vpc-routed-eni': 'amazonvpc' };

/**
 * Builds the Cluster and InstanceGroups that `create cluster` writes, by kops's rules: one control-plane
 * group per control-plane zone, nodes spread over the zones, etcd `main` and `events` with a member on
 * each control-plane group, subnet ranges carved from the network range. Pure; no cloud calls.
 */
export function newCluster(o: NewClusterOptions): NewCluster {
  const errors: FieldError[] = [];
  const flagErr = (path: string, message: string) => errors.push({ path, message });
  const zones = dedupe(o.zones);
  if (zones.length === 0) flagErr('--zones', 'at least one zone is required, e.g. --zones us-east-1a');
  const cloud = o.cloud ?? inferCloud(zones);
  for (const z of zones) {
    const problem = zoneProblem(z, cloud);
    if (problem) flagErr('--zones', `${problem}; is there a typo?`);
  }
  const explicitCpZones = o.controlPlaneZones && o.controlPlaneZones.length > 0;
  const cpZones = explicitCpZones ? dedupe(o.controlPlaneZones as string[]) : zones;
  for (const z of cpZones) if (!zones.includes(z)) flagErr('--control-plane-zones', `zone "${z}" is not in --zones (${zones.join(',')})`);
  // kops: one control-plane node per --control-plane-zones entry, else one; round-robin over the zones.
  const cpCount = o.controlPlaneCount ?? (explicitCpZones ? cpZones.length : 1);
  if (!Number.isInteger(cpCount) || cpCount < 1) flagErr('--control-plane-count', `must be at least 1, got ${cpCount}`);
  else if (cpCount % 2 === 0) flagErr('--control-plane-count', `${cpCount} control-plane nodes cannot keep etcd quorum when one fails; use an odd number`);
  const nodeCount = o.nodeCount ?? zones.length;
  if (!Number.isInteger(nodeCount) || nodeCount < 0) flagErr('--node-count', `must be 0 or more, got ${nodeCount}`);
  if (o.networkCidr !== undefined && !Cidr.tryParse(o.networkCidr)) flagErr('--network-cidr', `"${o.networkCidr}" is not a valid CIDR (e.g. 172.20.0.0/16)`);
  const channel = o.channel ?? 'stable';
  if (!channelKubernetesVersion(channel)) flagErr('--channel', `"${channel}" is not a channel kforge knows (${knownChannels().join(', ')})`);
  if (o.kubernetesVersion !== undefined) {
    const problem = kubernetesVersionProblem(o.kubernetesVersion);
    if (problem) flagErr('--kubernetes-version', problem);
  }
  const regions = [...new Set(zones.filter((z) => !zoneProblem(z, cloud)).map((z) => regionOfZone(z, cloud)))];
  if (regions.length > 1) flagErr('--zones', `all zones must be in one region; got ${regions.join(', ')}`);
  const networking = NETWORKING_ALIASES[o.networking ?? 'cilium'] ?? o.networking ?? 'cilium';
  // Options kops removed (weave, romana, ...) are refused here with the reason, as they are in a manifest.
  const offered = NETWORKING_OPTIONS.filter((n) => fieldSupport('Cluster', `spec.networking.${n}`)?.status !== 'refused');
  const support = fieldSupport('Cluster', `spec.networking.${networking}`);
  if (NETWORKING_OPTIONS.includes(networking) && support?.status === 'refused') flagErr('--networking', `"${o.networking}" is not supported: ${support.detail}`);
  else if (!NETWORKING_OPTIONS.includes(networking)) flagErr('--networking', `"${o.networking}" is not supported; use one of ${offered.join(', ')}`);
  const topology = o.topology ?? 'public';
  if (topology === 'private' && networking === 'kubenet') flagErr('--networking', 'kubenet does not work with --topology private; choose a CNI such as cilium or calico');
  if (o.bastion && topology !== 'private') flagErr('--bastion', 'a bastion needs --topology private');
  const dns = o.dns ?? (o.dnsZone ? 'public' : 'none');
  if (o.dnsZone && dns === 'none') flagErr('--dns-zone', 'cannot be used with --dns none');
  for (const [flag, cidrs] of [['--admin-access', o.adminAccess], ['--ssh-access', o.sshAccess]] as const) {
    for (const c of cidrs ?? []) if (!Cidr.tryParse(c)) flagErr(flag, `"${c}" is not a valid CIDR (e.g. 203.0.113.0/24)`);
  }
  for (const [flag, size] of [['--node-volume-size', o.nodeVolumeSize], ['--control-plane-volume-size', o.controlPlaneVolumeSize]] as const) {
    if (size !== undefined && (!Number.isInteger(size) || size < 1)) flagErr(flag, `must be a whole number of GB, at least 1; got ${size}`);
  }
  if (o.apiLoadBalancerType !== undefined && o.apiLoadBalancerType !== 'public' && o.apiLoadBalancerType !== 'internal') {
    flagErr('--api-loadbalancer-type', `"${String(o.apiLoadBalancerType)}" is not a load balancer type; use public or internal`);
  }
  sharedNetworkProblems(o, zones, cloud, topology).forEach(([flag, message]) => flagErr(flag, message));
  if (o.project !== undefined && cloud !== 'gce') flagErr('--project', 'is a GCE project; it applies to --cloud gce only');
  // GCE project ids are lowercase letters, digits and hyphens (legacy domain-scoped ones add `example.com:`); the API checks the rest.
  if (o.project !== undefined && !/^[a-z][a-z0-9.:-]{0,62}$/.test(o.project)) flagErr('--project', `"${o.project}" is not a GCE project id (lowercase letters, digits and hyphens, starting with a letter)`);
  if (o.associatePublicIp === true && topology === 'private') flagErr('--associate-public-ip', 'instances in private subnets cannot have public IPs; drop the flag or use --topology public');
  if (errors.length > 0) throw new ValidationError(errors, 'create cluster flags');
  const adminAccess = o.adminAccess && o.adminAccess.length > 0 ? dedupe(o.adminAccess) : ['0.0.0.0/0', '::/0'];
  const sshAccess = o.sshAccess && o.sshAccess.length > 0 ? dedupe(o.sshAccess) : adminAccess;
  // kops: an explicit load balancer type puts the API behind a load balancer even where DNS alone would do.
  const lbType = o.apiLoadBalancerType === 'internal' ? 'Internal' : 'Public';
  const apiByDns = dns === 'public' && topology === 'public' && o.apiLoadBalancerType === undefined;

  const spec: ClusterSpec = {
    api: apiByDns ? { dns: {} } : { loadBalancer: { type: lbType, class: 'Network' } },
    authorization: { rbac: {} },
    channel,
    cloudProvider: cloud,
    ...(o.project ? { project: o.project } : {}),
    ...(o.cloudLabels && Object.keys(o.cloudLabels).length > 0 ? { cloudLabels: o.cloudLabels } : {}),
    ...(o.dnsZone ? { dnsZone: o.dnsZone } : {}),
    ...(o.vpc ? { networkID: o.vpc } : {}),
    // kops also turns on enableAWSOIDCProvider and useServiceAccountExternalPermissions here; kforge publishes the documents but builds no IAM OIDC provider yet (docs/differences-from-kops.md).
    ...(o.discoveryStore ? { serviceAccountIssuerDiscovery: { discoveryStore: `${o.discoveryStore.replace(/\/+$/, '')}/${o.name}` } } : {}),
    etcdClusters: [],
    iam: { allowContainerRegistry: true, legacy: false },
    kubernetesApiAccess: adminAccess,
    kubernetesVersion: o.kubernetesVersion ?? channelKubernetesVersion(channel) ?? defaultKubernetesVersion(),
    ...(cloud === 'gce' && !o.networkCidr ? {} : { networkCIDR: o.networkCidr ?? DEFAULT_NETWORK_CIDR }),
    networking: { [networking]: {} },
    nonMasqueradeCIDR: DEFAULT_NON_MASQUERADE_CIDR,
    sshAccess,
    subnets: withSubnetIds(buildSubnets(zones, topology, cloud), zones, o),
    topology: {
      dns: { type: dns === 'public' ? 'Public' : dns === 'private' ? 'Private' : 'None' },
      ...(o.bastion ? { bastion: { bastionPublicName: `bastion.${o.name}` } } : {}),
    },
  };
  assignSubnetCidrs(spec);
  const meta = (name: string) => ({ name, labels: { [CLUSTER_LABEL]: o.name } });
  const subnetFor = (zone: string) => (cloud === 'gce' ? regionOfZone(zone, cloud) : zone);
  const igs: InstanceGroup[] = [];
  const cpNames: Array<[string, string]> = [];
  const usedCpZones = cpZones.slice(0, Math.min(cpCount, cpZones.length));
  const memberNames = trimCommonPrefix(usedCpZones);
  for (let i = 0; i < cpCount; i++) {
    const zi = i % usedCpZones.length;
    const zone = usedCpZones[zi];
    const suffix = cpCount > usedCpZones.length ? `-${Math.floor(i / usedCpZones.length) + 1}` : '';
    const name = `control-plane-${zone}${suffix}`;
    const member = `${/^\d/.test(memberNames[zi]) ? 'etcd-' : ''}${memberNames[zi]}${suffix}`;
    cpNames.push([name, member]);
    igs.push(instanceGroup(meta(name), 'ControlPlane', o.controlPlaneSize, 1, 1, [subnetFor(zone)], zone, cloud));
  }
  zones.forEach((zone, i) => {
    const count = Math.floor(nodeCount / zones.length) + (i < nodeCount % zones.length ? 1 : 0);
    igs.push(instanceGroup(meta(`nodes-${zone}`), 'Node', o.nodeSize, count, count, [subnetFor(zone)], zone, cloud));
  });
  if (o.bastion) igs.push(instanceGroup(meta('bastions'), 'Bastion', undefined, 1, 1, zones.map((z) => `utility-${z}`), undefined, cloud));
  for (const ig of igs) {
    const image = { ControlPlane: o.controlPlaneImage, Node: o.nodeImage, Bastion: o.bastionImage }[ig.spec.role as 'ControlPlane' | 'Node' | 'Bastion'] ?? o.image;
    if (image) ig.spec.image = image;
    const volumeType = ig.spec.role === 'ControlPlane' ? o.controlPlaneVolumeType : ig.spec.role === 'Node' ? o.nodeVolumeType : undefined;
    if (volumeType) ig.spec.rootVolumeType = volumeType;
    const size = ig.spec.role === 'ControlPlane' ? o.controlPlaneVolumeSize : ig.spec.role === 'Node' ? o.nodeVolumeSize : undefined;
    if (size !== undefined) ig.spec.rootVolumeSize = size;
    // kops sets it on the control-plane and node groups only; bastions sit in utility subnets.
    if (o.associatePublicIp !== undefined && ig.spec.role !== 'Bastion') ig.spec.associatePublicIp = o.associatePublicIp;
  }
  spec.etcdClusters = ['main', 'events'].map(
    (etcd): EtcdClusterSpec => ({
      name: etcd,
      etcdMembers: cpNames.map(([ig, member]) => ({ name: member, instanceGroup: ig, encryptedVolume: true })),
      manager: { backupRetentionDays: 90 },
      cpuRequest: etcd === 'main' ? '200m' : '100m',
      memoryRequest: '100Mi',
    }),
  );
  const cluster: Cluster = { apiVersion: DEFAULT_API_VERSION, kind: 'Cluster', metadata: { name: o.name }, spec };
  return { cluster, instanceGroups: igs.sort((a, b) => a.metadata.name.localeCompare(b.metadata.name)) };
}

function instanceGroup(
  metadata: InstanceGroup['metadata'],
  role: 'ControlPlane' | 'Node' | 'Bastion',
  machineType: string | undefined,
  minSize: number,
  maxSize: number,
  subnets: string[],
  zone: string | undefined,
  cloud: string,
): InstanceGroup {
  return {
    apiVersion: DEFAULT_API_VERSION,
    kind: 'InstanceGroup',
    metadata,
    spec: {
      ...(machineType ? { machineType } : {}),
      maxSize,
      minSize,
      role,
      subnets,
      ...(cloud === 'gce' && zone ? { zones: [zone] } : {}),
    },
  };
}

function buildSubnets(zones: string[], topology: 'public' | 'private', cloud: string): ClusterSubnetSpec[] {
  if (cloud === 'gce') {
    const regions = dedupe(zones.map((z) => regionOfZone(z, cloud)));
    return regions.map((r) => ({ name: r, region: r, type: topology === 'private' ? 'Private' : 'Public' }));
  }
  const main: ClusterSubnetSpec[] = zones.map((z) => ({ name: z, type: topology === 'private' ? 'Private' : 'Public', zone: z }));
  const utility: ClusterSubnetSpec[] = topology === 'private' ? zones.map((z) => ({ name: `utility-${z}`, type: 'Utility', zone: z })) : [];
  return [...main, ...utility];
}

/**
 * The flag problems of a cluster in an existing VPC: `--network-id` (kops's `--vpc`) needs `--network-cidr` (the VPC's range, which
 * update checks: create reads nothing from the cloud), `--subnets` and `--utility-subnets` need `--network-id`, one
 * id per zone, and the utility ones a private topology.
 */
function sharedNetworkProblems(o: NewClusterOptions, zones: string[], cloud: string, topology: string): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  const subnets = o.subnets ?? [];
  const utility = o.utilitySubnets ?? [];
  if (o.vpc === undefined && subnets.length === 0 && utility.length === 0) return out;
  if (cloud !== 'aws') out.push(['--network-id', 'an existing VPC is only supported on AWS']);
  if (o.vpc !== undefined && !/^vpc-[0-9a-f]+$/.test(o.vpc)) out.push(['--network-id', `"${o.vpc}" is not a VPC id (vpc-…)`]);
  if (o.vpc !== undefined && o.networkCidr === undefined) out.push(['--network-cidr', `is required with --network-id: the range of ${o.vpc} (kforge create makes no cloud calls; update checks it against the VPC)`]);
  for (const [flag, ids] of [['--subnets', subnets], ['--utility-subnets', utility]] as const) {
    if (ids.length === 0) continue;
    if (o.vpc === undefined) out.push([flag, 'needs --network-id, the VPC the subnets are in']);
    if (ids.length !== zones.length) out.push([flag, `give one subnet id per zone, in the order of --zones (${zones.join(',')}); got ${ids.length}`]);
    for (const id of ids) if (!/^subnet-[0-9a-f]+$/.test(id)) out.push([flag, `"${id}" is not a subnet id (subnet-…)`]);
  }
  if (utility.length > 0 && topology !== 'private') out.push(['--utility-subnets', 'utility subnets are for --topology private']);
  return out;
}

/** Records the ids of `--subnets` (the zones' main subnets) and `--utility-subnets`, zone by zone. */
function withSubnetIds(subnets: ClusterSubnetSpec[], zones: string[], o: NewClusterOptions): ClusterSubnetSpec[] {
  return subnets.map((s) => {
    const i = zones.indexOf(s.zone ?? '');
    const id = s.type === 'Utility' ? o.utilitySubnets?.[i] : o.subnets?.[i];
    return id && i >= 0 ? { ...s, id } : s;
  });
}

/** kops's member naming: drop the prefix all zones share (`us-east-1a`,`us-east-1b` → `a`,`b`). */
export function trimCommonPrefix(names: string[]): string[] {
  let out = [...names];
  while (out.length > 0 && out[0].length > 1) {
    const prefix = out[0][0];
    if (!out.every((n) => n.startsWith(prefix) && n.length > 1)) break;
    out = out.map((n) => n.slice(1));
  }
  return out;
}

function inferCloud(zones: string[]): 'aws' | 'gce' {
  return zones.length > 0 && zones.every((z) => /^[a-z]+-[a-z]+\d+-[a-z]$/.test(z)) ? 'gce' : 'aws';
}

function dedupe(xs: string[]): string[] {
  return [...new Set(xs.map((x) => x.trim()).filter(Boolean))];
}
