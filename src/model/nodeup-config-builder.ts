import type { Cluster, InstanceGroup } from '../api/types';
import { ARCHITECTURES, componentVersions, nodeFileAssets } from '../expand/assets/asset-catalog';
import { remapFileUrl } from '../expand/components/images';
import { instanceGroupKubelet } from '../expand/components/kubelet';
import { isControlPlane, normalizedRole } from '../expand/expand-context';
import { controlPlaneCommands, nodeCommands } from '../flags/component-argv';
import { kubeletConfigFile } from '../flags/kubelet-config-file';
import { etcdClientUrl } from '../expand/components/etcd';
import { apiServerSans, ServingSans } from '../pki/api-server-sans';
import type { ClusterCertificates } from '../pki/cluster-certificates';
import { Cidr } from '../net/cidr';
import { approvalConfigServer } from './approval-config-server';
import { clusterCaNames, KUBERNETES_CA } from '../pki/cluster-pki';
import { clusterRegion, configServerUrl, groupUsesConfigServer, KOPS_CONTROLLER_CA_KEYSET } from './config-server';

/** What the node bootstrapper needs for one instance group; field names follow kops's NodeupConfig. */
export interface NodeupConfig {
  Assets: Record<string, string[]>;
  ClusterName: string;
  /** The cluster's state-store base; absent on a worker with a ConfigServer, which cannot read the store. */
  ConfigBase?: string;
  InstanceGroupName: string;
  InstanceGroupRole: string;
  KubernetesVersion: string;
  ContainerRuntime: string;
  UpdatePolicy: string;
  Networking: { nonMasqueradeCIDR: string; serviceClusterIPRange: string; podCIDR: string; clusterDNS: string };
  KubeletConfig: object;
  /** kubelet's KubeletConfiguration YAML (settings without a flag), written where `ComponentFlags.kubelet`'s `--config` names; absent when empty. */
  KubeletConfigFile?: string;
  KubeProxy?: object;
  containerdConfig: object;
  /** argv of each component this node starts, by component name. */
  ComponentFlags: Record<string, string[]>;
  /** Container images this node runs, by component name. */
  Images: Record<string, string>;
  /** The API's internal name (`api.internal.<cluster>`): the server of the kubeconfigs of nodes that run no API server. */
  APIInternalName: string;
  /** True when the cluster publishes no DNS records (`spec.topology.dns.type: None`): nodeup puts the API's names in /etc/hosts. */
  UsesNoneDNS?: boolean;
  /** With UsesNoneDNS, on nodes without an API server: the API addresses known when the config is written (kops's BootConfig.APIServerIPs). */
  APIServerIPs?: string[];
  /** On control-plane nodes: kube-apiserver's settings, its public name and the SANs of its serving certificate. */
  APIServerConfig?: { KubeAPIServer: object; PublicName: string; ServingSANs: ServingSans };
  ControlPlaneConfig?: { KubeControllerManager: object; KubeScheduler: object };
  EtcdClusters?: Array<{ name: string; version: string; clientURL: string; backupStore: string; members: string[] }>;
  /** CA certificates (PEM bundles) this node trusts, by keyset name; never a private key. */
  CAs?: Record<string, string>;
  /** Primary key ids of the keysets this node reads from the keystore, by keyset name. */
  KeypairIDs?: Record<string, string>;
  /**
   * kops's ConfigServer: on a worker, the node-identity service (docs/node-identity.md) that issues its kubelet
   * and kube-proxy certificates, instead of the shared kubelet-bootstrap key from the state store. `Servers`
   * are its URLs (`https://kops-controller.internal.<cluster>:3988`), `CACertificates` the kops-controller-ca
   * bundle its serving certificate must chain to, `Region` the cluster's (the STS region a node signs for).
   * `Approval` (kforge, spec.nodeIdentity.mode Approval): the node sends no cloud proof and waits until an
   * operator approves its request (`kforge approve node-request`).
   */
  ConfigServer?: { Servers: string[]; CACertificates: string; Region: string; Approval?: boolean };
  channels: string[];
  /** GCE only (kops's `multizone`, `nodeTags`, `nodeInstancePrefix` from spec.cloudConfig): the `[global]` options of /etc/kubernetes/cloud.config. */
  multizone?: boolean;
  nodeTags?: string;
  nodeInstancePrefix?: string;
}

// Worker nodes need the cluster CA and their two client identities; nothing else of the keystore.
const NODE_KEYSETS = [KUBERNETES_CA, 'kube-proxy', 'kubelet-bootstrap'];

/**
 * Model builder for `igconfig/<role>/<ig>/nodeupconfig.yaml`: pure, completed spec in, document out.
 * Certificates join it with the PKI; private keys never do.
 */
export function buildNodeupConfig(completed: Cluster, ig: InstanceGroup, certificates?: ClusterCertificates): NodeupConfig {
  const spec = completed.spec;
  const version = spec.kubernetesVersion as string;
  const kubelet = instanceGroupKubelet(spec, ig);
  const cp = isControlPlane(ig);
  const assets: Record<string, string[]> = {};
  for (const arch of ARCHITECTURES) {
    const files = nodeFileAssets(version, arch, spec.containerd?.version as string, spec.containerd?.runc?.version as string, componentVersions(version).cni, spec.assets?.releaseHashes);
    if (!files) throw new Error(`no verified hashes for the ${arch} node files of Kubernetes ${version}`);
    assets[arch] = files.map((f) => `${f.sha256}@${remapFileUrl(f.url, spec.assets?.fileRepository)}`);
  }
  const commands = cp ? [...controlPlaneCommands(spec), ...nodeCommands(spec, kubelet)] : nodeCommands(spec, kubelet);
  // containerd runs the sandbox image (kubelet's --pod-infra-container-image is gone in 1.35).
  const images: Record<string, string> = { pause: spec.containerd?.sandboxImage as string };
  if (spec.kubeProxy?.enabled !== false) images['kube-proxy'] = spec.kubeProxy?.image as string;
  const config: NodeupConfig = {
    Assets: assets,
    ClusterName: completed.metadata.name,
    ConfigBase: spec.configBase as string,
    InstanceGroupName: ig.metadata.name,
    InstanceGroupRole: normalizedRole(ig),
    KubernetesVersion: version,
    ContainerRuntime: spec.containerRuntime ?? 'containerd',
    UpdatePolicy: spec.updatePolicy ?? 'automatic',
    Networking: {
      nonMasqueradeCIDR: spec.nonMasqueradeCIDR as string,
      serviceClusterIPRange: spec.serviceClusterIPRange as string,
      podCIDR: spec.podCIDR as string,
      clusterDNS: spec.kubeDNS?.serverIP as string,
    },
    APIInternalName: spec.masterInternalName ?? `api.internal.${completed.metadata.name}`,
    KubeletConfig: kubelet,
    containerdConfig: spec.containerd ?? {},
    ComponentFlags: Object.fromEntries(commands.map((c) => [c.component, c.argv])),
    Images: images,
    channels: [`${spec.configBase}/addons/bootstrap-channel.yaml`],
  };
  const kubeletFile = kubeletConfigFile(kubelet);
  if (kubeletFile !== undefined) config.KubeletConfigFile = kubeletFile;
  if (spec.kubeProxy?.enabled !== false) config.KubeProxy = spec.kubeProxy ?? {};
  if (spec.cloudProvider === 'gce') addGceCloudConfig(config, spec.cloudConfig);
  if (usesNoneDns(completed)) {
    config.UsesNoneDNS = true;
    const ips = cp ? [] : knownApiServerIps(completed);
    if (ips.length > 0) config.APIServerIPs = ips;
  }
  if (cp) {
    images['kube-apiserver'] = spec.kubeAPIServer?.image as string;
    images['kube-controller-manager'] = spec.kubeControllerManager?.image as string;
    images['kube-scheduler'] = spec.kubeScheduler?.image as string;
    config.APIServerConfig = {
      KubeAPIServer: spec.kubeAPIServer ?? {},
      PublicName: spec.api?.publicName ?? spec.masterPublicName ?? `api.${completed.metadata.name}`,
      ServingSANs: apiServerSans(completed),
    };
    config.ControlPlaneConfig = { KubeControllerManager: spec.kubeControllerManager ?? {}, KubeScheduler: spec.kubeScheduler ?? {} };
    config.EtcdClusters = (spec.etcdClusters ?? []).map((e, i) => ({
      name: e.name,
      version: e.version as string,
      clientURL: etcdClientUrl(e.name, i),
      backupStore: e.backups?.backupStore as string,
      members: (e.etcdMembers ?? []).filter((m) => m.instanceGroup === ig.metadata.name).map((m) => m.name),
    }));
  }
  if (certificates && normalizedRole(ig) !== 'Bastion') addCertificates(config, certificates, cp, (spec.etcdClusters ?? []).map((e) => e.name));
  if (certificates && groupUsesConfigServer(completed, ig)) useConfigServer(config, completed, certificates);
  const approval = approvalConfigServer(completed, ig, certificates);
  if (approval) config.ConfigServer = approval;
  config.Images = Object.fromEntries(Object.entries(images).sort(([a], [b]) => a.localeCompare(b)));
  return config;
}

/** kops's GCE cloud-config options, on every group as kops sets them (pkg/apis/nodeup/config.go); nodeup writes them on the control plane. */
function addGceCloudConfig(config: NodeupConfig, cc: NonNullable<Cluster['spec']['cloudConfig']> | undefined): void {
  if (cc?.multizone !== undefined) config.multizone = cc.multizone;
  if (cc?.nodeTags !== undefined) config.nodeTags = cc.nodeTags;
  if (cc?.nodeInstancePrefix !== undefined) config.nodeInstancePrefix = cc.nodeInstancePrefix;
}

/** kops's UsesNoneDNS: `spec.topology.dns.type: None`, which `.k8s.local` (gossip) names default to. */
function usesNoneDns(completed: Cluster): boolean {
  const type = completed.spec.topology?.dns?.type ?? (completed.metadata.name.endsWith('.k8s.local') ? 'None' : 'Public');
  return type === 'None';
}

/**
 * The API addresses a worker can reach with no DNS, as far as the spec knows them when the config is
 * written: kops's rule for AWS (an API address inside the network CIDR), applied to the IP addresses among
 * the additional SANs. A load balancer's own addresses are only known once it exists, so there are usually
 * none (see docs/nodeup.md).
 */
function knownApiServerIps(completed: Cluster): string[] {
  const spec = completed.spec;
  const network = spec.networkCIDR ? Cidr.tryParse(spec.networkCIDR) : undefined;
  if (!network) return [];
  const sans = [...(spec.additionalSans ?? []), ...(spec.api?.additionalSANs ?? [])];
  return [...new Set(sans.filter((s) => /^\d+\.\d+\.\d+\.\d+$/.test(s) && network.contains(Cidr.parse(`${s}/32`))))].sort();
}

/** Control-plane nodes trust every CA and may read every keyset; other nodes get the cluster CA only. */
function addCertificates(config: NodeupConfig, certs: ClusterCertificates, controlPlane: boolean, etcdClusters: string[]): void {
  const caNames = controlPlane ? clusterCaNames(etcdClusters) : [KUBERNETES_CA];
  const idNames = controlPlane ? Object.keys(certs.primaryIds) : NODE_KEYSETS;
  config.CAs = pick(certs.bundles, caNames);
  config.KeypairIDs = pick(certs.primaryIds, idNames);
}

/**
 * A worker of a ConfigServer cluster (src/model/config-server.ts): the node-identity service's URL, the
 * kops-controller-ca bundle (public) and the region; it reads no keyset (only kubernetes-ca's certificate,
 * which is in CAs), and its config names no state-store location at all.
 */
function useConfigServer(config: NodeupConfig, completed: Cluster, certs: ClusterCertificates): void {
  const ca = certs.bundles[KOPS_CONTROLLER_CA_KEYSET];
  const region = clusterRegion(completed);
  if (!ca || !region) throw new Error(`${completed.metadata.name}: a worker's ConfigServer needs the ${KOPS_CONTROLLER_CA_KEYSET} certificate and the cluster's region`);
  config.ConfigServer = { Servers: [configServerUrl(completed.metadata.name)], CACertificates: ca, Region: region };
  config.KeypairIDs = pick(certs.primaryIds, [KUBERNETES_CA]);
  delete config.ConfigBase;
  config.channels = [];
}

function pick(from: Record<string, string>, names: string[]): Record<string, string> {
  return Object.fromEntries(names.filter((n) => from[n] !== undefined).sort().map((n) => [n, from[n]]));
}
