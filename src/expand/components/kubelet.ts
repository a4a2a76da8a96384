import type { ClusterSpec, InstanceGroup, KubeletConfigSpec } from '../../api/types';
import type { ExpandContext } from '../expand-context';
import { isControlPlane } from '../expand-context';
import { clusterDnsIp } from './network-defaults';
import { isKubernetesGTE } from '../version-gate';

/** Where a worker's kubelet finds the shared `kubelet-bootstrap` identity it requests its own certificate with. */
export const BOOTSTRAP_KUBECONFIG = '/var/lib/kubelet/bootstrap-kubeconfig';

/** Taint that keeps ordinary workloads off control-plane nodes. */
export const CONTROL_PLANE_TAINT = 'node-role.kubernetes.io/control-plane=:NoSchedule';

/** Cluster-wide kubelet settings and the control-plane overlay (`masterKubelet`). */
export function expandKubelet(spec: ClusterSpec, ctx: ExpandContext): void {
  const k = (spec.kubelet ??= {});
  k.anonymousAuth ??= false;
  k.authenticationTokenWebhook ??= true;
  k.authorizationMode ??= 'Webhook';
  k.cgroupDriver ??= 'systemd';
  k.cgroupRoot ??= '/';
  k.clientCaFile ??= '/srv/kubernetes/ca.crt';
  k.cloudProvider ??= 'external';
  // With NodeLocal DNSCache, pods resolve through the cache on their node (kops's kubelet builder).
  const local = spec.kubeDNS?.nodeLocalDNS;
  k.clusterDNS ??= local?.enabled && local.localIP ? local.localIP : clusterDnsIp(spec);
  k.clusterDomain ??= spec.clusterDNSDomain;
  k.enableDebuggingHandlers ??= true;
  k.evictionHard ??= 'memory.available<100Mi,nodefs.available<10%,nodefs.inodesFree<5%,imagefs.available<10%,imagefs.inodesFree<5%';
  k.kubeconfigPath ??= '/var/lib/kubelet/kubeconfig';
  k.logLevel ??= 2;
  // kops's kubelet builder: GCE nodes hairpin through the bridge in promiscuous mode.
  if (spec.cloudProvider === 'gce') k.hairpinMode ??= 'promiscuous-bridge';
  // kubelet lost --pod-infra-container-image in 1.35 (kubernetes/kubernetes#133779); the sandbox image is
  // containerd's (spec.containerd.sandboxImage). Before 1.35 the flag only keeps image GC off the pause
  // image, so below 1.35 kforge sets it to the image containerd runs; kops#17657 stops setting it from 1.35.
  if (!isKubernetesGTE(ctx.kubernetesVersion, '1.35')) k.podInfraContainerImage ??= spec.containerd?.sandboxImage;
  k.podManifestPath ??= '/etc/kubernetes/manifests';
  k.protectKernelDefaults ??= true;
  k.shutdownGracePeriod ??= '30s';
  k.shutdownGracePeriodCriticalPods ??= '10s';
  // v1alpha3's `controlPlaneKubelet` is accepted as an alias of `masterKubelet`; it wins when both are set.
  spec.masterKubelet = { ...k, ...(spec.masterKubelet ?? {}), ...(spec.controlPlaneKubelet ?? {}) };
}

/**
 * The kubelet settings of one instance group: cluster `kubelet`, then `masterKubelet` for the control
 * plane, then the group's own `kubelet`, later ones winning; plus the group's labels and taints, and for
 * worker groups the TLS bootstrap defaults (`bootstrapKubeconfig`, `rotateCertificates`) where none is set.
 */
export function instanceGroupKubelet(spec: ClusterSpec, ig: InstanceGroup): KubeletConfigSpec {
  const cp = isControlPlane(ig);
  const merged: KubeletConfigSpec = { ...(spec.kubelet ?? {}), ...(cp ? (spec.masterKubelet ?? {}) : {}), ...(ig.spec.kubelet ?? {}) };
  const labels: Record<string, string> = { ...(merged.nodeLabels ?? {}) };
  labels['kops.k8s.io/instancegroup'] = ig.metadata.name;
  if (cp) {
    labels['node-role.kubernetes.io/control-plane'] = '';
    labels['node.kubernetes.io/exclude-from-external-load-balancers'] = '';
  } else if (ig.spec.role === 'Node') {
    labels['node-role.kubernetes.io/node'] = '';
  }
  // The group's own nodeLabels come last and win, even over the labels above, as in kops's BuildNodeLabels.
  Object.assign(labels, ig.spec.nodeLabels ?? {});
  merged.nodeLabels = Object.fromEntries(Object.entries(labels).sort(([a], [b]) => a.localeCompare(b)));
  const taints = [...(merged.taints ?? []), ...(ig.spec.taints ?? [])];
  if (cp && !taints.includes(CONTROL_PLANE_TAINT)) taints.push(CONTROL_PLANE_TAINT);
  if (taints.length > 0) merged.taints = taints;
  // Workers use TLS bootstrapping: the shared bootstrap identity asks for a system:node:<name> certificate
  // through a CSR, and kubelet renews it the same way before it expires. Set here, after the merge, so a
  // value from kubelet, masterKubelet or the group wins, and never for the control plane: its kubelet starts
  // the static pods before any API server exists, so nodeup issues its certificate on the node instead.
  if (ig.spec.role === 'Node') {
    merged.bootstrapKubeconfig ??= BOOTSTRAP_KUBECONFIG;
    merged.rotateCertificates ??= true;
  }
  return merged;
}
