import type { AwsCloud } from '../aws-cloud';
import { AWS_PAGE_SIZE } from '../aws-page-size';
import { allPages } from './all-pages';
import type { ClusterResource } from './cluster-resource';
import { classifyAwsError } from '../aws-errors';
import { ownedByCluster } from '../owned-by-cluster';

/**
 * The cluster's Auto Scaling groups: DescribeAutoScalingGroups filtered by both cluster tags (checked
 * again on the answer). Deleting one is ForceDelete (its instances are terminated with it), then waiting
 * until the group is gone and no instance it launched is still alive, since those instances hold the
 * subnets, security groups and volumes the later rounds delete.
 */
export async function listAutoScalingGroups(cloud: AwsCloud): Promise<ClusterResource[]> {
  const { sdk, client } = await cloud.autoScaling();
  const cluster = cloud.clusterName;
  const filters = [
    { Name: 'tag:KubernetesCluster', Values: [cluster] },
    { Name: `tag:kubernetes.io/cluster/${cluster}`, Values: ['owned'] },
  ];
  const groups = await allPages((NextToken) => client.send(new sdk.DescribeAutoScalingGroupsCommand({ Filters: filters, MaxRecords: AWS_PAGE_SIZE.DescribeAutoScalingGroups, NextToken })).then((o) => [o.AutoScalingGroups, o.NextToken] as const));
  const out: ClusterResource[] = [];
  for (const g of groups) {
    const groupName = g.AutoScalingGroupName;
    if (!groupName || !ownedByCluster(g.Tags?.map((t) => ({ Key: t.Key, Value: t.Value })), cluster)) continue;
    let started = g.Status !== undefined && g.Status.startsWith('Delete');
    out.push({
      type: 'autoscaling-group',
      name: groupName,
      id: groupName,
      dependsOn: [],
      delete: async () => {
        if (!started) {
          const exists = ((await client.send(new sdk.DescribeAutoScalingGroupsCommand({ AutoScalingGroupNames: [groupName] }))).AutoScalingGroups ?? []).length > 0;
          // Auto Scaling answers a missing group with a generic ValidationError: ask first instead of guessing from it.
          // Only the group's own absence (the Describe below) says it is gone: a not-found answer to the delete
          // may name something else (moto answers TargetGroupNotFound when the group's target group went first).
          const accepted = !exists || (await client.send(new sdk.DeleteAutoScalingGroupCommand({ AutoScalingGroupName: groupName, ForceDelete: true })).then(
            () => true,
            (e: unknown) => {
              if (classifyAwsError(e) !== 'not-found') throw e;
              return false;
            },
          ));
          if (accepted) started = true;
        }
        if (((await client.send(new sdk.DescribeAutoScalingGroupsCommand({ AutoScalingGroupNames: [groupName] }))).AutoScalingGroups ?? []).length > 0) return 'pending';
        const ec2 = await cloud.ec2();
        const alive = await ec2.client.send(
          new ec2.sdk.DescribeInstancesCommand({
            Filters: [
              { Name: 'tag:aws:autoscaling:groupName', Values: [groupName] },
              { Name: 'instance-state-name', Values: ['pending', 'running', 'stopping', 'stopped', 'shutting-down'] },
            ],
          }),
        );
        return (alive.Reservations ?? []).some((r) => (r.Instances ?? []).length > 0) ? 'pending' : 'deleted';
      },
    });
  }
  return out;
}
