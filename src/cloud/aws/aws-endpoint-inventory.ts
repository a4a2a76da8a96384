import type { NetworkInterface } from '@aws-sdk/client-ec2';
import type { Listener, LoadBalancer, TargetGroup } from '@aws-sdk/client-elastic-load-balancing-v2';
import type { HostedZone, ResourceRecordSet, RRType } from '@aws-sdk/client-route-53';
import type { AwsCloud } from './aws-cloud';
import { classifyAwsError } from './aws-errors';
import { tagMap, TagMap } from './aws-tags';
import type { InventoryCache } from './inventory-cache';
import { orUndefined } from './or-undefined';
import { AWS_PAGE_SIZE } from './aws-page-size';
import { loadBalancerInterfaceDescription } from './load-balancer-interface-ips';
import { ownedByCluster } from './owned-by-cluster';

/** An ELBv2 resource with its tags (ELBv2 returns them from a separate DescribeTags). */
export interface Elbv2Tagged<T> {
  resource: T;
  tags: TagMap;
  /** Whether both cluster tags say it is this cluster's: only then may kforge change or delete it. */
  owned: boolean;
}

/**
 * The API endpoint's resources of a cluster (ELBv2 load balancers, target groups and listeners; Route 53
 * zones and records), cached for the run in the inventory's cache. The part of AwsInventory that reads
 * by name, since neither API has a tag-filtered Describe.
 */
export class AwsEndpointInventory {
  constructor(
    private readonly cloud: AwsCloud,
    private readonly cache: InventoryCache,
  ) {}

  // ELBv2 and Route 53 have no tag-filtered Describe: the API endpoint's resources are read by the names the
  // model gives them (known before any call), and ELBv2 ownership is confirmed by the cluster tags.

  /**
   * The load balancers among `names` (at most 20), with their tags: one DescribeLoadBalancers by Names and
   * one DescribeTags. One of that name without both cluster tags comes back with `owned: false` (ELB names
   * are per account and region: a task must refuse it rather than adopt it or make another).
   */
  loadBalancers(names: readonly string[]): Promise<Elbv2Tagged<LoadBalancer>[]> {
    return this.cache.once(`load-balancers/${[...names].sort().join(',')}`, async () => {
      const { sdk, client } = await this.cloud.elbv2();
      const found = await this.byNames(names, (Names, Marker) =>
        client.send(new sdk.DescribeLoadBalancersCommand({ Names, Marker })).then((o) => [o.LoadBalancers ?? [], o.NextMarker] as [LoadBalancer[], string | undefined]),
      );
      return this.withTags(found, (lb) => lb.LoadBalancerArn);
    });
  }

  /** A load balancer's attributes (`load_balancing.cross_zone.enabled` → `true`): one DescribeLoadBalancerAttributes per load balancer. */
  loadBalancerAttributes(loadBalancerArn: string): Promise<Record<string, string>> {
    return this.cache.once(`load-balancer-attributes/${loadBalancerArn}`, async () => {
      const { sdk, client } = await this.cloud.elbv2();
      const out = await client.send(new sdk.DescribeLoadBalancerAttributesCommand({ LoadBalancerArn: loadBalancerArn }));
      return Object.fromEntries((out.Attributes ?? []).filter((a) => a.Key !== undefined).map((a) => [a.Key as string, a.Value ?? '']));
    });
  }

  /** The target groups among `names` (at most 20), with their tags and `owned`: one DescribeTargetGroups by Names and one DescribeTags. */
  targetGroups(names: readonly string[]): Promise<Elbv2Tagged<TargetGroup>[]> {
    return this.cache.once(`target-groups/${[...names].sort().join(',')}`, async () => {
      const { sdk, client } = await this.cloud.elbv2();
      const found = await this.byNames(names, (Names, Marker) =>
        client.send(new sdk.DescribeTargetGroupsCommand({ Names, Marker })).then((o) => [o.TargetGroups ?? [], o.NextMarker] as [TargetGroup[], string | undefined]),
      );
      return this.withTags(found, (tg) => tg.TargetGroupArn);
    });
  }

  /** A target group's attributes (`deregistration_delay.timeout_seconds` → `30`): one DescribeTargetGroupAttributes per target group. */
  targetGroupAttributes(targetGroupArn: string): Promise<Record<string, string>> {
    return this.cache.once(`target-group-attributes/${targetGroupArn}`, async () => {
      const { sdk, client } = await this.cloud.elbv2();
      const out = await client.send(new sdk.DescribeTargetGroupAttributesCommand({ TargetGroupArn: targetGroupArn }));
      return Object.fromEntries((out.Attributes ?? []).filter((a) => a.Key !== undefined).map((a) => [a.Key as string, a.Value ?? '']));
    });
  }

  /** A load balancer's listeners: one DescribeListeners per load balancer (one per cluster). */
  listeners(loadBalancerArn: string): Promise<Listener[]> {
    return this.cache.once(`listeners/${loadBalancerArn}`, async () => {
      const { sdk, client } = await this.cloud.elbv2();
      try {
        return await this.cache.pages(async (Marker) => {
          const out = await client.send(new sdk.DescribeListenersCommand({ LoadBalancerArn: loadBalancerArn, PageSize: AWS_PAGE_SIZE.DescribeListeners, Marker }));
          return [out.Listeners ?? [], out.NextMarker];
        });
      } catch (e) {
        if (classifyAwsError(e) === 'not-found') return [];
        throw e;
      }
    });
  }

  /**
   * The network interfaces AWS made for a network load balancer in a VPC (kops's FindELBV2NetworkInterfacesByName):
   * one DescribeNetworkInterfaces filtered by VPC and by AWS's description `ELB net/<name>/*` (kops filters by
   * `interface-type` and checks the description itself; the description filter asks AWS for fewer), paged.
   * Read once per run, however many launch templates need the addresses.
   */
  loadBalancerInterfaces(vpcId: string, loadBalancerName: string): Promise<NetworkInterface[]> {
    return this.cache.once(`load-balancer-interfaces/${vpcId}/${loadBalancerName}`, async () => {
      const { sdk, client } = await this.cloud.ec2();
      const Filters = [
        { Name: 'vpc-id', Values: [vpcId] },
        { Name: 'description', Values: [`${loadBalancerInterfaceDescription(loadBalancerName)}*`] },
      ];
      return this.cache.pages(async (NextToken) => {
        const out = await client.send(new sdk.DescribeNetworkInterfacesCommand({ Filters, MaxResults: AWS_PAGE_SIZE.DescribeNetworkInterfaces, NextToken }));
        return [out.NetworkInterfaces ?? [], out.NextToken];
      });
    });
  }

  /**
   * The hosted zones `dnsZone` names: by id (no dot, GetHostedZone) or by name (ListHostedZonesByName, one
   * call), keeping only private or only public zones of that exact name. Empty when there is none.
   */
  hostedZones(dnsZone: string, privateZone: boolean): Promise<HostedZone[]> {
    return this.cache.once(`hosted-zones/${dnsZone}/${privateZone}`, async () => {
      const { sdk, client } = await this.cloud.route53();
      if (!dnsZone.includes('.')) {
        const zone = await orUndefined(async () => (await client.send(new sdk.GetHostedZoneCommand({ Id: dnsZone }))).HostedZone);
        return zone ? [zone] : [];
      }
      const fqdn = `${dnsZone.toLowerCase().replace(/\.$/, '')}.`;
      const out = await client.send(new sdk.ListHostedZonesByNameCommand({ DNSName: fqdn }));
      return (out.HostedZones ?? []).filter((z) => z.Name?.toLowerCase() === fqdn && (z.Config?.PrivateZone === true) === privateZone);
    });
  }

  /**
   * A zone's records at and below `subtree` (a DNS name): ListResourceRecordSets from that name, paged only
   * while the records are still inside it, so a large zone costs one call too. Names end with a dot.
   */
  resourceRecordSets(zoneId: string, subtree: string): Promise<ResourceRecordSet[]> {
    const root = `${subtree.toLowerCase().replace(/\.$/, '')}.`;
    return this.cache.once(`record-sets/${zoneId}/${root}`, async () => {
      const { sdk, client } = await this.cloud.route53();
      const all: ResourceRecordSet[] = [];
      let start: { name?: string; type?: string } = { name: root };
      for (;;) {
        const out = await client.send(
          new sdk.ListResourceRecordSetsCommand({ HostedZoneId: zoneId, StartRecordName: start.name, StartRecordType: start.type as RRType | undefined }),
        );
        const page = out.ResourceRecordSets ?? [];
        all.push(...page);
        const last = page[page.length - 1]?.Name?.toLowerCase();
        // Route 53 sorts by name with the labels reversed, so a subtree is contiguous from its root: once a
        // page ends outside it, nothing further is ours.
        if (!out.IsTruncated || !out.NextRecordName || (last !== undefined && last !== root && !last.endsWith(`.${root}`))) break;
        start = { name: out.NextRecordName, type: out.NextRecordType };
      }
      return all.filter((r) => {
        const n = r.Name?.toLowerCase() ?? '';
        return n === root || n.endsWith(`.${root}`);
      });
    });
  }

  /** Reads by names, treating "not found" as none: with several names, one missing fails the call, so each is then read alone. */
  private async byNames<T>(names: readonly string[], read: (names: string[], marker: string | undefined) => Promise<[T[], string | undefined]>): Promise<T[]> {
    if (names.length === 0) return [];
    try {
      return await this.cache.pages((marker) => read([...names], marker));
    } catch (e) {
      if (classifyAwsError(e) !== 'not-found') throw e;
      if (names.length === 1) return [];
      return (await Promise.all(names.map((n) => this.byNames([n], read)))).flat();
    }
  }

  /** The resources with their tags, from one DescribeTags (ELBv2 takes up to 20 ARNs), and whether both cluster tags are there. */
  private async withTags<T>(items: T[], arn: (t: T) => string | undefined): Promise<Elbv2Tagged<T>[]> {
    const arns = items.map(arn).filter((a): a is string => a !== undefined);
    if (arns.length === 0) return [];
    const { sdk, client } = await this.cloud.elbv2();
    const out = await client.send(new sdk.DescribeTagsCommand({ ResourceArns: arns }));
    const tags = new Map((out.TagDescriptions ?? []).map((d) => [d.ResourceArn, d.Tags]));
    return items.map((resource) => {
      const t = tags.get(arn(resource));
      return { resource, tags: tagMap(t), owned: ownedByCluster(t, this.cloud.clusterName) };
    });
  }
}
