import * as yaml from 'js-yaml';
import type { KubeletConfigSpec } from '../api/types';
import { componentDefinition, deref } from '../api/schema-registry';

/** Where nodeup writes kubelet's KubeletConfiguration file, and what `--config` names (kops's kubeletConfigFilePath). */
export const KUBELET_CONFIG_PATH = '/var/lib/kubelet/kubelet.conf';

/** The API version and kind of the file, as kubelet reads it. */
export const KUBELET_CONFIG_API_VERSION = 'kubelet.config.k8s.io/v1beta1';

/**
 * The KubeletConfiguration file of a merged kubelet spec (kops's buildKubeletComponentConfig): the settings
 * kubelet has no flag for, named by their `x-kforge-kubelet-config` annotation in
 * schemas/components.schema.json, so the mapping is data like `x-kforge-flag`. Keys are sorted and only
 * set fields appear; undefined when none is set, so kubelet then runs without `--config`.
 */
export function kubeletConfigFile(kubelet: KubeletConfigSpec | undefined): string | undefined {
  const fields = kubeletConfigFields(kubelet);
  if (Object.keys(fields).length === 0) return undefined;
  return yaml.dump({ apiVersion: KUBELET_CONFIG_API_VERSION, kind: 'KubeletConfiguration', ...fields }, { sortKeys: true, lineWidth: -1, noRefs: true });
}

/** The set file fields of a kubelet spec, by their KubeletConfiguration (v1beta1) name. */
export function kubeletConfigFields(kubelet: KubeletConfigSpec | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (!kubelet) return out;
  const names = kubeletConfigFieldNames();
  for (const [field, value] of Object.entries(kubelet as Record<string, unknown>)) {
    const name = names[field];
    if (name === undefined || value === undefined || value === null) continue;
    out[name] = value;
  }
  return out;
}

/** KubeletConfigSpec field → KubeletConfiguration field, read from the schema's `x-kforge-kubelet-config` annotations. */
export function kubeletConfigFieldNames(): Record<string, string> {
  const { node, base } = componentDefinition('KubeletConfigSpec');
  const names: Record<string, string> = {};
  for (const [field, raw] of Object.entries(node.properties ?? {})) {
    const name = raw['x-kforge-kubelet-config'] ?? deref(raw, base).node['x-kforge-kubelet-config'];
    if (typeof name === 'string') names[field] = name;
  }
  return names;
}
