import { UsageError } from '../../errors/usage-error';
import type { CloudProvider } from '../cloud-provider';
import { GceCloud } from './gce-cloud';
import { GCE_LIFECYCLE_KINDS } from './gce-lifecycle-kinds';
import type { GceDeleteTarget } from './gce-cluster-resources';

/**
 * GCE behind the cloud seam. Built: the model (network, Cloud NAT, firewall rules, service accounts, etcd
 * disks, instance templates, MIGs), its Terraform with the Google provider, direct apply and delete through
 * the Compute API, and the day-2 readers and actions (machines, rolling update, delete instancegroup, the
 * API's address; see docs/gce.md). Connecting makes no call: the Terraform target needs no credentials.
 */
export const gceCloudProvider: CloudProvider<GceCloud, GceDeleteTarget> = {
  name: 'gce',
  lifecycleKinds: GCE_LIFECYCLE_KINDS,
  async connect(cluster, options) {
    const project = cluster.spec?.project;
    const regions = [...new Set((cluster.spec?.subnets ?? []).map((s) => s.region).filter((r): r is string => !!r))];
    if (!project) throw new UsageError(`cluster "${cluster.metadata.name}": spec.project is required on GCE (create cluster --project)`);
    if (regions.length !== 1) throw new UsageError(`cluster "${cluster.metadata.name}": cannot tell the GCE region: spec.subnets[].region name ${regions.length === 0 ? 'none' : regions.join(', ')}`);
    const zones = [...new Set((cluster.spec?.subnets ?? []).flatMap((s) => (s.zone ? [s.zone] : [])))].sort();
    const cloud = new GceCloud(cluster.metadata.name, project, regions[0], zones, options.env ?? process.env);
    cloud.clusterUid = options.clusterUid;
    return cloud;
  },
  async preflight() {
    // Images, machine types and zones are checked by the Compute API on apply; the Terraform target needs nothing here.
  },
  async buildTasks(completed, instanceGroups, inputs) {
    const { buildGceTasks } = await import('../../model/gce/gce-model-builder');
    const { gceStartupScript } = await import('../../model/gce/gce-startup-script');
    const { gceWorkerApiAddressNames } = await import('../../model/gce/api-load-balancer-model-builder');
    const { gceAddressPlaceholder } = await import('./tasks/gce-address-task');
    // A worker of a cluster without DNS names the internal API addresses, filled in once they exist.
    const apiServerIps = gceWorkerApiAddressNames(completed, instanceGroups).map(gceAddressPlaceholder);
    return buildGceTasks(completed, instanceGroups, { sshPublicKey: inputs.sshPublicKey, userData: (ig) => gceStartupScript(completed, ig, inputs.nodeupConfigHashes, ig.spec.role === 'Node' ? apiServerIps : [], inputs.kopsControllerCa) });
  },
  async executor(cloud, tasks, options) {
    await cloud.connectCompute();
    const { gceTaskExecutor } = await import('./gce-task-executor');
    return gceTaskExecutor(cloud, tasks, options);
  },
  duplicateNames() {
    return [];
  },
  async prepareTerraform() {
    // Images are named by project/family in the spec and rendered as URLs: nothing to resolve.
  },
  async renderTerraform(cluster, cloud, tasks) {
    const { TerraformWriter } = await import('../../targets/terraform/terraform-writer');
    const writer = new TerraformWriter(cloud.region, { project: cloud.project });
    writer.renderTasks(tasks);
    // kops's outputs of a GCE cluster.
    writer.addOutput('cluster_name', cluster);
    writer.addOutput('project', cloud.project);
    writer.addOutput('region', cloud.region);
    return { files: writer.files(), resources: writer.addresses() };
  },
  async findOrphans(cloud, tasks) {
    const { findGceOrphans } = await import('./gce-orphans');
    return findGceOrphans(cloud, tasks);
  },
  async deleteOrphans(cloud, orphans) {
    const { deleteGceOrphans } = await import('./gce-orphans');
    await deleteGceOrphans(cloud, orphans);
  },
  async deleteInstanceGroup(cloud, cluster, group, name) {
    const { deleteGceInstanceGroup } = await import('./gce-delete-instance-group');
    return deleteGceInstanceGroup(cloud, cluster, group, name);
  },
  async deleteTarget(cluster, instanceGroups, env) {
    const cloud = await gceCloudProvider.connect(cluster, { env });
    await cloud.connectCompute();
    const { gceDeleteTarget } = await import('./gce-cluster-resources');
    return gceDeleteTarget(cloud, cluster, instanceGroups);
  },
  async listClusterResources(target) {
    const { listGceClusterResources } = await import('./gce-cluster-resources');
    return listGceClusterResources(target);
  },
  async listSharedResources() {
    // GCE resources carry no cluster tag to remove: a shared network and subnetworks are simply left alone.
    return [];
  },
  async deleteResources(resources, options) {
    const { deleteInRounds } = await import('../aws/cluster-resources/delete-in-rounds');
    await deleteInRounds(resources, options);
  },
  async untagShared() {
    return false;
  },
  machines(cloud) {
    // The zone of each instance at the last read: the serial console is read per zone.
    const zones = new Map<string, string>();
    return {
      async instances() {
        const found = await (await import('./gce-cluster-groups')).gceClusterInstances(cloud);
        for (const i of found.instances) if (i.zone) zones.set(i.instanceId, i.zone);
        return found;
      },
      async consoleOutput(instance) {
        const compute = await cloud.connectCompute();
        return compute.serialPortOutput(zones.get(instance) ?? cloud.zones[0], instance);
      },
    };
  },
  async rollingUpdateCloud(cloud) {
    const { gceRollingUpdateCloud } = await import('./gce-rolling-update-cloud');
    return gceRollingUpdateCloud(cloud);
  },
  async apiLoadBalancerDnsName(cloud) {
    // An IP address on GCE (kops's ingress IP): a forwarding rule has no DNS name.
    const { findGceApiAddress } = await import('./gce-api-address');
    return findGceApiAddress(cloud);
  },
  async findDnsZone(cloud, name, privateZone) {
    const { findGceDnsZone } = await import('./gce-dns-zones');
    return findGceDnsZone(await cloud.connectDns(), cloud.project, name, privateZone);
  },
};
