import type { Cluster } from '../api/types';
import type { FieldError } from '../errors/field-error';

/** A GCE network tag / name prefix: lowercase letters, digits and dashes, starting with a letter, at most 63 characters (GCE's RFC 1035 names). */
const GCE_NAME = /^[a-z]([-a-z0-9]{0,61}[a-z0-9])?$/;
/** A prefix may end in a dash (kops's default instance names are `<prefix>-<suffix>`). */
const GCE_PREFIX = /^[a-z][-a-z0-9]{0,62}$/;

/**
 * kops's checks of the GCE options of the cloud config (the v1alpha2 conversion: "multizone supports only GCE",
 * the same for nodeTags and nodeInstancePrefix), and kforge's own: nodeTags and nodeInstancePrefix are written
 * into /etc/kubernetes/cloud.config by nodeup, one `key = value` line each, so they must be GCE names (which
 * also keeps a newline from adding lines to the file).
 */
export function checkGceCloudConfig(cluster: Cluster): FieldError[] {
  const cc = cluster.spec.cloudConfig;
  if (!cc) return [];
  const object = `Cluster/${cluster.metadata.name}`;
  const gce = cluster.spec.cloudProvider === 'gce';
  const errors: FieldError[] = [];
  for (const field of ['multizone', 'nodeTags', 'nodeInstancePrefix'] as const) {
    if (cc[field] === undefined || cc[field] === null) continue;
    const path = `spec.cloudConfig.${field}`;
    if (!gce) {
      errors.push({ object, path, message: `is a GCE cloud-config option, and the cloud provider is ${String(cluster.spec.cloudProvider)}; remove the field` });
      continue;
    }
    if (field === 'nodeTags' && !GCE_NAME.test(String(cc.nodeTags))) {
      errors.push({ object, path, message: `"${String(cc.nodeTags)}" is not a GCE network tag (lowercase letters, digits and dashes, starting with a letter, at most 63 characters)` });
    }
    if (field === 'nodeInstancePrefix' && !GCE_PREFIX.test(String(cc.nodeInstancePrefix))) {
      errors.push({ object, path, message: `"${String(cc.nodeInstancePrefix)}" is not a GCE instance name prefix (lowercase letters, digits and dashes, starting with a letter, at most 63 characters)` });
    }
  }
  return errors;
}
