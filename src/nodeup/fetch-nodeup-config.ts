import { createHash } from 'node:crypto';
import { openVfs } from '../state/vfs/open-vfs';
import type { Vfs } from '../state/vfs/vfs';
import type { BootConfig } from './boot-config';
import { NodeupConfigError } from './nodeup-config-error';

/** Where a group's nodeup config is, relative to the cluster's ConfigBase (kops's layout; the role lower-cased). */
export function nodeupConfigKey(boot: Pick<BootConfig, 'InstanceGroupName' | 'InstanceGroupRole'>): string {
  return `igconfig/${boot.InstanceGroupRole.toLowerCase()}/${boot.InstanceGroupName}/nodeupconfig.yaml`;
}

/**
 * The group's nodeupconfig.yaml from the state store named by the boot config, read with this machine's
 * own credentials (the instance role on a cloud), and only if its sha256 is the one user-data carries: a
 * config that changed since this machine's launch template was made (an update in progress, or tampering)
 * is refused, and nothing is installed. `open` opens the store (tests pass their own).
 */
export async function fetchNodeupConfig(boot: BootConfig, source: string, open: (url: string) => Vfs = openVfs): Promise<string> {
  const key = nodeupConfigKey(boot);
  const where = `${boot.ConfigBase.replace(/\/+$/, '')}/${key}`;
  let object;
  try {
    object = await open(boot.ConfigBase).read(key);
  } catch (e) {
    throw new NodeupConfigError(`${source}: cannot read ${where}: ${e instanceof Error ? e.message : String(e)}`);
  }
  if (!object) throw new NodeupConfigError(`${source}: ${where} does not exist; has "kforge update cluster ${boot.ClusterName} --yes" run?`);
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
