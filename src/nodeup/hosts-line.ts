import { isIP } from 'node:net';
import { UnsafeNodeValueError } from './unsafe-node-value-error';

const LABEL = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/i;

/**
 * One `address<TAB>name` line of /etc/hosts, once `name` is a DNS name (labels of letters, digits and inner
 * hyphens, at most 253 characters: no space, newline or `#` that would add another entry or break the
 * block's markers) and `address` an IPv4 or IPv6 address. `field` names where each came from; a value
 * that is neither throws UnsafeNodeValueError naming it.
 */
export function hostsLine(address: string, name: string, field: { address: string; name: string }): string {
  if (typeof name !== 'string' || name.length > 253 || !name.split('.').every((l) => LABEL.test(l))) {
    throw new UnsafeNodeValueError(`${field.name}: ${JSON.stringify(name)} is not a DNS name; it is not written to /etc/hosts, and nothing was written`);
  }
  if (typeof address !== 'string' || isIP(address) === 0) {
    throw new UnsafeNodeValueError(`${field.address}: ${JSON.stringify(address)} is not an IP address; it is not written to /etc/hosts, and nothing was written`);
  }
  return `${address}\t${name}`;
}
