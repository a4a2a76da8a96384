import type { Cluster, ClusterSpec, InstanceGroup } from '../api/types';
import { componentVersions } from './assets/asset-catalog';
import { expandClusterDefaults } from './components/cluster-defaults';
import { expandCniDefaults } from './components/cni-defaults';
import { expandContainerd } from './components/containerd';
import { expandEtcd } from './components/etcd';
import { expandGceCloudConfig } from './components/gce-cloud-config';
import { remapImage } from './components/images';
import { expandKubeAPIServer } from './components/kube-apiserver';
import { expandKubeControllerManager } from './components/kube-controller-manager';
import { expandCloudControllerManager } from './components/cloud-controller-manager';
import { expandAwsEbsCsiDriver } from './components/aws-ebs-csi-driver';
import { expandGcpPdCsiDriver } from './components/gcp-pd-csi-driver';
import { expandKubeDNS } from './components/kube-dns';
import { expandKubeProxy } from './components/kube-proxy';
import { expandKubeScheduler } from './components/kube-scheduler';
import { expandKubelet } from './components/kubelet';
import { expandNetwork } from './components/network-defaults';
import { expandNodeProblemDetector } from './components/node-problem-detector';
import { expandNodeTerminationHandler } from './components/node-termination-handler';
import { ExpandContext } from './expand-context';
import { normalizeKubernetesVersion } from './kubernetes-version';

/** One expansion step: fills in defaults and derived values of the spec in place; user values win. */
export type ExpandStep = (spec: ClusterSpec, ctx: ExpandContext) => void;

/** The steps in order: later ones read what earlier ones derived (e.g. kubelet reads the DNS IP). */
export const EXPAND_STEPS: ReadonlyArray<[string, ExpandStep]> = [
  ['cluster', expandClusterDefaults],
  ['network', expandNetwork],
  ['cni', expandCniDefaults],
  ['etcd', expandEtcd],
  ['kube-apiserver', expandKubeAPIServer],
  ['containerd', expandContainerd],
  ['kube-dns', expandKubeDNS],
  ['kubelet', expandKubelet],
  ['gce-cloud-config', expandGceCloudConfig],
  ['kube-controller-manager', expandKubeControllerManager],
  ['kube-scheduler', expandKubeScheduler],
  ['kube-proxy', expandKubeProxy],
  ['node-problem-detector', expandNodeProblemDetector],
  ['node-termination-handler', expandNodeTerminationHandler],
  ['cloud-controller-manager', expandCloudControllerManager],
  ['aws-ebs-csi-driver', expandAwsEbsCsiDriver],
  ['gcp-pd-csi-driver', expandGcpPdCsiDriver],
  ['image-mirror', remapImages],
];

/**
 * Expands a validated Cluster into its complete configuration (kops's "populate"): every setting of
 * every component. Pure: the inputs are not modified and the output depends only on them.
 */
export function populateCluster(cluster: Cluster, instanceGroups: InstanceGroup[], storeUrl: string): Cluster {
  const spec = structuredClone(cluster.spec) as ClusterSpec;
  const kubernetesVersion = normalizeKubernetesVersion(spec.kubernetesVersion as string);
  const ctx: ExpandContext = {
    clusterName: cluster.metadata.name,
    storeUrl,
    kubernetesVersion,
    versions: componentVersions(kubernetesVersion),
    instanceGroups: [...instanceGroups].sort((a, b) => a.metadata.name.localeCompare(b.metadata.name)),
  };
  for (const [, step] of EXPAND_STEPS) step(spec, ctx);
  return { apiVersion: cluster.apiVersion, kind: 'Cluster', metadata: { name: cluster.metadata.name }, spec };
}

function remapImages(spec: ClusterSpec): void {
  const registry = spec.assets?.containerRegistry;
  if (!registry) return;
  for (const c of [spec.kubeAPIServer, spec.kubeControllerManager, spec.kubeScheduler, spec.kubeProxy]) {
    if (c?.image) c.image = remapImage(c.image, registry);
  }
  for (const k of [spec.kubelet, spec.masterKubelet]) {
    if (k?.podInfraContainerImage) k.podInfraContainerImage = remapImage(k.podInfraContainerImage, registry);
  }
  if (spec.containerd?.sandboxImage) spec.containerd.sandboxImage = remapImage(spec.containerd.sandboxImage, registry);
  if (spec.kubeDNS?.coreDNSImage) spec.kubeDNS.coreDNSImage = remapImage(spec.kubeDNS.coreDNSImage, registry);
  if (spec.nodeProblemDetector?.image) spec.nodeProblemDetector.image = remapImage(spec.nodeProblemDetector.image, registry);
  if (spec.cloudControllerManager?.image) spec.cloudControllerManager.image = remapImage(spec.cloudControllerManager.image, registry);
  if (spec.kubeDNS?.nodeLocalDNS?.image) spec.kubeDNS.nodeLocalDNS.image = remapImage(spec.kubeDNS.nodeLocalDNS.image, registry);
}
