import { GCE_CLOUD_CONFIG_PATH } from '../model/gce/gce-cloud-config-path';
import type { NodeupConfig } from '../model/nodeup-config-builder';
import type { NodeFile } from './node-file';
import { UnsafeNodeValueError } from './unsafe-node-value-error';

/** A GCE name as the value of one `key = value` line: no newline or other character that could add a line or a section. */
const SAFE_VALUE = /^[a-z][-a-z0-9]{0,62}$/;

/**
 * kops's CloudConfigBuilder on GCE: `/etc/kubernetes/cloud.config`, a `[global]` section with `node-tags`,
 * `node-instance-prefix` and `multizone` as the nodeup config carries them (the GCE options of spec.cloudConfig),
 * read by the cloud-controller-manager the gcp-cloud-controller addon runs. Written, as kops writes it, only on
 * nodes that run an API server (kubelet's cloud provider is `external` everywhere, so nothing else reads it), and
 * only when the config carries GCE's options (AWS: docs/differences-from-kops.md). Pure.
 */
export function cloudConfigFiles(config: NodeupConfig): NodeFile[] {
  if (!config.APIServerConfig) return [];
  if (config.multizone === undefined && config.nodeTags === undefined && config.nodeInstancePrefix === undefined) return [];
  const lines: string[] = [];
  if (config.nodeTags !== undefined) lines.push(`node-tags = ${safe('nodeTags', config.nodeTags)}`);
  if (config.nodeInstancePrefix !== undefined) lines.push(`node-instance-prefix = ${safe('nodeInstancePrefix', config.nodeInstancePrefix)}`);
  if (config.multizone !== undefined) lines.push(`multizone = ${config.multizone === true}`);
  return [{ path: GCE_CLOUD_CONFIG_PATH, mode: 0o644, content: `[global]\n${lines.join('\n')}\n` }];
}

function safe(field: string, value: unknown): string {
  if (typeof value !== 'string' || !SAFE_VALUE.test(value)) throw new UnsafeNodeValueError(`${field}: ${JSON.stringify(value)} is not a GCE name (lowercase letters, digits and dashes); it would be a line of ${GCE_CLOUD_CONFIG_PATH}`);
  return value;
}
