import type { NodeupConfig } from '../model/nodeup-config-builder';
import { withMarkedBlock } from '../util/with-marked-block';
import { hostsLine } from './hosts-line';
import type { NodeFile } from './node-file';
import { isControlPlaneConfig } from './parse-nodeup-config';

/** Where the host table is on the node. */
export const ETC_HOSTS_PATH = '/etc/hosts';
/** The lines that open and close the block nodeup owns (kops's markers, with kforge's name). */
export const ETC_HOSTS_BEGIN = '# Begin host entries managed by kforge nodeup - do not edit';
/** The line that closes nodeup's block. */
export const ETC_HOSTS_END = '# End host entries managed by kforge nodeup';

/**
 * The /etc/hosts records a node needs, as `address name` pairs (kops's EtcHostsBuilder), each checked by
 * hostsLine: a name that is not a DNS name or an address that is not an IP throws UnsafeNodeValueError.
 */
export function etcHostsRecords(config: NodeupConfig): Array<{ address: string; name: string }> {
  if (!config.UsesNoneDNS) return [];
  const records: Array<{ address: string; name: string; field: { address: string; name: string } }> = [];
  if (isControlPlaneConfig(config)) {
    // With no DNS, the control plane reaches its own API server under the names its certificate carries.
    const names: Array<[string | undefined, string]> = [[config.APIInternalName, 'APIInternalName'], [config.APIServerConfig?.PublicName, 'APIServerConfig.PublicName']];
    for (const [name, field] of names) {
      if (name && !records.some((r) => r.name === name)) records.push({ address: '127.0.0.1', name, field: { address: 'the loopback address', name: field } });
    }
  } else {
    (config.APIServerIPs ?? []).forEach((address, i) => records.push({ address, name: config.APIInternalName, field: { address: `APIServerIPs[${i}]`, name: 'APIInternalName' } }));
    // The node-identity service is behind the same load balancer (its 3988 listener), as kops's EtcHostsBuilder.
    if (config.ConfigServer) {
      const name = `kops-controller.internal.${config.ClusterName}`;
      (config.APIServerIPs ?? []).forEach((address, i) => records.push({ address, name, field: { address: `APIServerIPs[${i}]`, name: 'ClusterName' } }));
    }
  }
  for (const r of records) hostsLine(r.address, r.name, r.field);
  return records.map(({ address, name }) => ({ address, name }));
}

/**
 * Pure: /etc/hosts with nodeup's block set to the node's records, everything outside the block kept byte
 * for byte. The block replaces an earlier one in place, or is appended (put first if the file's last
 * line has no newline); with no records an existing block is removed. Undefined when nothing is to change
 * and nodeup has no block (the file is not nodeup's to write). `existing` is the current file, if any.
 */
export function etcHostsFile(config: NodeupConfig, existing?: { content: string; mode: number }): NodeFile | undefined {
  const lines = etcHostsRecords(config).map((r) => `${r.address}\t${r.name}`);
  const content = withMarkedBlock(existing?.content ?? '', ETC_HOSTS_BEGIN, ETC_HOSTS_END, lines);
  if (content === undefined) return undefined;
  return { path: ETC_HOSTS_PATH, mode: existing ? existing.mode & 0o7777 : 0o644, content };
}
