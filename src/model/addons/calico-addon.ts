import images from '../../expand/assets/addon-images/networking-calico.json';
import type { AddonBuilder } from './addon';
import data from './data/networking-calico.json';
import { type AddonImage, findObject, imageValues, renderAddonData } from './render-addon-data';
import { NETWORKING_SELECTOR } from './networking-selector';

/** The spec.networking.calico fields this builder renders; validation refuses the others (check-networking.ts). */
export const CALICO_RENDERED_FIELDS = ['registry', 'version', 'awsSrcDstCheck'];

/**
 * kops's `networking.projectcalico.org` addon (upup/models/cloudup/resources/addons/networking.projectcalico.org/k8s-1.25.yaml.template)
 * with kops's defaults: the Calico CRDs, calico-node, calico-kube-controllers and their RBAC; the IPv4 pool is the
 * controller manager's cluster CIDR, as kops's template takes it. `registry` and `version` change every Calico image.
 */
export const calicoAddon: AddonBuilder = ({ cluster }) => {
  const spec = cluster.spec;
  const c = spec.networking?.calico;
  if (!c) return [];
  const table = images as Record<string, AddonImage>;
  const ref = (key: string): string | undefined => {
    if (!c.registry && !c.version) return undefined;
    const image = c.registry ? table[key].image.replace(/^[^/]+/, c.registry) : table[key].image;
    return `${image}:${c.version ?? table[key].tag}`;
  };
  const objects = renderAddonData(data, {
    podCIDR: spec.kubeControllerManager?.clusterCIDR ?? (spec.podCIDR as string),
    ...imageValues(table, Object.fromEntries(Object.keys(table).map((k) => [k, ref(k)]))),
  });
  // kops's template: the spec's value (default Disable) on AWS, DoNothing elsewhere, where there is no source/destination check.
  const srcDst = spec.cloudProvider === 'aws' ? (c.awsSrcDstCheck ?? 'Disable') : 'DoNothing';
  const node = (findObject(objects, 'DaemonSet', 'calico-node').spec as { template: { spec: { containers: Array<{ name: string; env: Array<{ name: string; value?: string }> }> } } }).template.spec.containers.find((x) => x.name === 'calico-node');
  const env = node?.env.find((e) => e.name === 'FELIX_AWSSRCDSTCHECK');
  if (!env) throw new Error('addon data: no FELIX_AWSSRCDSTCHECK on calico-node');
  env.value = srcDst;
  return [{ name: 'networking.projectcalico.org', id: 'k8s-1.25', objects, selector: { ...NETWORKING_SELECTOR }, prune: true }];
};
