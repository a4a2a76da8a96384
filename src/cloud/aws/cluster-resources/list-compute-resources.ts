import type { Tag } from '@aws-sdk/client-ec2';
import type { AwsCloud } from '../aws-cloud';
import { AWS_PAGE_SIZE } from '../aws-page-size';
import { allPages } from './all-pages';
import type { ClusterResource } from './cluster-resource';
import { ownedByCluster } from '../owned-by-cluster';

// Instances in these states still hold their network interfaces, volumes and addresses.
const LIVE_STATES = ['pending', 'running', 'stopping', 'stopped', 'shutting-down'];

/**
 * The cluster's instances (not yet terminated), EBS volumes, key pairs and launch templates: one
 * tag-filtered Describe per kind. An instance launched by an Auto Scaling group records the group's name,
 * so listClusterResources can make it wait for its group (terminating it first would only make the group
 * launch a replacement).
 */
export async function listComputeResources(cloud: AwsCloud): Promise<Array<ClusterResource & { autoScalingGroup?: string }>> {
  const { sdk, client } = await cloud.ec2();
  const filters = cloud.inventory.clusterFilters();
  const cluster = cloud.clusterName;
  const name = (tags: Tag[] | undefined, id: string) => tags?.find((t) => t.Key === 'Name')?.Value ?? id;

  const [reservations, volumes, keyPairs, templates] = await Promise.all([
    allPages((NextToken) =>
      client.send(new sdk.DescribeInstancesCommand({ Filters: [...filters, { Name: 'instance-state-name', Values: LIVE_STATES }], MaxResults: AWS_PAGE_SIZE.DescribeInstances, NextToken })).then((o) => [o.Reservations, o.NextToken] as const),
    ),
    allPages((NextToken) => client.send(new sdk.DescribeVolumesCommand({ Filters: filters, MaxResults: AWS_PAGE_SIZE.DescribeVolumes, NextToken })).then((o) => [o.Volumes, o.NextToken] as const)),
    client.send(new sdk.DescribeKeyPairsCommand({ Filters: filters })).then((o) => o.KeyPairs ?? []),
    allPages((NextToken) => client.send(new sdk.DescribeLaunchTemplatesCommand({ Filters: filters, MaxResults: AWS_PAGE_SIZE.DescribeLaunchTemplates, NextToken })).then((o) => [o.LaunchTemplates, o.NextToken] as const)),
  ]);

  const out: Array<ClusterResource & { autoScalingGroup?: string }> = [];
  for (const i of reservations.flatMap((r) => r.Instances ?? [])) {
    if (!i.InstanceId || !ownedByCluster(i.Tags, cluster)) continue;
    const id = i.InstanceId;
    let terminating = i.State?.Name === 'shutting-down';
    out.push({
      type: 'instance',
      name: name(i.Tags, id),
      id,
      dependsOn: [],
      autoScalingGroup: i.Tags?.find((t) => t.Key === 'aws:autoscaling:groupName')?.Value,
      delete: async () => {
        if (!terminating) {
          await client.send(new sdk.TerminateInstancesCommand({ InstanceIds: [id] }));
          terminating = true;
        }
        // Until it is terminated it holds its interfaces (security groups, subnet) and volumes.
        const state = (await client.send(new sdk.DescribeInstancesCommand({ InstanceIds: [id] }))).Reservations?.[0]?.Instances?.[0]?.State?.Name;
        return state === undefined || state === 'terminated' ? 'deleted' : 'pending';
      },
    });
  }
  for (const v of volumes) {
    if (!v.VolumeId || !ownedByCluster(v.Tags, cluster)) continue;
    const id = v.VolumeId;
    // An attached volume fails with VolumeInUse until its instance is gone: retried in a later round.
    out.push({ type: 'volume', name: name(v.Tags, id), id, dependsOn: [], delete: () => client.send(new sdk.DeleteVolumeCommand({ VolumeId: id })).then(() => 'deleted') });
  }
  for (const k of keyPairs) {
    if (!k.KeyPairId || !k.KeyName || !ownedByCluster(k.Tags, cluster)) continue;
    const keyName = k.KeyName;
    // By name: AWS takes either, but moto 5.2 ignores KeyPairId and answers success without deleting.
    out.push({ type: 'keypair', name: keyName, id: k.KeyPairId, dependsOn: [], delete: () => client.send(new sdk.DeleteKeyPairCommand({ KeyName: keyName })).then(() => 'deleted') });
  }
  for (const t of templates) {
    if (!t.LaunchTemplateId || !ownedByCluster(t.Tags, cluster)) continue;
    const id = t.LaunchTemplateId;
    out.push({
      type: 'launch-template',
      name: t.LaunchTemplateName ?? id,
      id,
      dependsOn: [],
      delete: () => client.send(new sdk.DeleteLaunchTemplateCommand({ LaunchTemplateId: id })).then(() => 'deleted'),
    });
  }
  return out;
}
