import type { Cluster, InstanceGroup } from '../../api/types';
import { normalizedRole } from '../../expand/expand-context';
import { clusterRegion, configServerUrl, configServerViaLoadBalancer, groupUsesConfigServer } from '../config-server';
import { MissingModelInputError } from '../missing-model-input-error';
import { renderBootScript } from '../render-boot-script';

/**
 * The boot script of a GCE instance group (metadata `user-data`, or `startup-script` with
 * cloudConfig.gceUseStartupScript, as kops): the same script and boot-config contract as AWS user-data, with
 * GCE's parts (the metadata server's token, `gs://` reads). A bastion runs no nodeup: none. Pure but for
 * reading the template and this build's nodeup artifact description. `apiServerIps`: the boot config's
 * APIServerIPs (a worker of a cluster without DNS; placeholders of the internal API addresses).
 * `kopsControllerCa`: the kops-controller-ca bundle (public) a worker of a ConfigServer cluster
 * (src/model/config-server.ts) pins the node-identity service to; such a worker's boot config names the service,
 * not the store (kops's ConfigServer), reached without DNS at the first internal API address (its 3988 rule).
 */
export function gceStartupScript(cluster: Cluster, ig: InstanceGroup, nodeupConfigHashes: Readonly<Record<string, string>>, apiServerIps: readonly string[] = [], kopsControllerCa?: string): string | undefined {
  if (ig.spec.role === 'Bastion') return undefined;
  const hash = nodeupConfigHashes[ig.metadata.name];
  if (!hash) throw new MissingModelInputError(`the sha256 of InstanceGroup/${ig.metadata.name}'s nodeupconfig.yaml (ModelInputs.nodeupConfigHashes["${ig.metadata.name}"])`);
  const configBase = cluster.spec.configBase;
  if (!configBase) throw new MissingModelInputError('spec.configBase (a completed spec)');
  let configServer;
  if (groupUsesConfigServer(cluster, ig)) {
    if (!kopsControllerCa) throw new MissingModelInputError(`the kops-controller-ca certificate for InstanceGroup/${ig.metadata.name}'s startup script (ModelInputs.kopsControllerCa)`);
    const region = clusterRegion(cluster);
    if (!region) throw new MissingModelInputError('spec.subnets[].region (a completed spec)');
    const via = configServerViaLoadBalancer(cluster) ? apiServerIps[0] : undefined;
    if (configServerViaLoadBalancer(cluster) && via === undefined) throw new MissingModelInputError(`the internal API addresses of InstanceGroup/${ig.metadata.name}'s startup script (APIServerIPs): a worker of a cluster without DNS reaches the node-identity service there`);
    configServer = { servers: [configServerUrl(cluster.metadata.name)], caCertificates: kopsControllerCa, region, via };
  }
  return renderBootScript({
    cloud: 'gce',
    clusterName: cluster.metadata.name,
    configBase,
    instanceGroup: ig.metadata.name,
    role: normalizedRole(ig),
    nodeupConfigHash: hash,
    fileRepository: cluster.spec.assets?.fileRepository,
    apiServerIps,
    configServer,
  });
}
