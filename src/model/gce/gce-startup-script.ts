import type { Cluster, InstanceGroup } from '../../api/types';
import { normalizedRole } from '../../expand/expand-context';
import { MissingModelInputError } from '../missing-model-input-error';
import { renderBootScript } from '../render-boot-script';

/**
 * The boot script of a GCE instance group (metadata `user-data`, or `startup-script` with
 * cloudConfig.gceUseStartupScript, as kops): the same script and boot-config contract as AWS user-data, with
 * GCE's parts (the metadata server's token, `gs://` reads). A bastion runs no nodeup: none. Pure but for
 * reading the template and this build's nodeup artifact description. `apiServerIps`: the boot config's
 * APIServerIPs (a worker of a cluster without DNS; placeholders of the internal API addresses).
 */
export function gceStartupScript(cluster: Cluster, ig: InstanceGroup, nodeupConfigHashes: Readonly<Record<string, string>>, apiServerIps: readonly string[] = []): string | undefined {
  if (ig.spec.role === 'Bastion') return undefined;
  const hash = nodeupConfigHashes[ig.metadata.name];
  if (!hash) throw new MissingModelInputError(`the sha256 of InstanceGroup/${ig.metadata.name}'s nodeupconfig.yaml (ModelInputs.nodeupConfigHashes["${ig.metadata.name}"])`);
  const configBase = cluster.spec.configBase;
  if (!configBase) throw new MissingModelInputError('spec.configBase (a completed spec)');
  return renderBootScript({
    cloud: 'gce',
    clusterName: cluster.metadata.name,
    configBase,
    instanceGroup: ig.metadata.name,
    role: normalizedRole(ig),
    nodeupConfigHash: hash,
    fileRepository: cluster.spec.assets?.fileRepository,
    apiServerIps,
  });
}
