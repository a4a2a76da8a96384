import { CLUSTER_LABEL } from '../api/api-versions';
import type { FieldError } from '../errors/field-error';

/** A DNS label: lower-case letters, digits and `-`, not at the start or end. */
const LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

/**
 * The longest etcd cluster name: its CAs are named `etcd-manager-ca-<name>` and `etcd-peers-ca-<name>`,
 * which must stay within the 63 characters of a keyset name.
 */
export const MAX_ETCD_CLUSTER_NAME = 63 - 'etcd-manager-ca-'.length;

/** A name as messages show it: quoted, and shortened when it is very long (names can be hostile input). */
export function quoteName(name: string): string {
  return JSON.stringify(name.length > 80 ? `${name.slice(0, 60)}…` : name);
}

/** Why `name` cannot be a cluster name (a fully-qualified DNS name); undefined when it can. */
export function clusterNameProblem(name: string): string | undefined {
  if (!name) return 'is empty: the cluster name is required';
  if (name.length > 253) return `is ${name.length} characters long; a DNS name has at most 253`;
  if (!name.includes('.')) return 'must be a fully-qualified DNS name with at least one dot (e.g. mycluster.example.com, or mycluster.k8s.local for a cluster without DNS)';
  if (name.split('.').some((l) => !LABEL.test(l) || l.length > 63)) {
    return 'is not a valid DNS name: use lower-case letters, digits, "-" and "." only, each label 1–63 characters, not starting or ending with "-"';
  }
  return undefined;
}

/** Why `name` cannot be an instance group name (a DNS label: it names cloud resources and is a node label value); undefined when it can. */
export function instanceGroupNameProblem(name: string): string | undefined {
  return labelProblem(name, 63, 'an instance group name');
}

/** Why `name` cannot be a keyset name (a directory of the keystore); undefined when it can. */
export function keysetNameProblem(name: string): string | undefined {
  return labelProblem(name, 63, 'a keyset name');
}

/** Why `name` cannot be an etcd cluster name (kops's main, events, cilium: it names keysets and key paths); undefined when it can. */
export function etcdClusterNameProblem(name: string): string | undefined {
  return labelProblem(name, MAX_ETCD_CLUSTER_NAME, 'an etcd cluster name');
}

function labelProblem(name: string, max: number, what: string): string | undefined {
  if (!name) return `is empty: ${what} is required`;
  if (name.length > max) return `is ${name.length} characters long; ${what} has at most ${max}`;
  if (!LABEL.test(name)) return `is not valid as ${what}: use lower-case letters, digits and "-", not at the start or end`;
  return undefined;
}

/**
 * The names in one manifest object that become keys in the state store: a Cluster's name and its etcd
 * cluster names, an InstanceGroup's name and its cluster label. Checked as soon as the manifest is
 * read, so that no name reaches the store (as a path) before it is known to be valid.
 */
export function checkObjectNames(kind: 'Cluster' | 'InstanceGroup', object: Record<string, unknown>): FieldError[] {
  const errors: FieldError[] = [];
  const check = (path: string, value: unknown, problemOf: (n: string) => string | undefined) => {
    if (typeof value !== 'string') return;
    const problem = problemOf(value);
    if (problem) errors.push({ path, message: `${quoteName(value)} ${problem}` });
  };
  const metadata = (object.metadata ?? {}) as { name?: unknown; labels?: Record<string, unknown> };
  if (kind === 'Cluster') {
    check('metadata.name', metadata.name, clusterNameProblem);
    const etcd = (object.spec as { etcdClusters?: unknown } | undefined)?.etcdClusters;
    if (Array.isArray(etcd)) etcd.forEach((e, i) => check(`spec.etcdClusters[${i}].name`, (e as { name?: unknown } | null)?.name, etcdClusterNameProblem));
  } else {
    check('metadata.name', metadata.name, instanceGroupNameProblem);
    check(`metadata.labels["${CLUSTER_LABEL}"]`, metadata.labels?.[CLUSTER_LABEL], clusterNameProblem);
  }
  return errors;
}
