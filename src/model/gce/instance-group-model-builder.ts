import type { Cluster, InstanceGroup } from '../../api/types';
import { GceInstanceGroupManagerTask } from '../../cloud/gce/tasks/gce-instance-group-manager-task';
import { GceInstanceTemplateTask } from '../../cloud/gce/tasks/gce-instance-template-task';
import type { GceNetworkTask } from '../../cloud/gce/tasks/gce-network-task';
import { GceServiceAccountTask } from '../../cloud/gce/tasks/gce-service-account-task';
import type { GceSubnetworkTask } from '../../cloud/gce/tasks/gce-subnetwork-task';
import { isControlPlane } from '../../expand/expand-context';
import { NotSupportedError } from '../../errors/not-supported-error';
import { GceNames } from './gce-names';
import { usesIpAliases } from './network-model-builder';

/** What the instance groups need beyond the spec: the SSH key, and each group's startup script when one is rendered. */
export interface GceInstanceGroupInputs {
  sshPublicKey?: { publicKey: string };
  /** The `user-data` of a group (the bootstrap contract); absent: no `user-data` item. */
  userData?: (ig: InstanceGroup) => string | undefined;
}

const SCOPE = (s: string): string => `https://www.googleapis.com/auth/${s}`;
// kops's scopes of every instance (compute-rw, monitoring, logging-write, cloud-platform), then storage.
const BASE_SCOPES = ['compute', 'monitoring', 'logging.write', 'cloud-platform'].map(SCOPE);

/** kops's SplitCountAcrossZones: `count` spread over the zones, the first zones taking the remainder. */
export function splitAcrossZones(count: number, zones: readonly string[]): Map<string, number> {
  const base = Math.floor(count / zones.length);
  return new Map(zones.map((z, i) => [z, base + (i < count - base * zones.length ? 1 : 0)]));
}

/** kops's gce.NameForInstanceGroupManager: `<zone letter>-<group>-<cluster>`, cut to 63 characters with a hash. */
export function migName(cluster: string, group: string, zone: string): string {
  return GceNames.truncate(GceNames.safeObject(`${zone.slice(zone.lastIndexOf('-') + 1)}.${group}`, cluster), 63);
}

/**
 * Per instance group an instance template and one zonal MIG per zone, as kops's AutoscalingGroupModelBuilder:
 * the template carries the image, machine type, boot disk, service account with kops's scopes, the role's
 * network tags, the labels (kops's and `cloudLabels`, sanitised for GCE), the metadata items and the
 * provisioning model; the MIGs split the group's minSize over its zones. Pure.
 */
export function buildGceInstanceGroupTasks(cluster: Cluster, instanceGroups: readonly InstanceGroup[], network: GceNetworkTask, subnetworks: readonly GceSubnetworkTask[], inputs: GceInstanceGroupInputs = {}): (GceServiceAccountTask | GceInstanceTemplateTask | GceInstanceGroupManagerTask)[] {
  const name = cluster.metadata.name;
  const spec = cluster.spec;
  const sharedAccount = spec.cloudConfig?.gceServiceAccount ?? (spec as { gceServiceAccount?: string }).gceServiceAccount;
  const startupScript = spec.cloudConfig?.gceUseStartupScript === true;
  const accounts = sharedAccount ? new Map<string, GceServiceAccountTask>() : buildServiceAccounts(cluster, instanceGroups);
  const tasks: (GceServiceAccountTask | GceInstanceTemplateTask | GceInstanceGroupManagerTask)[] = [...accounts.values()];
  for (const ig of [...instanceGroups].sort((a, b) => (a.metadata.name < b.metadata.name ? -1 : 1))) {
    const field = `InstanceGroup/${ig.metadata.name}`;
    const subnetName = ig.spec.subnets?.[0];
    const subnetSpec = (spec.subnets ?? []).find((s) => s.name === subnetName);
    const subnetwork = subnetworks[(spec.subnets ?? []).findIndex((s) => s.name === subnetName)];
    if (!subnetSpec || !subnetwork || (ig.spec.subnets?.length ?? 0) !== 1) throw new NotSupportedError(`${field}: spec.subnets: an instance group on GCE must name exactly one subnet of the cluster (kops: "has multiple subnets")`);
    const controlPlane = isControlPlane(ig);
    const role = controlPlane ? 'control-plane' : ig.spec.role === 'Bastion' ? 'bastion' : 'node';
    const image = ig.spec.image ?? '';
    const tags = controlPlane ? [GceNames.tagForRole(name, 'control-plane'), GceNames.tagForRole(name, 'master')] : [GceNames.tagForRole(name, role === 'bastion' ? 'bastion' : 'node')];
    const labels: Record<string, string> = {};
    // cloudLabels first, so kops's own labels win; GCE allows lowercase letters, digits, `_` and `-` only.
    for (const [k, v] of Object.entries(ig.spec.cloudLabels ?? {})) labels[sanitiseLabel(k)] = sanitiseLabel(String(v));
    Object.assign(labels, { 'k8s-io-cluster-name': GceNames.safeClusterName(name), 'k8s-io-instance-group': ig.metadata.name });
    if (controlPlane) Object.assign(labels, { 'k8s-io-role-control-plane': 'control-plane', 'k8s-io-role-master': 'master' });
    else labels[`k8s-io-role-${role}`] = role;
    const metadata: Record<string, string> = { 'cluster-name': name, 'kops-k8s-io-instance-group-name': ig.metadata.name };
    const userData = inputs.userData?.(ig);
    // kops's key: `user-data` (cloud-init), or `startup-script` with cloudConfig.gceUseStartupScript.
    if (userData !== undefined) metadata[startupScript ? 'startup-script' : 'user-data'] = userData;
    if (role === 'node') metadata['kube-env'] = `AUTOSCALER_ENV_VARS: os_distribution=${image.startsWith('cos-cloud/') ? 'cos' : 'ubuntu'};arch=amd64;os=linux`;
    if (inputs.sshPublicKey) metadata['ssh-keys'] = `${/^ubuntu/i.test(image.slice(image.lastIndexOf('/') + 1)) ? 'ubuntu' : 'admin'}: ${inputs.sshPublicKey.publicKey}`;
    const template = new GceInstanceTemplateTask(
      GceNames.safeObject(ig.metadata.name, name),
      {
        namePrefix: GceNames.truncate(GceNames.safeObject(ig.metadata.name, name), 32),
        machineType: ig.spec.machineType ?? '',
        image,
        bootDiskSizeGb: ig.spec.rootVolumeSize ?? (controlPlane ? 64 : 128),
        bootDiskType: ig.spec.rootVolumeType ?? 'pd-standard',
        serviceAccountEmail: sharedAccount,
        // The control plane writes etcd backups to the store and publishes DNS records.
        scopes: [...BASE_SCOPES, ...(controlPlane ? [SCOPE('devstorage.read_write'), SCOPE('ndev.clouddns.readwrite')] : [SCOPE('devstorage.read_only')])],
        tags,
        labels,
        metadata,
        canIpForward: !usesIpAliases(cluster),
        externalIp: ig.spec.associatePublicIp ?? (subnetSpec.type === 'Public' || subnetSpec.type === 'Utility' || role === 'bastion'),
        provisioningModel: ig.spec.gcpProvisioningModel ?? 'STANDARD',
        stackType: 'IPV4_ONLY',
      },
      network,
      subnetwork,
      accounts.get(role),
    );
    tasks.push(template);
    const zones = ig.spec.zones ?? [];
    if (zones.length === 0) throw new NotSupportedError(`${field}: spec.zones: an instance group on GCE needs at least one zone`);
    const minSize = ig.spec.minSize ?? (role === 'node' ? 2 : 1);
    for (const [zone, size] of splitAcrossZones(minSize, zones)) {
      tasks.push(new GceInstanceGroupManagerTask(migName(name, ig.metadata.name, zone), { zone, targetSize: size, baseInstanceName: ig.metadata.name }, template));
    }
  }
  return tasks;
}

const ACCOUNT_DESCRIPTION = { 'control-plane': 'kubernetes control-plane instances', node: 'kubernetes worker nodes', bastion: 'bastion nodes' } as const;

/**
 * kops's service accounts when the spec names none: one per role present, its id `<role>-<cluster>` cut to 30
 * characters with a hash; the control plane's is bound to `roles/container.serviceAgent` in the project.
 */
function buildServiceAccounts(cluster: Cluster, instanceGroups: readonly InstanceGroup[]): Map<string, GceServiceAccountTask> {
  const roles = new Set(instanceGroups.map((ig) => (isControlPlane(ig) ? 'control-plane' : ig.spec.role === 'Bastion' ? 'bastion' : 'node')));
  const accounts = new Map<string, GceServiceAccountTask>();
  for (const role of (['control-plane', 'node', 'bastion'] as const).filter((r) => roles.has(r))) {
    const accountId = GceNames.clusterSuffixed(role, cluster.metadata.name, 30);
    accounts.set(role, new GceServiceAccountTask(role, { accountId, project: cluster.spec.project ?? '', description: ACCOUNT_DESCRIPTION[role], displayName: role }, role === 'control-plane' ? ['roles/container.serviceAgent'] : []));
  }
  return accounts;
}

/** A GCE label key or value: lowercase; characters other than letters, digits, `_` and `-` become `_`; at most 63. */
function sanitiseLabel(s: string): string {
  return s.toLowerCase().replace(/[^a-z0-9_-]/g, '_').slice(0, 63);
}
