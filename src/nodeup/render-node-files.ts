import type { NodeupConfig } from '../model/nodeup-config-builder';
import { caFiles } from './ca-files';
import { containerdFiles } from './containerd-files';
import { kernelSettingsFiles } from './kernel-settings-files';
import { kubeletFiles } from './kubelet-files';
import type { NodeFile } from './node-file';
import { NodeupConfigError } from './nodeup-config-error';
import { staticPodManifests } from './static-pod-manifests';

/** Options of renderNodeFiles; none yet change the output (the network-dependent parts come later). */
export interface RenderNodeFilesOptions {
  /** Name of the config file, for error messages. */
  source?: string;
}

/**
 * Pure: a parsed nodeup config in, the files of the node out (sorted by path): containerd's config and
 * unit, kubelet's unit, the CA certificates, static pod manifests, sysctls and kernel modules. Never a
 * private key: the config carries none, and CA bundles are checked to hold certificates only.
 */
export function renderNodeFiles(config: NodeupConfig, options: RenderNodeFilesOptions = {}): NodeFile[] {
  try {
    const files = [...containerdFiles(config), ...kubeletFiles(config), ...caFiles(config), ...staticPodManifests(config), ...kernelSettingsFiles(config)];
    return files.sort((a, b) => a.path.localeCompare(b.path));
  } catch (e) {
    if (e instanceof NodeupConfigError && options.source) throw new NodeupConfigError(`${options.source}: ${e.message}`);
    throw e;
  }
}
