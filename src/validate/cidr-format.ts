import { Cidr } from '../net/cidr';

/** ajv format "cidr": an IPv4 or IPv6 network in CIDR notation. Shared by runtime and build-time compiled validators. */
export function isCidr(s: string): boolean {
  return Cidr.tryParse(s) !== undefined;
}

/** ajv format "cidr-or-prefix-list": a CIDR, or an AWS managed prefix list id as kops's access lists take. */
export function isCidrOrPrefixList(s: string): boolean {
  return /^pl-[0-9a-f]+$/.test(s) || isCidr(s);
}

/** The formats object compiled validators load (`formats.cidr.validate`). */
export const formats = {
  cidr: { type: 'string' as const, validate: isCidr },
  'cidr-or-prefix-list': { type: 'string' as const, validate: isCidrOrPrefixList },
};
