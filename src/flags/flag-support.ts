import table from './accepted-flags.json';

/** Components whose flags the table covers; etcd is looked up by etcd version, the others by Kubernetes version. */
export type FlagComponent = 'kube-apiserver' | 'kube-controller-manager' | 'kube-scheduler' | 'kube-proxy' | 'kubelet' | 'cloud-controller-manager' | 'etcd';

/** One row of src/flags/accepted-flags.json: where a flag stands across the supported releases. */
export interface FlagEntry {
  /** First minor that rejects the flag. */
  removedIn?: string;
  /** The flag is gone from every supported minor; it was removed in an earlier release. */
  removedBefore?: string;
  /** First minor that accepts the flag. */
  since?: string;
  /** What to set instead, for the error message. */
  replacement?: string;
  /** Upstream file registering the flag, or the changelog / PR that removed it. */
  source: string;
}

/** The verdict on one flag at one version. */
export interface FlagVerdict {
  accepted: boolean;
  /** Why not, for a user: `--x was removed from kubelet in Kubernetes 1.35 (…); set … instead`. */
  problem?: string;
  /** The table row; undefined when the table does not know the flag. */
  entry?: FlagEntry;
}

const COMPONENTS = table.components as Record<string, Record<string, FlagEntry>>;
const ETCD = table.etcd.flags as Record<string, FlagEntry>;

/**
 * Whether `component` at `version` (a Kubernetes version, or for etcd an etcd version; patch ignored)
 * accepts `--flag`. A flag missing from the table is not accepted: kforge must not render a flag nobody
 * has checked.
 */
export function flagVerdict(component: FlagComponent, flag: string, version: string): FlagVerdict {
  const name = flag.replace(/^--/, '').replace(/=.*$/, '');
  const entry = (component === 'etcd' ? ETCD : COMPONENTS[component])?.[name];
  const product = component === 'etcd' ? 'etcd' : 'Kubernetes';
  const minor = minorOf(version);
  if (!entry) return { accepted: false, problem: `--${name} is not in kforge's table of ${component} flags (src/flags/accepted-flags.json)` };
  const instead = entry.replacement ? `; ${entry.replacement}` : '';
  if (entry.removedBefore && compareMinor(minor, entry.removedBefore) >= 0) {
    return { accepted: false, entry, problem: `--${name} is not accepted by ${component} in ${product} ${version} (removed before ${entry.removedBefore})${instead}` };
  }
  if (entry.removedIn && compareMinor(minor, entry.removedIn) >= 0) {
    return { accepted: false, entry, problem: `--${name} was removed from ${component} in ${product} ${entry.removedIn} (this cluster runs ${version})${instead}` };
  }
  if (entry.since && compareMinor(minor, entry.since) < 0) {
    return { accepted: false, entry, problem: `--${name} is accepted by ${component} only from ${product} ${entry.since} (this cluster runs ${version})` };
  }
  return { accepted: true, entry };
}

function minorOf(version: string): string {
  return version.replace(/^v/, '').split('.').slice(0, 2).join('.');
}

function compareMinor(a: string, b: string): number {
  const [a1, a2] = a.split('.').map(Number);
  const [b1, b2] = b.split('.').map(Number);
  return a1 - b1 || a2 - b2;
}
