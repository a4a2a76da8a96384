import images from '../../expand/assets/addon-images/networking-flannel.json';
import type { AddonBuilder } from './addon';
import data from './data/networking-flannel.json';
import { type AddonImage, findObject, imageValues, renderAddonData } from './render-addon-data';
import { NETWORKING_SELECTOR } from './networking-selector';

/** The spec.networking.flannel fields this builder renders; validation refuses the others (check-networking.ts). */
export const FLANNEL_RENDERED_FIELDS = ['backend', 'iptablesResyncSeconds'];

/**
 * kops's `networking.flannel` addon (upup/models/cloudup/resources/addons/networking.flannel/k8s-1.25.yaml.template):
 * the kube-flannel namespace, RBAC, `kube-flannel-cfg` (network = nonMasqueradeCIDR, backend from the spec, kops's
 * default vxlan) and the kube-flannel DaemonSet.
 */
export const flannelAddon: AddonBuilder = ({ cluster }) => {
  const spec = cluster.spec;
  const f = spec.networking?.flannel;
  if (!f) return [];
  const objects = renderAddonData(data, {
    nonMasqueradeCIDR: spec.nonMasqueradeCIDR as string,
    backend: f.backend ?? 'vxlan',
    ...imageValues(images as Record<string, AddonImage>),
  });
  if (f.iptablesResyncSeconds !== undefined) {
    const ds = findObject(objects, 'DaemonSet', 'kube-flannel-ds');
    const containers = (ds.spec as { template: { spec: { containers: Array<{ name: string; args?: string[] }> } } }).template.spec.containers;
    const main = containers.find((x) => x.name === 'kube-flannel');
    if (main?.args) main.args = main.args.map((a) => (a.startsWith('--iptables-resync=') ? `--iptables-resync=${f.iptablesResyncSeconds}` : a));
  }
  return [{ name: 'networking.flannel', id: 'k8s-1.25', objects, selector: { ...NETWORKING_SELECTOR }, prune: true }];
};
