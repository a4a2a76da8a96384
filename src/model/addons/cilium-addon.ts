import images from '../../expand/assets/addon-images/networking-cilium.json';
import type { Addon, AddonBuilder, KubeObject } from './addon';
import data from './data/networking-cilium.json';
import eni from './data/networking-cilium-eni.json';
import { type AddonImage, findObject, imageValues, renderAddonData } from './render-addon-data';
import { NETWORKING_SELECTOR } from './networking-selector';

/** The spec.networking.cilium fields this builder renders; validation refuses the others (check-networking.ts). */
export const CILIUM_RENDERED_FIELDS = ['version', 'ipam', 'tunnel', 'clusterName', 'agentPodAnnotations', 'operatorPodAnnotations'];
/** The Cilium minor kops's k8s-1.16-v1.15 template renders (kops pkg/model/components/cilium.go defaults v1.18.12). */
export const CILIUM_MINOR = 'v1.18.';

/**
 * kops's `networking.cilium.io` addon (upup/models/cloudup/resources/addons/networking.cilium.io/k8s-1.16-v1.15.yaml.template):
 * the agent DaemonSet, the operator, their RBAC and `cilium-config`, with kops's defaults (pkg/model/components/cilium.go)
 * for kubernetes IPAM (VXLAN tunnel) or ENI IPAM (native routing, the agent's postStart that drops aws-node's SNAT rules).
 */
export const ciliumAddon: AddonBuilder = ({ cluster }) => {
  const spec = cluster.spec;
  const c = spec.networking?.cilium;
  if (!c) return [];
  const table = images as Record<string, AddonImage>;
  const version = c.version ?? table.cilium.tag;
  const objects = renderAddonData(data, {
    clusterName: cluster.metadata.name,
    apiInternalName: spec.masterInternalName ?? `api.internal.${cluster.metadata.name}`,
    ...imageValues(table, { cilium: `${table.cilium.image}:${version}`, operator: `${table.operator.image}:${version}` }),
  });
  const config = findObject(objects, 'ConfigMap', 'cilium-config').data as Record<string, string>;
  config['cluster-name'] = c.clusterName ?? 'default';
  if (c.ipam === 'eni') applyEni(objects, config, cluster.metadata.name);
  annotate(findObject(objects, 'DaemonSet', 'cilium'), c.agentPodAnnotations);
  annotate(findObject(objects, 'Deployment', 'cilium-operator'), c.operatorPodAnnotations);
  const addon: Addon = { name: 'networking.cilium.io', id: 'k8s-1.16', manifestFile: 'k8s-1.16-v1.15.yaml', objects, selector: { ...NETWORKING_SELECTOR }, needsRollingUpdate: 'all' };
  return [addon];
};

/** kops's ENI IPAM settings: native routing, BPF masquerade, endpoint routes, ENI tags, and the agent's postStart. */
function applyEni(objects: KubeObject[], config: Record<string, string>, clusterName: string): void {
  for (const key of ['tunnel-protocol', 'tunnel-source-port-range', 'service-no-backend-response']) delete config[key];
  Object.assign(config, {
    'auto-create-cilium-node-resource': 'true',
    'enable-bpf-masquerade': 'true',
    'enable-endpoint-routes': 'true',
    'eni-tags': `KubernetesCluster=${clusterName}`,
    ipam: 'eni',
    'routing-mode': 'native',
  });
  const sorted = Object.fromEntries(Object.entries(config).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  for (const k of Object.keys(config)) delete config[k];
  Object.assign(config, sorted);
  const agent = podSpec(findObject(objects, 'DaemonSet', 'cilium')).containers.find((x) => x.name === 'cilium-agent');
  if (!agent) throw new Error('addon data: no cilium-agent container');
  agent.lifecycle = { postStart: structuredClone(eni.postStart), ...(agent.lifecycle as object) };
}

/** Adds the spec's pod annotations to a workload's pod template, after kops's own (kops sorts them by key). */
function annotate(workload: KubeObject, extra: Record<string, string> | undefined): void {
  if (!extra || Object.keys(extra).length === 0) return;
  const meta = (workload.spec as { template: { metadata: { annotations?: Record<string, string> } } }).template.metadata;
  const merged = { ...(meta.annotations ?? {}), ...extra };
  meta.annotations = Object.fromEntries(Object.entries(merged).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** The pod spec of a workload. */
function podSpec(workload: KubeObject): { containers: Array<{ name: string; lifecycle?: unknown }> } {
  return (workload.spec as { template: { spec: { containers: Array<{ name: string; lifecycle?: unknown }> } } }).template.spec;
}
