import type { AwsCloud } from '../aws-cloud';
import { AWS_PAGE_SIZE } from '../aws-page-size';
import { allPages } from './all-pages';
import type { ClusterResource } from './cluster-resource';
import { ownedByCluster } from '../owned-by-cluster';

// DescribeTags takes at most 20 ARNs.
const TAG_BATCH = 20;

/**
 * The cluster's load balancers (with their listeners) and target groups. ELBv2 has no tag filter: every
 * load balancer and target group of the region is listed (paged), then their tags are read 20 ARNs per
 * DescribeTags call, and only those with both cluster tags are kept. Listeners are not tagged; they are the
 * cluster's when their load balancer is.
 */
export async function listLoadBalancerResources(cloud: AwsCloud): Promise<ClusterResource[]> {
  const { sdk, client } = await cloud.elbv2();
  const cluster = cloud.clusterName;
  const [balancers, targetGroups] = await Promise.all([
    allPages((Marker) => client.send(new sdk.DescribeLoadBalancersCommand({ PageSize: AWS_PAGE_SIZE.DescribeLoadBalancers, Marker })).then((o) => [o.LoadBalancers, o.NextMarker] as const)),
    allPages((Marker) => client.send(new sdk.DescribeTargetGroupsCommand({ PageSize: AWS_PAGE_SIZE.DescribeTargetGroups, Marker })).then((o) => [o.TargetGroups, o.NextMarker] as const)),
  ]);
  const arns = [...balancers.map((b) => b.LoadBalancerArn), ...targetGroups.map((t) => t.TargetGroupArn)].filter((a): a is string => a !== undefined);
  const owned = new Set<string>();
  for (let i = 0; i < arns.length; i += TAG_BATCH) {
    const tags = await client.send(new sdk.DescribeTagsCommand({ ResourceArns: arns.slice(i, i + TAG_BATCH) }));
    for (const d of tags.TagDescriptions ?? []) if (d.ResourceArn && ownedByCluster(d.Tags, cluster)) owned.add(d.ResourceArn);
  }

  const out: ClusterResource[] = [];
  const ours = balancers.filter((b) => b.LoadBalancerArn && owned.has(b.LoadBalancerArn));
  const listeners = await Promise.all(
    ours.map((b) => allPages((Marker) => client.send(new sdk.DescribeListenersCommand({ LoadBalancerArn: b.LoadBalancerArn, PageSize: AWS_PAGE_SIZE.DescribeListeners, Marker })).then((o) => [o.Listeners, o.NextMarker] as const))),
  );
  ours.forEach((b, i) => {
    const arn = b.LoadBalancerArn as string;
    for (const l of listeners[i]) {
      const listenerArn = l.ListenerArn;
      if (!listenerArn) continue;
      out.push({
        type: 'load-balancer-listener',
        name: `${b.LoadBalancerName ?? arn}:${l.Port ?? ''}`,
        id: listenerArn,
        dependsOn: [],
        delete: () => client.send(new sdk.DeleteListenerCommand({ ListenerArn: listenerArn })).then(() => 'deleted'),
      });
    }
    out.push({
      type: 'load-balancer',
      name: b.LoadBalancerName ?? arn,
      id: arn,
      dependsOn: [],
      delete: async () => {
        await client.send(new sdk.DeleteLoadBalancerCommand({ LoadBalancerArn: arn }));
        // The network interfaces of a deleted NLB linger a little; they block the subnets and groups, whose
        // deletion then fails with DependencyViolation and is retried in a later round.
        return 'deleted';
      },
    });
  });
  for (const t of targetGroups) {
    const arn = t.TargetGroupArn;
    if (!arn || !owned.has(arn)) continue;
    // A target group behind a listener fails with ResourceInUse: retried in a later round.
    out.push({ type: 'target-group', name: t.TargetGroupName ?? arn, id: arn, dependsOn: [], delete: () => client.send(new sdk.DeleteTargetGroupCommand({ TargetGroupArn: arn })).then(() => 'deleted') });
  }
  return out;
}
