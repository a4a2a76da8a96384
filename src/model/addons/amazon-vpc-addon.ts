import images from '../../expand/assets/addon-images/networking-amazonvpc.json';
import type { AddonBuilder, KubeObject } from './addon';
import data from './data/networking-amazonvpc.json';
import { type AddonImage, findObject, imageValues, renderAddonData } from './render-addon-data';
import { NETWORKING_SELECTOR } from './networking-selector';

/** The spec.networking.amazonvpc fields this builder renders (all of kforge's schema). */
export const AMAZON_VPC_RENDERED_FIELDS = ['imageName', 'initImageName', 'networkPolicyAgentImage', 'env'];
/** The first aws-node variable after kops's `AmazonVpcEnvVars` block (the template's fixed entries follow it). */
const AFTER_ENV_BLOCK = 'VPC_CNI_VERSION';

interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: unknown;
}

/**
 * kops's `networking.amazon-vpc-routed-eni` addon (upup/models/cloudup/resources/addons/networking.amazon-vpc-routed-eni/k8s-1.16.yaml.template):
 * the aws-node DaemonSet with kops's `AmazonVpcEnvVars` (upup/pkg/fi/cloudup/template_functions.go: the chart's defaults,
 * the spec's `env` over them, sorted by name), the images the spec overrides, and `pods: patch` when ANNOTATE_POD_IP is set.
 */
export const amazonVpcAddon: AddonBuilder = ({ cluster }) => {
  const a = cluster.spec.networking?.amazonvpc;
  if (!a) return [];
  const objects = renderAddonData(data, {
    clusterName: cluster.metadata.name,
    ...imageValues(images as Record<string, AddonImage>, { cni: a.imageName, init: a.initImageName, 'network-policy-agent': a.networkPolicyAgentImage }),
  });
  const userEnv = (a.env ?? []).filter((e) => e.name);
  if (userEnv.length > 0) mergeEnv(objects, userEnv as EnvVar[]);
  return [{ name: 'networking.amazon-vpc-routed-eni', id: 'k8s-1.16', objects, selector: { ...NETWORKING_SELECTOR }, needsRollingUpdate: 'all' }];
};

/** The spec's variables over kops's defaults (ENABLE_IPv4/ENABLE_IPv6 stay kops's), sorted as Go ranges a map. */
function mergeEnv(objects: KubeObject[], userEnv: EnvVar[]): void {
  const ds = findObject(objects, 'DaemonSet', 'aws-node');
  const node = (ds.spec as { template: { spec: { containers: Array<{ name: string; env: EnvVar[] }> } } }).template.spec.containers.find((x) => x.name === 'aws-node');
  if (!node) throw new Error('addon data: no aws-node container');
  const end = node.env.findIndex((e) => e.name === AFTER_ENV_BLOCK);
  const block = new Map(node.env.slice(0, end).map((e) => [e.name, e.value ?? '']));
  const fixed = new Map([...block].filter(([k]) => k === 'ENABLE_IPv4' || k === 'ENABLE_IPv6'));
  for (const e of userEnv) block.set(e.name, e.value ?? '');
  for (const [k, v] of fixed) block.set(k, v);
  const merged = [...block].sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0)).map(([name, value]) => ({ name, value }));
  node.env = [...merged, ...node.env.slice(end)];
  // kops's template tests the value as Go does: any non-empty string turns it on.
  if (block.get('ANNOTATE_POD_IP')) {
    const role = findObject(objects, 'ClusterRole', 'aws-node');
    const pods = (role.rules as Array<{ resources: string[]; verbs: string[] }>).find((r) => r.resources.length === 1 && r.resources[0] === 'pods');
    if (pods && !pods.verbs.includes('patch')) pods.verbs.push('patch');
  }
}
