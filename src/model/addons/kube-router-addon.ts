import images from '../../expand/assets/addon-images/networking-kuberouter.json';
import type { AddonBuilder } from './addon';
import data from './data/networking-kuberouter.json';
import { NETWORKING_SELECTOR } from './networking-selector';
import { type AddonImage, imageValues, renderAddonData } from './render-addon-data';

/**
 * kops's `networking.kuberouter` addon (upup/models/cloudup/resources/addons/networking.kuberouter/k8s-1.12.yaml.template):
 * kube-router as router, firewall and service proxy (kube-proxy is off), with the cluster's service range. kops's
 * template quotes the range inside the flag (`--service-cluster-ip-range="…"`); kforge renders it as kops does.
 * kforge's schema has no kube-router settings, so the template's SELinux and nftables branches take kops's defaults.
 */
export const kubeRouterAddon: AddonBuilder = ({ cluster }) => {
  if (!cluster.spec.networking?.kuberouter) return [];
  const objects = renderAddonData(data, {
    serviceClusterIPRange: cluster.spec.serviceClusterIPRange as string,
    ...imageValues(images as Record<string, AddonImage>),
  });
  return [{ name: 'networking.kuberouter', id: 'k8s-1.12', objects, selector: { ...NETWORKING_SELECTOR } }];
};
