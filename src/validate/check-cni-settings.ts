import type { Cluster } from '../api/types';
import type { FieldError } from '../errors/field-error';
import { AMAZON_VPC_RENDERED_FIELDS } from '../model/addons/amazon-vpc-addon';
import { CALICO_RENDERED_FIELDS } from '../model/addons/calico-addon';
import { CILIUM_MINOR, CILIUM_RENDERED_FIELDS } from '../model/addons/cilium-addon';
import { FLANNEL_RENDERED_FIELDS } from '../model/addons/flannel-addon';

/** Per rendered CNI: the settings its addon builder renders. */
const RENDERED: Record<string, string[]> = {
  amazonvpc: AMAZON_VPC_RENDERED_FIELDS,
  calico: CALICO_RENDERED_FIELDS,
  cilium: CILIUM_RENDERED_FIELDS,
  flannel: FLANNEL_RENDERED_FIELDS,
};

/**
 * Values that change nothing in kops either: calico's `majorVersion: v3` (kops removed the field; every Calico
 * it renders is v3) and `encapsulationMode: ipip` (kops's calico.go forces ipip on AWS).
 */
const INERT: Record<string, Record<string, unknown>> = { calico: { majorVersion: 'v3', encapsulationMode: 'ipip' } };

/**
 * The settings of a rendered CNI that its addon does not render yet are refused, each with its path and
 * "not supported yet" (accepted and ignored would leave the user believing they apply); so are Cilium values
 * other than those kops's template renders with kforge's data (the v1.18 minor, kubernetes or eni IPAM, and
 * the tunnel mode kops derives from the IPAM).
 */
export function checkCniSettings(cluster: Cluster): FieldError[] {
  const errors: FieldError[] = [];
  const object = `Cluster/${cluster.metadata.name}`;
  const networking = (cluster.spec.networking ?? {}) as Record<string, Record<string, unknown> | undefined>;
  for (const [cni, fields] of Object.entries(RENDERED)) {
    const settings = networking[cni];
    if (!settings || typeof settings !== 'object') continue;
    for (const key of Object.keys(settings).sort()) {
      if (settings[key] === undefined || settings[key] === null || fields.includes(key) || INERT[cni]?.[key] === settings[key]) continue;
      errors.push({ object, path: `spec.networking.${cni}.${key}`, message: `is not supported yet: kforge renders kops's ${cni} addon with kops's default for this setting` });
    }
  }
  const cilium = cluster.spec.networking?.cilium;
  if (cilium) {
    if (cilium.version !== undefined && !String(cilium.version).startsWith(CILIUM_MINOR)) {
      errors.push({ object, path: 'spec.networking.cilium.version', message: `is not supported yet: "${cilium.version}"; kforge renders Cilium ${CILIUM_MINOR}x (kops's template for it)` });
    }
    const ipam = cilium.ipam ?? 'kubernetes';
    if (ipam !== 'kubernetes' && ipam !== 'eni') {
      errors.push({ object, path: 'spec.networking.cilium.ipam', message: `is not supported yet: "${ipam}"; kforge renders kubernetes or eni IPAM` });
    }
    if (ipam === 'eni' && cluster.spec.cloudProvider !== 'aws') {
      errors.push({ object, path: 'spec.networking.cilium.ipam', message: 'eni IPAM needs cloudProvider aws' });
    }
    const tunnel = ipam === 'eni' ? 'disabled' : 'vxlan';
    if (cilium.tunnel !== undefined && cilium.tunnel !== tunnel) {
      errors.push({ object, path: 'spec.networking.cilium.tunnel', message: `is not supported yet: "${cilium.tunnel}"; with ${ipam} IPAM kforge renders kops's default, "${tunnel}"` });
    }
  }
  return errors;
}
