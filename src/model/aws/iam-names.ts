import { createHash } from 'node:crypto';

// IAM's limit on role names (instance profiles allow 128; both use the same name here).
const IAM_NAME_MAX = 64;

/**
 * The name of a role and its instance profile: `<prefix>.<cluster>`, as kops names them, cut to IAM's 64
 * characters with a hash of the full name when longer, so that long cluster names still get distinct,
 * stable names.
 */
export function iamName(prefix: string, cluster: string): string {
  const full = `${prefix}.${cluster}`;
  if (full.length <= IAM_NAME_MAX) return full;
  const hash = createHash('sha256').update(full).digest('hex').slice(0, 8);
  return `${full.slice(0, IAM_NAME_MAX - hash.length - 1)}-${hash}`;
}

/** The control plane's role and profile: kops's `masters.<cluster>`. */
export function controlPlaneIamName(cluster: string): string {
  return iamName('masters', cluster);
}

/**
 * A node instance group's own role and profile, `nodes-<group>.<cluster>`: one per group (kops shares one
 * `nodes.<cluster>` role), so that a node can read its own group's nodeup config and no other's.
 */
export function nodeGroupIamName(instanceGroup: string, cluster: string): string {
  return iamName(`nodes-${instanceGroup}`, cluster);
}
