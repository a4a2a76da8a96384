import type { Cluster } from '../api/types';
import type { FieldError } from '../errors/field-error';

const LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/i;
/** The longest name kforge derives from the cluster's: `api.internal.<cluster>` (the API's internal name). */
export const LONGEST_DERIVED_PREFIX = 'api.internal.';

/** Why `name` is not a DNS name (labels of letters, digits and `-`, 1–63 characters, 253 in all); undefined when it is. */
export function dnsNameProblem(name: string): string | undefined {
  if (name.length > 253) return `is ${name.length} characters long; a DNS name has at most 253`;
  const labels = name.replace(/\.$/, '').split('.');
  const bad = labels.find((l) => l.length === 0 || l.length > 63 || !LABEL.test(l));
  if (bad === undefined) return undefined;
  if (bad.length === 0) return 'has an empty label (two dots in a row, or a leading dot)';
  if (bad.length > 63) return `has a label of ${bad.length} characters ("${bad.slice(0, 20)}…"); a DNS label has at most 63`;
  return `has an invalid label "${bad}": use letters, digits and "-", not at the start or end`;
}

/**
 * Every field of the spec that is a DNS name is checked as one (kops accepted `api..bad`), and the
 * cluster name leaves room for the longest name kforge derives from it.
 */
export function checkDnsNames(cluster: Cluster): FieldError[] {
  const object = `Cluster/${cluster.metadata.name}`;
  const spec = cluster.spec;
  const errors: FieldError[] = [];
  const check = (path: string, value: unknown): void => {
    if (typeof value !== 'string') return;
    const problem = dnsNameProblem(value);
    if (problem) errors.push({ object, path, message: `"${value}" is not a DNS name: it ${problem}` });
  };
  check('spec.masterPublicName', spec.masterPublicName);
  check('spec.masterInternalName', spec.masterInternalName);
  check('spec.api.publicName', (spec.api as { publicName?: unknown } | undefined)?.publicName);
  check('spec.clusterDNSDomain', spec.clusterDNSDomain);
  check('spec.topology.bastion.bastionPublicName', (spec.topology as { bastion?: { bastionPublicName?: unknown } } | undefined)?.bastion?.bastionPublicName);
  // dnsZone is a zone name or a provider zone id (Route 53 `Z…`, a GCE zone name); only names have dots.
  if (typeof spec.dnsZone === 'string' && spec.dnsZone.includes('.')) check('spec.dnsZone', spec.dnsZone);
  const store = spec.serviceAccountIssuerDiscovery?.discoveryStore;
  const host = typeof store === 'string' ? /^[a-z0-9]+:\/\/([^/]+)/.exec(store)?.[1] : undefined;
  // S3 bucket names are DNS-compatible hosts in the issuer URL (https://<bucket>.s3.<region>.amazonaws.com).
  if (host !== undefined && dnsNameProblem(host)) {
    errors.push({ object, path: 'spec.serviceAccountIssuerDiscovery.discoveryStore', message: `the bucket "${host}" cannot be part of an HTTPS host name: it ${dnsNameProblem(host)}` });
  }
  const name = cluster.metadata.name;
  if (typeof name === 'string' && name.length <= 253 && name.length + LONGEST_DERIVED_PREFIX.length > 253) {
    errors.push({
      object,
      path: 'metadata.name',
      message: `is ${name.length} characters long: the API's internal name ${LONGEST_DERIVED_PREFIX}<name> would be ${name.length + LONGEST_DERIVED_PREFIX.length}, longer than the 253 DNS allows; use at most ${253 - LONGEST_DERIVED_PREFIX.length} characters`,
    });
  }
  return errors;
}
