import { INPUT_LIMITS, formatBytes } from '../api/input-limits';
import type { NodeupConfig } from '../model/nodeup-config-builder';
import { readLimited } from '../util/read-limited';
import { NodeupConfigError } from './nodeup-config-error';
import { BootConfig, parseBootConfig } from './boot-config';
import { etcHostsRecords } from './etc-hosts';
import { checkFlagFilePaths } from './flag-file-path';
import { UnsafeNodeValueError } from './unsafe-node-value-error';
import { fetchNodeupConfig, nodeupConfigSource } from './fetch-nodeup-config';
import { parseNodeupConfig } from './parse-nodeup-config';

/**
 * Reads `--conf FILE` and returns the node's nodeup config: the file itself when it is one (the bare-metal
 * path), or, when it is the boot config user-data writes (kube_env.yaml), the group's config fetched from
 * the node-identity service (ConfigServer) or the state store (ConfigBase) and checked against the boot config's
 * hash. Errors name the file. `onBoot` sees a boot config before anything is fetched (on GCE nodeup reads the
 * instance's identity there).
 */
export async function readNodeupConfigFile(file: string, onBoot?: (boot: BootConfig) => Promise<void>): Promise<NodeupConfig> {
  let read;
  try {
    read = await readLimited(file, INPUT_LIMITS.fileBytes);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : code === 'EISDIR' ? 'is a directory' : String(code ?? e);
    throw new NodeupConfigError(`--conf ${file}: cannot read: ${why}`);
  }
  if (read.truncated) throw new NodeupConfigError(`--conf ${file}: larger than ${formatBytes(INPUT_LIMITS.fileBytes)}; not a nodeup config`);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(read.bytes);
  } catch {
    throw new NodeupConfigError(`--conf ${file}: not UTF-8 text; not a nodeup config`);
  }
  const boot = parseBootConfig(text);
  if (!boot) return checked(parseNodeupConfig(text, file), file);
  await onBoot?.(boot);
  const where = nodeupConfigSource(boot);
  const config = parseNodeupConfig(await fetchNodeupConfig(boot, `--conf ${file}`), where);
  // The addresses this machine reaches the service at are its boot config's (kops's BootConfig.ConfigServer):
  // without DNS, the API load balancer's name, known only once it exists; the group's config names the service.
  if (boot.ConfigServer && config.ConfigServer) config.ConfigServer = { ...config.ConfigServer, Servers: boot.ConfigServer.Servers };
  // The API's internal addresses are known only once the cloud made them, so a worker's boot config carries
  // them (kops's BootConfig.APIServerIPs), beside any the group's config already has.
  if (boot.APIServerIPs?.length && config.UsesNoneDNS && !config.APIServerConfig) config.APIServerIPs = [...new Set([...(config.APIServerIPs ?? []), ...boot.APIServerIPs])].sort();
  return checked(config, where);
}

/**
 * The config, once every file path a flag names and every /etc/hosts entry is safe to write: refused here,
 * before any asset or file is written (the renderer checks them again).
 */
function checked(config: NodeupConfig, source: string): NodeupConfig {
  try {
    checkFlagFilePaths(config);
    etcHostsRecords(config);
  } catch (e) {
    if (e instanceof UnsafeNodeValueError) throw new UnsafeNodeValueError(`${source}: ${e.message}`);
    throw e;
  }
  return config;
}
