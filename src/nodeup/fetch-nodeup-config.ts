import { createHash } from 'node:crypto';
import { openVfs } from '../state/vfs/open-vfs';
import type { Vfs } from '../state/vfs/vfs';
import type { BootConfig } from './boot-config';
import { NodeupConfigError } from './nodeup-config-error';
import type { NodeCertificateClientOptions } from '../node-identity/request-node-certificates';

async function fromService(boot: BootConfig, options: FetchNodeupConfigOptions): Promise<string> {
  const server = boot.ConfigServer as NonNullable<BootConfig['ConfigServer']>;
  const request = options.request ?? (await import('../node-identity/request-node-certificates')).requestNodeConfig;
  return request({ cluster: boot.ClusterName, servers: server.Servers, caCertificates: server.CACertificates, region: server.Region, cloud: boot.CloudProvider });
}

async function fromStore(boot: BootConfig, source: string, where: string, open: (url: string) => Vfs): Promise<Buffer> {
  const base = boot.ConfigBase as string;
  let object;
  try {
    object = await open(base).read(nodeupConfigKey(boot));
  } catch (e) {
    throw new NodeupConfigError(`${source}: cannot read ${where}: ${e instanceof Error ? e.message : String(e)}`);
  }
  if (!object) throw new NodeupConfigError(`${source}: ${where} does not exist; has "kforge update cluster ${boot.ClusterName} --yes" run?`);
  return object.data;
}

/** Where a group's nodeup config is, relative to the cluster's ConfigBase (kops's layout; the role lower-cased). */
export function nodeupConfigKey(boot: Pick<BootConfig, 'InstanceGroupName' | 'InstanceGroupRole'>): string {
  return `igconfig/${boot.InstanceGroupRole.toLowerCase()}/${boot.InstanceGroupName}/nodeupconfig.yaml`;
}

/** Where the boot config says the group's nodeup config comes from, for messages. */
export function nodeupConfigSource(boot: BootConfig): string {
  if (boot.ConfigServer) return `the nodeup config from ${boot.ConfigServer.Servers.join(', ')}`;
  return `${(boot.ConfigBase ?? '').replace(/\/+$/, '')}/${nodeupConfigKey(boot)}`;
}

/** How fetchNodeupConfig reaches its source: the store (tests pass their own opener) or the service. */
export interface FetchNodeupConfigOptions {
  open?: (url: string) => Vfs;
  /** Asks the node-identity service (default: requestNodeConfig with the machine's credentials). */
  request?: (options: NodeCertificateClientOptions) => Promise<string>;
}

/**
 * The group's nodeupconfig.yaml, from the node-identity service when the boot config names a ConfigServer
 * (a worker: the service sends the config of the instance group it verified this machine to be in), else
 * from the state store named by ConfigBase, read with this machine's own credentials; in both cases only if
 * its sha256 is the one user-data carries: a config that changed since this machine's launch template was
 * made (an update in progress, or tampering) is refused, and nothing is installed.
 */
export async function fetchNodeupConfig(boot: BootConfig, source: string, options: FetchNodeupConfigOptions = {}): Promise<string> {
  const where = nodeupConfigSource(boot);
  const data = boot.ConfigServer ? Buffer.from(await fromService(boot, options), 'utf8') : await fromStore(boot, source, where, options.open ?? openVfs);
  const object = { data };
  const hash = createHash('sha256').update(object.data).digest('hex');
  if (hash !== boot.NodeupConfigHash.toLowerCase()) {
    throw new NodeupConfigError(
      `${source}: ${where} has sha256 ${hash}, not the ${boot.NodeupConfigHash} this machine was launched with (NodeupConfigHash); an update may be in progress, or the file was changed: nothing was installed`,
    );
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(object.data);
  } catch {
    throw new NodeupConfigError(`${where}: not UTF-8 text; not a nodeup config`);
  }
}
