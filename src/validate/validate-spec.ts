import { isIP } from 'node:net';
import type { Cluster, InstanceGroup } from '../api/types';
import type { FieldError } from '../errors/field-error';
import { kubernetesVersionProblem } from '../expand/kubernetes-version';
import { channelKubernetesVersion, knownChannels } from '../expand/assets/asset-catalog';
import { Cidr } from '../net/cidr';
import { checkDnsNames } from './check-dns-names';
import { clusterNameProblem, etcdClusterNameProblem, instanceGroupNameProblem, quoteName } from './check-object-names';
import { checkExternalDns } from './check-external-dns';
import { checkMetricsServer } from './check-metrics-server';
import { checkAwsEbsCsiDriver } from './check-aws-ebs-csi-driver';
import { checkGceCloudConfig } from './check-gce-cloud-config';
import { checkGcpPdCsiDriver } from './check-gcp-pd-csi-driver';
import { checkRefusedFields } from './field-support';
import { checkIpv6 } from './check-ipv6';
import { checkIssuerDiscovery } from './check-issuer-discovery';
import { checkKubeletShutdown } from './check-kubelet-shutdown';
import { checkNodeTerminationHandler } from './check-node-termination-handler';
import { checkNodeIdentity } from './check-node-identity';
import { checkCniSettings } from './check-cni-settings';
import { checkInstanceGroupAws } from './check-instance-group-aws';
import { checkGroupSize } from './check-group-size';
import { isControlPlane } from '../expand/expand-context';
import { validateFlagSupport } from './validate-flags';

/** kops's networking options; exactly one may be set. */
export const NETWORKING_OPTIONS = ['kubenet', 'external', 'cni', 'kopeio', 'flannel', 'calico', 'canal', 'kuberouter', 'amazonvpc', 'cilium', 'gcp', 'kindnet', 'classic', 'gce', 'weave', 'romana', 'lyftvpc'];

/**
 * Semantic checks of a Cluster and its instance groups that the JSON Schema cannot express. Returns
 * every problem found; each names the object and field path. Works on user specs and completed specs.
 */
export function validateSpec(cluster: Cluster, igs: InstanceGroup[]): FieldError[] {
  const errors: FieldError[] = [];
  const err: Report = (path, message, object = `Cluster/${cluster.metadata?.name}`) => errors.push({ object, path, message });
  const spec = cluster.spec;
  checkClusterName(cluster.metadata.name, err);
  append(errors, checkRefusedFields('Cluster', `Cluster/${cluster.metadata?.name}`, cluster));
  for (const ig of igs) append(errors, checkRefusedFields('InstanceGroup', `InstanceGroup/${ig.metadata?.name}`, ig));
  if (spec.kubernetesVersion !== undefined) {
    const problem = kubernetesVersionProblem(String(spec.kubernetesVersion));
    if (problem) err('spec.kubernetesVersion', problem);
  } else if (channelKubernetesVersion(spec.channel ?? 'stable')) {
    // Unreachable through the commands (they assign the channel's version first); kept for direct callers.
    err('spec.kubernetesVersion', `is required (the ${spec.channel ?? 'stable'} channel recommends ${channelKubernetesVersion(spec.channel ?? 'stable')})`);
  }
  if (spec.channel !== undefined && !channelKubernetesVersion(spec.channel)) {
    err('spec.channel', `"${spec.channel}" is not a channel kforge knows (${knownChannels().join(', ')}); channels are built in because kforge works offline, so a channel URL is not supported`);
  }
  checkNetworking(spec.networking as Record<string, unknown> | undefined, err);
  // kops's legacy kube-dns addon is not rendered: accepting it would leave the cluster without DNS.
  if (spec.kubeDNS?.provider === 'KubeDNS') err('spec.kubeDNS.provider', 'is not supported yet: kforge renders CoreDNS only (kops\'s default); remove the field or set CoreDNS');
  // IPv6 ranges get one clear error each, not a cascade of IPv4 containment errors.
  const ipv6 = checkIpv6(cluster);
  append(errors, ipv6);
  if (ipv6.length === 0) checkCidrs(cluster, err);
  checkZones(cluster, err);
  checkAdditionalSans(cluster, err);
  append(errors, checkIssuerDiscovery(cluster));
  append(errors, checkExternalDns(cluster));
  append(errors, checkMetricsServer(cluster));
  append(errors, checkAwsEbsCsiDriver(cluster));
  append(errors, checkGceCloudConfig(cluster));
  append(errors, checkGcpPdCsiDriver(cluster));
  append(errors, checkDnsNames(cluster));
  append(errors, checkKubeletShutdown(cluster, igs));
  append(errors, checkNodeTerminationHandler(cluster));
  append(errors, checkNodeIdentity(cluster));
  append(errors, checkCniSettings(cluster));
  append(errors, checkInstanceGroupAws(cluster, igs));
  const subnetNames = new Set((spec.subnets ?? []).map((s) => s.name));
  (spec.subnets ?? []).forEach((s, i) => {
    if ((spec.subnets ?? []).findIndex((o) => o.name === s.name) !== i) err(`spec.subnets[${i}].name`, `duplicate subnet name "${s.name}"`);
  });
  const igByName = new Map(igs.map((ig) => [ig.metadata.name, ig]));
  for (const ig of igs) checkInstanceGroup(ig, subnetNames, cluster.metadata.name, errors);
  checkEtcd(cluster, igByName, err);
  append(errors, validateFlagSupport(cluster, igs));
  return errors;
}

type Report = (path: string, message: string, object?: string) => void;

/** Appends in a loop: `push(...list)` passes every item as an argument and overflows the stack on a long list. */
function append(to: FieldError[], list: FieldError[]): void {
  for (const e of list) to.push(e);
}

function checkClusterName(name: string, err: Report): void {
  if (!name) return err('metadata.name', 'the cluster name is required');
  const problem = clusterNameProblem(name);
  if (problem) err('metadata.name', `${quoteName(name)} ${problem}`);
}

function checkNetworking(networking: Record<string, unknown> | undefined, err: Report): void {
  const set = Object.keys(networking ?? {}).filter((k) => NETWORKING_OPTIONS.includes(k) && networking?.[k] !== undefined && networking?.[k] !== null);
  if (set.length === 0) err('spec.networking', `exactly one networking option is required (one of ${NETWORKING_OPTIONS.slice(0, 11).join(', ')})`);
  if (set.length > 1) err('spec.networking', `exactly one networking option may be set, found ${set.length}: ${set.join(', ')}`);
}

function cidrAt(path: string, value: unknown, err: Report): Cidr | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  const c = Cidr.tryParse(String(value));
  if (!c) err(path, `"${String(value)}" is not a valid CIDR`);
  return c;
}

function checkCidrs(cluster: Cluster, err: Report): void {
  const spec = cluster.spec;
  const network = cidrAt('spec.networkCIDR', spec.networkCIDR, err);
  const additional = (spec.additionalNetworkCIDRs ?? []).map((c, i) => cidrAt(`spec.additionalNetworkCIDRs[${i}]`, c, err));
  const vpcRanges = [network, ...additional].filter((c): c is Cidr => !!c);
  const nonMasq = cidrAt('spec.nonMasqueradeCIDR', spec.nonMasqueradeCIDR, err);
  const service = cidrAt('spec.serviceClusterIPRange', spec.serviceClusterIPRange, err);
  const pod = cidrAt('spec.podCIDR', spec.podCIDR, err);
  const subnets: Array<[number, Cidr]> = [];
  (spec.subnets ?? []).forEach((s, i) => {
    const c = cidrAt(`spec.subnets[${i}].cidr`, s.cidr, err);
    if (!c) return;
    if (vpcRanges.length > 0 && !vpcRanges.some((v) => v.contains(c))) {
      err(`spec.subnets[${i}].cidr`, `subnet "${s.name}" range ${c} is not inside networkCIDR ${vpcRanges.map(String).join(' or ')}`);
    }
    for (const [j, other] of subnets) {
      if (other.overlaps(c)) err(`spec.subnets[${i}].cidr`, `subnet "${s.name}" range ${c} overlaps subnet "${spec.subnets?.[j].name}" (${other})`);
    }
    subnets.push([i, c]);
  });
  // With amazonvpc, pods take VPC addresses, so nonMasqueradeCIDR is the VPC range itself (kops's rule).
  const podsInVpc = spec.networking?.amazonvpc !== undefined && spec.networking?.amazonvpc !== null;
  if (nonMasq && !podsInVpc) {
    for (const v of vpcRanges) {
      if (nonMasq.overlaps(v)) err('spec.nonMasqueradeCIDR', `${nonMasq} overlaps networkCIDR ${v}; pods and services need a range outside the VPC`);
    }
    if (service && !nonMasq.contains(service)) err('spec.serviceClusterIPRange', `${service} is not inside nonMasqueradeCIDR ${nonMasq}`);
    if (pod && !nonMasq.contains(pod)) err('spec.podCIDR', `${pod} is not inside nonMasqueradeCIDR ${nonMasq}`);
  }
  if (service && pod && service.overlaps(pod)) err('spec.serviceClusterIPRange', `${service} overlaps the pod range podCIDR ${pod}`);
  const apiRange = spec.kubeAPIServer?.serviceClusterIPRange;
  if (apiRange && spec.serviceClusterIPRange && apiRange !== spec.serviceClusterIPRange) {
    err('spec.kubeAPIServer.serviceClusterIPRange', `${apiRange} differs from spec.serviceClusterIPRange ${spec.serviceClusterIPRange}`);
  }
  for (const list of ['kubernetesApiAccess', 'sshAccess', 'nodePortAccess'] as const) {
    (spec[list] ?? []).forEach((c, i) => checkAccessEntry(`spec.${list}[${i}]`, c, spec.cloudProvider, err));
  }
}

/** AWS managed prefix lists (`pl-…`), which kops accepts in every access list besides CIDRs. */
const PREFIX_LIST = /^pl-[0-9a-f]{8}([0-9a-f]{9})?$/;

function checkAccessEntry(path: string, value: string, cloud: string | undefined, err: Report): void {
  if (typeof value === 'string' && value.startsWith('pl-')) {
    if (!PREFIX_LIST.test(value)) return err(path, `"${value}" is not an AWS managed prefix list id (pl- and 8 or 17 hex digits)`);
    if (cloud && cloud !== 'aws') err(path, `"${value}" is an AWS managed prefix list; ${cloud} clusters take CIDRs only`);
    return;
  }
  cidrAt(path, value, err);
}

const ZONE_PATTERNS: Record<string, RegExp> = {
  aws: /^[a-z]{2}(-[a-z]+)+-\d+[a-z]$/,
  gce: /^[a-z]+-[a-z]+\d+-[a-z]$/,
};

/** Why a zone name is not one of the cloud's availability zones (`us-east-1a`, `us-central1-a`); undefined when it is. */
export function zoneProblem(zone: string, cloud: string | undefined): string | undefined {
  const key = cloud === 'gce' ? 'gce' : 'aws';
  if (ZONE_PATTERNS[key].test(zone)) return undefined;
  return `"${zone}" is not ${key === 'gce' ? 'a GCE zone name (like us-central1-a)' : 'an AWS availability zone name (like us-east-1a)'}`;
}

/** The region a zone belongs to: `us-east-1a` → `us-east-1` (AWS), `europe-west1-b` → `europe-west1` (GCE). */
export function regionOfZone(zone: string, cloud: string | undefined): string {
  if (cloud === 'gce') return zone.replace(/-[a-z]$/, '');
  return zone.replace(/[a-z]$/, '');
}

// A DNS name as certificates carry it: ASCII labels (punycode for IDNs), an optional leading wildcard.
const SAN_DNS = /^(\*\.)?([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/i;

function checkAdditionalSans(cluster: Cluster, err: Report): void {
  const lists: Array<[string, string[] | undefined]> = [
    ['spec.additionalSans', cluster.spec.additionalSans],
    ['spec.api.additionalSANs', cluster.spec.api?.additionalSANs],
  ];
  for (const [path, list] of lists) {
    (list ?? []).forEach((san, i) => {
      if (isIP(san) === 0 && !SAN_DNS.test(san)) err(`${path}[${i}]`, `${JSON.stringify(san)} is neither an IP address nor a DNS name (use punycode, xn--…, for international names)`);
    });
  }
}

function checkZones(cluster: Cluster, err: Report): void {
  const cloud = cluster.spec.cloudProvider;
  const regions = new Map<string, string>();
  (cluster.spec.subnets ?? []).forEach((s, i) => {
    const problem = s.zone ? zoneProblem(s.zone, cloud) : undefined;
    if (problem) {
      err(`spec.subnets[${i}].zone`, problem);
      return;
    }
    const region = s.region ?? (s.zone ? regionOfZone(s.zone, cloud) : undefined);
    if (!region) {
      // An existing AWS subnet (id) may leave its zone out, as in kops: AWS knows it (update checks the subnet by id).
      if (cloud !== 'gce' && !s.id) err(`spec.subnets[${i}].zone`, `subnet "${s.name}" needs a zone`);
      return;
    }
    if (!regions.has(region)) regions.set(region, `spec.subnets[${i}]`);
  });
  if (regions.size > 1) {
    const list = [...regions.entries()].map(([r, p]) => `${r} (${p})`).join(', ');
    err('spec.subnets', `all zones must be in one region; found ${regions.size} regions: ${list}`);
  }
}

function checkInstanceGroup(ig: InstanceGroup, subnets: Set<string>, clusterName: string, errors: FieldError[]): void {
  const object = `InstanceGroup/${ig.metadata.name}`;
  const err = (path: string, message: string) => errors.push({ object, path, message });
  const name = ig.metadata.name;
  const nameProblem = instanceGroupNameProblem(typeof name === 'string' ? name : '');
  if (nameProblem) err('metadata.name', `${quoteName(String(name ?? ''))} ${nameProblem}`);
  const label = ig.metadata.labels?.['kops.k8s.io/cluster'];
  if (label !== undefined && label !== clusterName) err('metadata.labels["kops.k8s.io/cluster"]', `names cluster "${label}", not "${clusterName}"`);
  const { minSize, maxSize } = ig.spec;
  if (minSize !== undefined && minSize < 0) err('spec.minSize', `must be ≥ 0, got ${minSize}`);
  if (maxSize !== undefined && maxSize < 0) err('spec.maxSize', `must be ≥ 0, got ${maxSize}`);
  if (minSize !== undefined && maxSize !== undefined && minSize > maxSize) err('spec.minSize', `minSize ${minSize} is greater than maxSize ${maxSize}`);
  append(errors, checkGroupSize(ig));
  const igSubnets = ig.spec.subnets ?? [];
  if (igSubnets.length === 0) err('spec.subnets', 'at least one subnet is required');
  igSubnets.forEach((s, i) => {
    if (!subnets.has(s)) err(`spec.subnets[${i}]`, `subnet "${s}" is not defined in the cluster's spec.subnets (defined: ${[...subnets].join(', ') || 'none'})`);
  });
}

function checkEtcd(cluster: Cluster, igs: Map<string, InstanceGroup>, err: Report): void {
  const etcd = cluster.spec.etcdClusters ?? [];
  if (etcd.length === 0) err('spec.etcdClusters', 'at least the etcd cluster "main" is required');
  else if (!etcd.some((e) => e.name === 'main')) err('spec.etcdClusters', 'the etcd cluster "main" is required');
  etcd.forEach((e, i) => {
    // The name becomes part of keyset names and store keys (`ev/sub` would nest paths).
    const nameProblem = etcdClusterNameProblem(typeof e.name === 'string' ? e.name : '');
    if (nameProblem) err(`spec.etcdClusters[${i}].name`, `${quoteName(String(e.name ?? ''))} ${nameProblem}`);
    if (etcd.findIndex((o) => o.name === e.name) !== i) err(`spec.etcdClusters[${i}].name`, `duplicate etcd cluster "${e.name}"`);
    const members = e.etcdMembers ?? [];
    if (members.length === 0) err(`spec.etcdClusters[${i}].etcdMembers`, `etcd cluster "${e.name}" has no members`);
    else if (members.length % 2 === 0) {
      err(`spec.etcdClusters[${i}].etcdMembers`, `etcd cluster "${e.name}" has ${members.length} members; an odd number is required for quorum`);
    }
    members.forEach((m, j) => {
      const path = `spec.etcdClusters[${i}].etcdMembers[${j}]`;
      if (members.findIndex((o) => o.name === m.name) !== j) err(`${path}.name`, `duplicate member name "${m.name}"`);
      const ig = igs.get(m.instanceGroup as string);
      if (!ig) err(`${path}.instanceGroup`, `instance group "${m.instanceGroup}" does not exist`);
      else if (!isControlPlane(ig)) err(`${path}.instanceGroup`, `instance group "${m.instanceGroup}" has role ${ig.spec.role}; etcd members must be on control-plane groups`);
    });
  });
}
