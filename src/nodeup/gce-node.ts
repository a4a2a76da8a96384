import type { GceInstanceIdentity } from '../cloud/gce/gce-instance-identity';
import type { BootConfig } from './boot-config';
import { NodeupConfigError } from './nodeup-config-error';

/**
 * The name kops's nodeup uses for a GCE node: the machine's hostname (os.Hostname), which GCE's guest
 * environment sets to the first label of the instance's internal FQDN, i.e. the instance name; lowercased
 * as kubelet does. Read from the metadata server, so it is right before the guest agent has run. Pure.
 */
export function gceNodeName(identity: Pick<GceInstanceIdentity, 'hostname'>): string {
  return identity.hostname.split('.')[0].trim().toLowerCase();
}

/**
 * Fails unless the instance's metadata names the cluster and instance group its boot config names: a
 * template's attributes and its boot script are written together, so a mismatch is a copied script or an
 * instance of another cluster, and nothing is installed. Pure.
 */
export function checkGceNodeIdentity(boot: BootConfig, identity: GceInstanceIdentity, source: string): void {
  if (identity.clusterName !== boot.ClusterName || identity.instanceGroup !== boot.InstanceGroupName) {
    throw new NodeupConfigError(
      `${source}: the boot config is for instance group ${boot.InstanceGroupName} of cluster ${boot.ClusterName}, but instance ${identity.instanceName} (${identity.zone}) belongs to instance group ${identity.instanceGroup} of cluster ${identity.clusterName} (metadata kops-k8s-io-instance-group-name, cluster-name); nothing was installed`,
    );
  }
}
