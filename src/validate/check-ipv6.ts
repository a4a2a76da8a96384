import type { Cluster } from '../api/types';
import type { FieldError } from '../errors/field-error';
import { Cidr } from '../net/cidr';

const WHY = 'IPv6 and dual-stack clusters are not supported yet (kforge derives IPv4 ranges and would produce a broken spec); use IPv4 ranges';

/**
 * Refuses IPv6 and dual-stack specs, which kops builds with rules of their own (nonMasqueradeCIDR ::/0,
 * a fd00:5e4f:ce::/108 service range, no pod range, /64#N subnets) that kforge does not implement yet.
 * An IPv6 range in the IPv4 fields would otherwise be carved as if it were IPv4 (e.g. a ::/3 service range).
 */
export function checkIpv6(cluster: Cluster): FieldError[] {
  const object = `Cluster/${cluster.metadata.name}`;
  const spec = cluster.spec;
  const errors: FieldError[] = [];
  for (const field of ['networkCIDR', 'nonMasqueradeCIDR', 'serviceClusterIPRange', 'podCIDR'] as const) {
    const value = spec[field];
    if (typeof value === 'string' && Cidr.tryParse(value)?.bits === 128) errors.push({ object, path: `spec.${field}`, message: `"${value}" is an IPv6 range: ${WHY}` });
  }
  (spec.subnets ?? []).forEach((s, i) => {
    if (s.ipv6CIDR !== undefined) errors.push({ object, path: `spec.subnets[${i}].ipv6CIDR`, message: WHY });
    if (s.type === 'DualStack') errors.push({ object, path: `spec.subnets[${i}].type`, message: `DualStack subnets: ${WHY}` });
    if (typeof s.cidr === 'string' && Cidr.tryParse(s.cidr)?.bits === 128) errors.push({ object, path: `spec.subnets[${i}].cidr`, message: `"${s.cidr}" is an IPv6 range: ${WHY}` });
  });
  return errors;
}
