import { Cidr } from '../net/cidr';

/** ajv format "cidr": an IPv4 or IPv6 network in CIDR notation. Shared by runtime and build-time compiled validators. */
export function isCidr(s: string): boolean {
  return Cidr.tryParse(s) !== undefined;
}

/** The formats object compiled validators load (`formats.cidr.validate`). */
export const formats = { cidr: { type: 'string' as const, validate: isCidr } };
