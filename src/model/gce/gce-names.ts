/**
 * kops's GCE names (upup/pkg/fi/cloudup/gce/utils.go, labels.go; pkg/truncate): GCE allows no `.` in names,
 * tags or labels, and at most 63 characters, so kops replaces dots with dashes and truncates long names with a
 * hash. The same spec must give the same names as kops, so that the resources match kops's Terraform.
 */
export const GceNames = {
  /** kops's truncate.TruncateString without AlwaysAddHash: `s` if it fits, else a prefix, `-` and a 6-character FNV hash. */
  truncate(s: string, maxLength: number, hashLength = 6): string {
    if (s.length <= maxLength) return s;
    const hash = fnv32aBase32Hex(s).slice(0, hashLength);
    return `${s.slice(0, maxLength - hash.length - 1)}-${hash}`;
  },
  /** The cluster name with `.` replaced by `-` (gce.SafeClusterName). */
  safeClusterName(cluster: string): string {
    return cluster.replace(/\./g, '-');
  },
  /** `<object>-<cluster>` truncated to `maxLength` (gce.ClusterSuffixedName): firewall rules, subnets, routers. */
  clusterSuffixed(object: string, cluster: string, maxLength = 63): string {
    const prefix = `${object}-`;
    return prefix + GceNames.truncate(GceNames.safeClusterName(cluster), maxLength - prefix.length);
  },
  /** `<cluster>-<object>` truncated to `maxLength` (gce.ClusterPrefixedName): network tags. */
  clusterPrefixed(object: string, cluster: string, maxLength = 63): string {
    const suffix = `-${object}`;
    return GceNames.truncate(GceNames.safeClusterName(cluster), maxLength - suffix.length) + suffix;
  },
  /** `<name>-<cluster>` with dots as dashes (gce.SafeObjectName): the network, disks, templates. */
  safeObject(name: string, cluster: string): string {
    return GceNames.safeClusterName(`${name}-${cluster}`);
  },
  /** The network tag of a role's instances (gce.TagForRole): `<cluster>-k8s-io-role-<role>`. */
  tagForRole(cluster: string, role: 'control-plane' | 'master' | 'node' | 'bastion' | 'apiserver'): string {
    return GceNames.clusterPrefixed(`k8s-io-role-${role}`, cluster);
  },
  /** A string as a GCE label key or value (gce.EncodeGCELabel): `[0-9a-z]` kept, every other byte as `-xx`. */
  encodeLabel(s: string): string {
    return [...Buffer.from(s, 'utf8')].map((c) => ((c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x7a) ? String.fromCharCode(c) : `-${c.toString(16).padStart(2, '0')}`)).join('');
  },
};

/** FNV-1a 32-bit of `s`, big-endian, in lowercase base32hex with padding (Go's base32.HexEncoding), as kops's HashString. */
function fnv32aBase32Hex(s: string): string {
  let h = 0x811c9dc5;
  for (const b of Buffer.from(s, 'utf8')) h = Math.imul(h ^ b, 0x01000193) >>> 0;
  const bytes = [h >>> 24, (h >>> 16) & 255, (h >>> 8) & 255, h & 255];
  const alphabet = '0123456789abcdefghijklmnopqrstuv';
  let bits = 0;
  let value = 0;
  let out = '';
  for (const b of bytes) {
    value = (value << 8) | b;
    bits += 8;
    while (bits >= 5) {
      out += alphabet[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += alphabet[(value << (5 - bits)) & 31];
  return out.padEnd(8, '=');
}
