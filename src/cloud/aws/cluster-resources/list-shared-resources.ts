import type { Tag } from '@aws-sdk/client-ec2';
import type { AwsCloud } from '../aws-cloud';
import { AWS_PAGE_SIZE } from '../aws-page-size';
import { allPages } from './all-pages';
import { classifyAwsError } from '../aws-errors';
import { ignoreNotFound } from './ignore-not-found';

/** A resource the cluster used but does not own: `delete cluster` leaves it alone and reports it. */
export interface SharedClusterResource {
  /** Kind, as in the delete listing: `vpc`, `subnet`, `nat-gateway`, `security-group`, `iam-instance-profile`. */
  type: string;
  /** The `Name` tag, else the id. */
  name: string;
  id: string;
  /** Whether it carries `kubernetes.io/cluster/<cluster>=shared`, which `untag` removes (nothing else is touched). */
  tagged: boolean;
  /** Removes the cluster's `shared` tag (only that key); resolves whether it removed it (false when untagged, gone or denied). */
  untag(): Promise<boolean>;
}

/** What the spec names as existing resources (`spec.networkID`, `subnets[].id`, `egress: nat-…`, overrides). */
export interface SharedResourceIds {
  vpc?: string;
  subnets?: readonly string[];
  natGateways?: readonly string[];
  securityGroups?: readonly string[];
  /** Instance profile ARNs (`spec.iam.profile`). */
  instanceProfiles?: readonly string[];
}

/**
 * The shared resources of a cluster: every VPC and subnet tagged `kubernetes.io/cluster/<cluster>=shared`
 * (one filtered Describe each), and the ids the spec names whether tagged or not. Reported by `delete
 * cluster`, never deleted: only the cluster's `shared` tag is removed, as kops does. Sorted by type, name, id.
 */
export async function listSharedResources(cloud: AwsCloud, ids: SharedResourceIds = {}): Promise<SharedClusterResource[]> {
  const { sdk, client } = await cloud.ec2();
  const key = `kubernetes.io/cluster/${cloud.clusterName}`;
  const filters = [{ Name: `tag:${key}`, Values: ['shared'] }];
  const [vpcs, subnets] = await Promise.all([
    allPages((NextToken) => client.send(new sdk.DescribeVpcsCommand({ Filters: filters, MaxResults: AWS_PAGE_SIZE.DescribeVpcs, NextToken })).then((o) => [o.Vpcs, o.NextToken] as const)),
    allPages((NextToken) => client.send(new sdk.DescribeSubnetsCommand({ Filters: filters, MaxResults: AWS_PAGE_SIZE.DescribeSubnets, NextToken })).then((o) => [o.Subnets, o.NextToken] as const)),
  ]);
  const name = (tags: Tag[] | undefined, id: string) => tags?.find((t) => t.Key === 'Name')?.Value ?? id;
  const isShared = (tags: Tag[] | undefined) => tags?.some((t) => t.Key === key && t.Value === 'shared') === true;
  const out = new Map<string, SharedClusterResource>();
  const add = (type: string, id: string, tags: Tag[] | undefined): void => {
    const tagged = isShared(tags);
    out.set(id, {
      type,
      name: name(tags, id),
      id,
      tagged,
      // DeleteTags with the value too: a tag someone changed to another value is theirs now. Gone already, or
      // no longer ours to untag (access denied): the resource is left as it is, and the delete goes on.
      untag: async () => {
        if (!tagged) return false;
        return client.send(new sdk.DeleteTagsCommand({ Resources: [id], Tags: [{ Key: key, Value: 'shared' }] })).then(
          () => true,
          (e: unknown) => {
            if (classifyAwsError(e) !== 'access-denied') ignoreNotFound(e);
            return false;
          },
        );
      },
    });
  };
  for (const v of vpcs) if (v.VpcId && isShared(v.Tags)) add('vpc', v.VpcId, v.Tags);
  for (const s of subnets) if (s.SubnetId && isShared(s.Tags)) add('subnet', s.SubnetId, s.Tags);
  // The ones the spec names but the listing did not give (untagged, or tagging was not allowed): reported only.
  const untagged = (type: string, list: readonly string[] | undefined) => {
    for (const id of list ?? []) if (!out.has(id)) out.set(id, { type, name: id, id, tagged: false, untag: async () => false });
  };
  untagged('vpc', ids.vpc ? [ids.vpc] : []);
  untagged('subnet', ids.subnets);
  untagged('nat-gateway', ids.natGateways);
  untagged('security-group', ids.securityGroups);
  untagged('iam-instance-profile', ids.instanceProfiles);
  const cmp = (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0);
  return [...out.values()].sort((a, b) => cmp(a.type, b.type) || cmp(a.name, b.name) || cmp(a.id, b.id));
}
