import { AWS_LIFECYCLE_KINDS } from './aws-lifecycle-kinds';
import type { Cluster, InstanceGroup } from '../../api/types';
import { controlPlaneIamName, nodeGroupIamName } from '../../model/aws/iam-names';
import type { CloudProvider, DeleteTarget } from '../cloud-provider';
import type { AwsCloud } from './aws-cloud';
import type { SharedResourceIds } from './cluster-resources/list-shared-resources';
import type { OrphanedResource } from './orphaned-resources';

/** Where a cluster's AWS resources are, for `delete cluster`. */
export interface AwsDeleteTarget extends DeleteTarget {
  cloud: AwsCloud;
  /** `spec.dnsZone`, where the cluster's `api` records are. */
  dnsZone?: string;
  /** The IAM role and profile names the model gives the cluster and its node groups. */
  iamNames: string[];
  /** The existing resources the spec names (shared VPC, subnets, NAT gateways, overrides): never deleted. */
  sharedIds: SharedResourceIds;
}

/** The spec's existing resources: never deleted, only their `shared` tag removed. */
function sharedIdsOf(cluster: Cluster, groups: readonly InstanceGroup[]): SharedResourceIds {
  const spec = cluster.spec ?? {};
  const present = (xs: Array<string | undefined>): string[] => [...new Set(xs.filter((x): x is string => !!x))].sort();
  return {
    vpc: spec.networkID,
    subnets: present((spec.subnets ?? []).map((s) => s.id)),
    natGateways: present((spec.subnets ?? []).map((s) => (s.egress?.startsWith('nat-') ? s.egress : undefined))),
    securityGroups: present(groups.map((ig) => ig.spec.securityGroupOverride)),
    instanceProfiles: present(groups.map((ig) => ig.spec.iam?.profile)),
  };
}

/**
 * AWS behind the cloud seam: each method is the AWS code the ops called directly before, loaded on first use
 * (this module imports no SDK), so AWS behaviour and API calls are what they were.
 */
export const awsCloudProvider: CloudProvider<AwsCloud, AwsDeleteTarget> = {
  name: 'aws',
  lifecycleKinds: AWS_LIFECYCLE_KINDS,
  async connect(cluster, options) {
    const { connectAwsCloud } = await import('./connect-aws-cloud');
    return connectAwsCloud(cluster, options);
  },
  async preflight(cloud, completed, instanceGroups) {
    const { awsPreflight } = await import('./aws-preflight');
    await awsPreflight(cloud, completed, instanceGroups);
  },
  async buildTasks(completed, instanceGroups, inputs) {
    const { buildAwsTasks } = await import('../../model/aws/aws-model-builder');
    return buildAwsTasks(completed, [...instanceGroups], inputs);
  },
  async executor(cloud, tasks, options) {
    const { awsTaskExecutor } = await import('./aws-task-executor');
    const { classifyAwsError } = await import('./aws-errors');
    return awsTaskExecutor(cloud, tasks, { ...options, isAccessDenied: (e) => classifyAwsError(e) === 'access-denied' });
  },
  duplicateNames(cloud) {
    return cloud.inventory.duplicateNames();
  },
  async prepareTerraform(cloud, tasks) {
    const { LaunchTemplateTask } = await import('./tasks/launch-template-task');
    for (const t of tasks) if (t instanceof LaunchTemplateTask) await t.resolveImage(cloud);
    // The control plane's policy names the hosted zone by id, which a zone given by name has only in AWS.
    const { IamRolePolicyTask } = await import('./tasks/iam-role-policy-task');
    for (const t of tasks) if (t instanceof IamRolePolicyTask) await t.resolveHostedZone(cloud);
    // The node-termination-handler's queue policy names the queue's ARN, which holds the account (STS).
    const { SqsQueueTask } = await import('./tasks/sqs-queue-task');
    for (const t of tasks) if (t instanceof SqsQueueTask) await t.resolveAccount(cloud);
  },
  async renderTerraform(cluster, cloud, tasks) {
    const { renderTerraformOutput } = await import('../../targets/terraform/render-terraform');
    return renderTerraformOutput(cluster, cloud.region, tasks);
  },
  async findOrphans(cloud, tasks) {
    const { findOrphanedResources } = await import('./orphaned-resources');
    // Read-only, and outside the executor's retries (which drop the inventory): throttling here is retried too.
    const { withAwsRetries } = await import('./with-aws-retries');
    return withAwsRetries(() => findOrphanedResources(cloud, tasks));
  },
  async deleteOrphans(cloud, orphans) {
    const { deleteOrphanedResources } = await import('./orphaned-resources');
    await deleteOrphanedResources(cloud, orphans as readonly OrphanedResource[]);
  },
  async deleteInstanceGroup(cloud, cluster, group, name) {
    const { deleteNamedResources } = await import('./orphaned-resources');
    const c = cluster.metadata.name;
    const wanted: OrphanedResource[] = [
      { kind: 'AutoScalingGroup', name: `${name}.${c}` },
      { kind: 'LaunchTemplate', name: `${name}.${c}` },
    ];
    // A node group has a role and profile of its own (unless it names an existing profile); others share theirs.
    if (group?.spec.role === 'Node' && !group.spec.iam?.profile) wanted.push({ kind: 'IAMInstanceProfile', name: nodeGroupIamName(name, c) }, { kind: 'IAMRole', name: nodeGroupIamName(name, c) });
    const deleted = await deleteNamedResources(cloud, wanted);
    return deleted.map((r) => `${r.type} ${r.name}`).sort();
  },
  async deleteTarget(cluster, instanceGroups, env) {
    const { connectAwsCloud } = await import('./connect-aws-cloud');
    const name = cluster.metadata.name;
    const aws = await connectAwsCloud(cluster, { env, consequence: '; nothing was deleted (--unregister deletes the state only)' });
    // A group with its own profile (spec.iam.profile) has no kforge role or profile to look for.
    const iamNames = [controlPlaneIamName(name), ...instanceGroups.filter((ig) => ig.spec.role === 'Node' && !ig.spec.iam?.profile).map((ig) => nodeGroupIamName(ig.metadata.name, name))];
    return { cloud: aws, dnsZone: cluster.spec?.dnsZone, iamNames, sharedIds: sharedIdsOf(cluster, instanceGroups) };
  },
  async listClusterResources(target) {
    const { listClusterResources } = await import('./cluster-resources/list-cluster-resources');
    return listClusterResources(target.cloud, { dnsZone: target.dnsZone, iamNames: target.iamNames });
  },
  async listSharedResources(target) {
    const { listSharedResources } = await import('./cluster-resources/list-shared-resources');
    const { withAwsRetries } = await import('./with-aws-retries');
    return withAwsRetries(() => listSharedResources(target.cloud, target.sharedIds));
  },
  async deleteResources(resources, options) {
    const { deleteInRounds } = await import('./cluster-resources/delete-in-rounds');
    await deleteInRounds(resources, options);
  },
  async untagShared(resource) {
    // DeleteTags is idempotent: throttling or a dropped connection is simply retried.
    const { withAwsRetries } = await import('./with-aws-retries');
    return withAwsRetries(() => resource.untag());
  },
  async apiLoadBalancerDnsName(cloud, cluster) {
    const { findApiLoadBalancerDnsName } = await import('./find-api-load-balancer-dns-name');
    return findApiLoadBalancerDnsName(cloud, cluster);
  },
  machines(cloud) {
    return {
      instances: async () => (await import('./cluster-instances')).describeClusterInstances(cloud),
      consoleOutput: async (id) => (await import('./cluster-instances')).instanceConsoleOutput(cloud, id),
    };
  },
  async rollingUpdateCloud(cloud) {
    const { awsRollingUpdateCloud } = await import('./aws-rolling-update-cloud');
    return awsRollingUpdateCloud(cloud);
  },
  async findDnsZone(cloud, name, privateZone) {
    const { findDnsHostedZone } = await import('./find-dns-hosted-zone');
    return findDnsHostedZone(cloud, name, privateZone);
  },
};
