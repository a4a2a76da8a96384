import * as posix from 'node:path/posix';
import type { NodeupConfig } from '../model/nodeup-config-builder';
import { componentFlagValues } from './component-flag-values';
import { UnsafeNodeValueError } from './unsafe-node-value-error';

// Where kops keeps each component's files (nodeup/pkg/model): its own /var/lib/<component>, and the
// cluster's /srv/kubernetes and /etc/kubernetes. A flag-named file is written only below one of these.
const SHARED_DIRS = ['/srv/kubernetes', '/etc/kubernetes'];
const COMPONENT_DIRS: Record<string, string[]> = {
  kubelet: ['/var/lib/kubelet'],
  'kube-proxy': ['/var/lib/kube-proxy'],
  'kube-controller-manager': ['/var/lib/kube-controller-manager'],
  'kube-scheduler': ['/var/lib/kube-scheduler'],
  'kube-apiserver': [],
};
// kubelet runs every file here as a static pod: no flag-named file may land in it.
const NEVER_UNDER = '/etc/kubernetes/manifests';

/** The flags of each component whose value is a file nodeup writes (kops's names). */
export const WRITTEN_FILE_FLAGS: Readonly<Record<string, readonly string[]>> = {
  kubelet: ['config', 'kubeconfig', 'bootstrap-kubeconfig'],
  'kube-proxy': ['kubeconfig'],
  'kube-controller-manager': ['kubeconfig', 'authentication-kubeconfig', 'authorization-kubeconfig', 'service-account-private-key-file', 'cluster-signing-key-file'],
  'kube-scheduler': ['kubeconfig', 'authentication-kubeconfig', 'authorization-kubeconfig'],
  'kube-apiserver': [
    'tls-cert-file',
    'tls-private-key-file',
    'kubelet-client-certificate',
    'kubelet-client-key',
    'etcd-certfile',
    'etcd-keyfile',
    'proxy-client-cert-file',
    'proxy-client-key-file',
    'service-account-key-file',
    'service-account-signing-key-file',
  ],
};

/**
 * The file `--<flag>` of `component` names, for nodeup to write; undefined when the flag is not set. The
 * path must be normalized, absolute, and below one of the directories kops uses for that component (its
 * /var/lib/<component>, /srv/kubernetes, /etc/kubernetes but not its manifests): a corrupted config can then
 * never make nodeup write over /etc/shadow or into /etc/cron.d. `--service-account-key-file` names a list;
 * its first file is the one written. Throws UnsafeNodeValueError naming the field and the path.
 */
export function flagFilePath(config: NodeupConfig, component: string, flag: string): string | undefined {
  if (!WRITTEN_FILE_FLAGS[component]?.includes(flag)) throw new Error(`flagFilePath: --${flag} of ${component} is not a flag nodeup writes a file for`);
  const raw = componentFlagValues(config, component).get(flag);
  if (raw === undefined) return undefined;
  const value = flag === 'service-account-key-file' ? raw.split(',')[0] : raw;
  const dirs = [...COMPONENT_DIRS[component], ...SHARED_DIRS];
  const below = (dir: string) => value.startsWith(`${dir}/`);
  const field = `ComponentFlags.${component} --${flag}`;
  const where = `nodeup writes ${component}'s files only below ${dirs.join(', ')} (not ${NEVER_UNDER}); nothing was written`;
  // eslint-disable-next-line no-control-regex
  if (/[\x00-\x1f\x7f]/.test(value)) throw new UnsafeNodeValueError(`${field}=${JSON.stringify(value)}: has a control character; ${where}`);
  if (!value.startsWith('/') || posix.normalize(value) !== value || value.endsWith('/')) {
    throw new UnsafeNodeValueError(`${field}=${value}: not a normalized absolute file path (no "..", ".", "//"); ${where}`);
  }
  if (!dirs.some(below) || below(NEVER_UNDER) || value === NEVER_UNDER) throw new UnsafeNodeValueError(`${field}=${value}: ${where}`);
  return value;
}

/** Checks every flag-named file of the config (flagFilePath), so a hostile path is refused before anything is written. */
export function checkFlagFilePaths(config: NodeupConfig): void {
  for (const [component, flags] of Object.entries(WRITTEN_FILE_FLAGS)) for (const f of flags) flagFilePath(config, component, f);
}
