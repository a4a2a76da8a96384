import type { NodeupConfig } from '../model/nodeup-config-builder';
import { caFiles } from './ca-files';
import { cloudConfigFiles } from './cloud-config-file';
import { containerdFiles } from './containerd-files';
import { etcHostsFile } from './etc-hosts';
import { checkFlagFilePaths } from './flag-file-path';
import { kernelSettingsFiles } from './kernel-settings-files';
import { kubeletFiles } from './kubelet-files';
import type { NodeFile } from './node-file';
import { NodeupConfigError } from './nodeup-config-error';
import { NodePki, pkiFiles } from './pki-files';
import { kopsControllerUnitFiles } from './kops-controller-unit-file';
import { protokubeUnitFiles } from './protokube-unit-file';
import { staticPodManifests } from './static-pod-manifests';
import { UnsafeNodeValueError } from './unsafe-node-value-error';

/** Inputs of renderNodeFiles besides the config, each read or made beforehand so the renderer stays pure. */
export interface RenderNodeFilesOptions {
  /** Name of the config file, for error messages. */
  source?: string;
  /** The node's keysets and issued certificates: with them, the keys, certificates and kubeconfigs are rendered too. */
  pki?: NodePki;
  /** The node's current /etc/hosts (`'absent'` when there is none): with it, nodeup's block of /etc/hosts is rendered too. */
  etcHosts?: { content: string; mode: number } | 'absent';
}

/**
 * Pure: a parsed nodeup config in, the files of the node out (sorted by path): containerd's config and
 * unit, kubelet's unit, the CA certificates, static pod manifests, sysctls and kernel modules, and on the
 * control plane protokube's unit and, on GCE, the cloud config; with
 * `pki`, the keys, certificates and kubeconfigs the flags name; with `etcHosts`, /etc/hosts. Every file a flag
 * names must be below kops's directories for its component (flagFilePath). CA bundles
 * from the config are checked to hold certificates only; private keys come only from `pki`.
 */
export function renderNodeFiles(config: NodeupConfig, options: RenderNodeFilesOptions = {}): NodeFile[] {
  try {
    // Every flag-named file, whether or not this render writes it: a hostile path fails the same everywhere.
    checkFlagFilePaths(config);
    const files = [...containerdFiles(config), ...kubeletFiles(config), ...caFiles(config), ...staticPodManifests(config), ...kernelSettingsFiles(config), ...protokubeUnitFiles(config), ...kopsControllerUnitFiles(config), ...cloudConfigFiles(config)];
    if (options.pki) files.push(...pkiFiles(config, options.pki));
    if (options.etcHosts !== undefined) {
      const hosts = etcHostsFile(config, options.etcHosts === 'absent' ? undefined : options.etcHosts);
      if (hosts) files.push(hosts);
    }
    const seen = new Set<string>();
    for (const f of files) {
      if (seen.has(f.path)) throw new NodeupConfigError(`${f.path}: written twice (a flag names a file nodeup already writes for something else)`);
      seen.add(f.path);
    }
    return files.sort((a, b) => a.path.localeCompare(b.path));
  } catch (e) {
    if (e instanceof NodeupConfigError && options.source) throw new NodeupConfigError(`${options.source}: ${e.message}`);
    if (e instanceof UnsafeNodeValueError && options.source) throw new UnsafeNodeValueError(`${options.source}: ${e.message}`);
    throw e;
  }
}
