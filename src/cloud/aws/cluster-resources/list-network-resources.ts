import type { IpPermission, Tag } from '@aws-sdk/client-ec2';
import type { AwsCloud } from '../aws-cloud';
import { AWS_PAGE_SIZE } from '../aws-page-size';
import { allPages } from './all-pages';
import type { ClusterResource } from './cluster-resource';
import { ignoreNotFound } from './ignore-not-found';
import { ownedByCluster } from '../owned-by-cluster';

/**
 * The cluster's VPC, subnets, internet gateways, route tables, security groups, Elastic IPs and NAT
 * gateways: one tag-filtered Describe per kind (paged), each result checked for both cluster tags.
 * Dependencies between kinds are added by listClusterResources.
 */
export async function listNetworkResources(cloud: AwsCloud): Promise<ClusterResource[]> {
  const { sdk, client } = await cloud.ec2();
  const filters = cloud.inventory.clusterFilters();
  const cluster = cloud.clusterName;
  const name = (tags: Tag[] | undefined, id: string) => tags?.find((t) => t.Key === 'Name')?.Value ?? id;
  const out: ClusterResource[] = [];

  const [vpcs, subnets, igws, tables, groups, addresses, nats] = await Promise.all([
    allPages((NextToken) => client.send(new sdk.DescribeVpcsCommand({ Filters: filters, MaxResults: AWS_PAGE_SIZE.DescribeVpcs, NextToken })).then((o) => [o.Vpcs, o.NextToken] as const)),
    allPages((NextToken) => client.send(new sdk.DescribeSubnetsCommand({ Filters: filters, MaxResults: AWS_PAGE_SIZE.DescribeSubnets, NextToken })).then((o) => [o.Subnets, o.NextToken] as const)),
    allPages((NextToken) => client.send(new sdk.DescribeInternetGatewaysCommand({ Filters: filters, MaxResults: AWS_PAGE_SIZE.DescribeInternetGateways, NextToken })).then((o) => [o.InternetGateways, o.NextToken] as const)),
    allPages((NextToken) => client.send(new sdk.DescribeRouteTablesCommand({ Filters: filters, MaxResults: AWS_PAGE_SIZE.DescribeRouteTables, NextToken })).then((o) => [o.RouteTables, o.NextToken] as const)),
    allPages((NextToken) => client.send(new sdk.DescribeSecurityGroupsCommand({ Filters: filters, MaxResults: AWS_PAGE_SIZE.DescribeSecurityGroups, NextToken })).then((o) => [o.SecurityGroups, o.NextToken] as const)),
    // DescribeAddresses has no paging.
    client.send(new sdk.DescribeAddressesCommand({ Filters: filters })).then((o) => o.Addresses ?? []),
    allPages((NextToken) =>
      client
        .send(new sdk.DescribeNatGatewaysCommand({ Filter: [...filters, { Name: 'state', Values: ['pending', 'available', 'deleting', 'failed'] }], MaxResults: AWS_PAGE_SIZE.DescribeNatGateways, NextToken }))
        .then((o) => [o.NatGateways, o.NextToken] as const),
    ),
  ]);

  for (const v of vpcs) {
    if (!v.VpcId || !ownedByCluster(v.Tags, cluster)) continue;
    const id = v.VpcId;
    out.push({ type: 'vpc', name: name(v.Tags, id), id, dependsOn: [], delete: () => client.send(new sdk.DeleteVpcCommand({ VpcId: id })).then(() => 'deleted') });
  }
  for (const s of subnets) {
    if (!s.SubnetId || !ownedByCluster(s.Tags, cluster)) continue;
    const id = s.SubnetId;
    out.push({ type: 'subnet', name: name(s.Tags, id), id, dependsOn: [], delete: () => client.send(new sdk.DeleteSubnetCommand({ SubnetId: id })).then(() => 'deleted') });
  }
  for (const g of igws) {
    if (!g.InternetGatewayId || !ownedByCluster(g.Tags, cluster)) continue;
    const id = g.InternetGatewayId;
    const attached = (g.Attachments ?? []).map((a) => a.VpcId).filter((v): v is string => v !== undefined);
    out.push({
      type: 'internet-gateway',
      name: name(g.Tags, id),
      id,
      dependsOn: [],
      delete: async () => {
        // Detaching fails with DependencyViolation while public addresses are mapped in the VPC: retried next round.
        while (attached.length > 0) {
          await client.send(new sdk.DetachInternetGatewayCommand({ InternetGatewayId: id, VpcId: attached[0] })).catch(ignoreNotFound);
          attached.shift();
        }
        await client.send(new sdk.DeleteInternetGatewayCommand({ InternetGatewayId: id }));
        return 'deleted';
      },
    });
  }
  for (const t of tables) {
    if (!t.RouteTableId || !ownedByCluster(t.Tags, cluster)) continue;
    const id = t.RouteTableId;
    // The main association belongs to the VPC; a cluster table is never main, but never touch one that is.
    if (t.Associations?.some((a) => a.Main)) continue;
    const associations = (t.Associations ?? []).map((a) => a.RouteTableAssociationId).filter((a): a is string => a !== undefined);
    out.push({
      type: 'route-table',
      name: name(t.Tags, id),
      id,
      dependsOn: [],
      delete: async () => {
        while (associations.length > 0) {
          await client.send(new sdk.DisassociateRouteTableCommand({ AssociationId: associations[0] })).catch(ignoreNotFound);
          associations.shift();
        }
        await client.send(new sdk.DeleteRouteTableCommand({ RouteTableId: id }));
        return 'deleted';
      },
    });
  }
  for (const g of groups) {
    if (!g.GroupId || !ownedByCluster(g.Tags, cluster)) continue;
    const id = g.GroupId;
    // Rules naming another group stop that group's deletion (AWS: DependencyViolation), and cluster groups
    // name each other: each group revokes its own group references first (kops does the same).
    let ingress = referencingRules(g.IpPermissions);
    let egress = referencingRules(g.IpPermissionsEgress);
    out.push({
      type: 'security-group',
      name: g.GroupName ?? name(g.Tags, id),
      id,
      dependsOn: [],
      delete: async () => {
        // A revoke is all or nothing: when one rule of the batch is already gone, the rest are revoked one by one.
        const revoke = async (perms: IpPermission[], send: (p: IpPermission[]) => Promise<unknown>) => {
          if (perms.length === 0) return;
          await send(perms).catch(async (e: unknown) => {
            ignoreNotFound(e);
            if (perms.length > 1) for (const p of perms) await send([p]).catch(ignoreNotFound);
          });
        };
        await revoke(ingress, (IpPermissions) => client.send(new sdk.RevokeSecurityGroupIngressCommand({ GroupId: id, IpPermissions })));
        ingress = [];
        await revoke(egress, (IpPermissions) => client.send(new sdk.RevokeSecurityGroupEgressCommand({ GroupId: id, IpPermissions })));
        egress = [];
        await client.send(new sdk.DeleteSecurityGroupCommand({ GroupId: id }));
        return 'deleted';
      },
    });
  }
  for (const a of addresses) {
    if (!a.AllocationId || !ownedByCluster(a.Tags, cluster)) continue;
    const id = a.AllocationId;
    out.push({
      type: 'elastic-ip',
      name: name(a.Tags, a.PublicIp ?? id),
      id,
      dependsOn: [],
      delete: () => client.send(new sdk.ReleaseAddressCommand({ AllocationId: id })).then(() => 'deleted'),
    });
  }
  for (const n of nats) {
    if (!n.NatGatewayId || !ownedByCluster(n.Tags, cluster)) continue;
    const id = n.NatGatewayId;
    let started = n.State === 'deleting';
    out.push({
      type: 'nat-gateway',
      name: name(n.Tags, id),
      id,
      dependsOn: [],
      delete: async () => {
        if (!started) {
          await client.send(new sdk.DeleteNatGatewayCommand({ NatGatewayId: id }));
          started = true;
        }
        // Its Elastic IP and subnet stay in use until the gateway reaches `deleted` (minutes on AWS).
        const state = (await client.send(new sdk.DescribeNatGatewaysCommand({ NatGatewayIds: [id] }))).NatGateways?.[0]?.State;
        return state === undefined || state === 'deleted' ? 'deleted' : 'pending';
      },
    });
  }
  return out;
}

/** The parts of a group's rules that reference other groups, in the shape Revoke* takes. */
function referencingRules(perms: IpPermission[] | undefined): IpPermission[] {
  const out: IpPermission[] = [];
  for (const p of perms ?? []) {
    const pairs = (p.UserIdGroupPairs ?? []).filter((g) => g.GroupId).map((g) => ({ GroupId: g.GroupId, UserId: g.UserId }));
    if (pairs.length > 0) out.push({ IpProtocol: p.IpProtocol, FromPort: p.FromPort, ToPort: p.ToPort, UserIdGroupPairs: pairs });
  }
  return out;
}
