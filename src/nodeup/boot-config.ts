import * as yaml from 'js-yaml';

/** What user-data writes to /opt/kforge/conf/kube_env.yaml: where the group's nodeup config is, and its hash. */
export interface BootConfig {
  CloudProvider: string;
  ClusterName: string;
  /** The cluster's state-store base, e.g. `s3://bucket/prefix/<cluster>`. */
  ConfigBase: string;
  InstanceGroupName: string;
  InstanceGroupRole: string;
  /** sha256 (hex) of the group's nodeupconfig.yaml as update wrote it. */
  NodeupConfigHash: string;
}

const FIELDS = ['CloudProvider', 'ClusterName', 'ConfigBase', 'InstanceGroupName', 'InstanceGroupRole', 'NodeupConfigHash'] as const;

/**
 * The boot config in `text`, or undefined when the text is not one (a nodeup config, given directly on
 * bare metal). A boot config is a flat mapping with every field of the user-data contract as a string.
 */
export function parseBootConfig(text: string): BootConfig | undefined {
  let doc: unknown;
  try {
    doc = yaml.load(text, { schema: yaml.FAILSAFE_SCHEMA });
  } catch {
    return undefined;
  }
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) return undefined;
  const o = doc as Record<string, unknown>;
  if (!FIELDS.every((f) => typeof o[f] === 'string' && o[f] !== '')) return undefined;
  return Object.fromEntries(FIELDS.map((f) => [f, o[f]])) as unknown as BootConfig;
}
