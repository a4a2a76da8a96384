import type { AutoScalingGroup } from '@aws-sdk/client-auto-scaling';
import type { Address, Filter, Image, InternetGateway, KeyPairInfo, LaunchTemplate, LaunchTemplateVersion, NatGateway, RouteTable, SecurityGroup, Subnet, Volume, Vpc } from '@aws-sdk/client-ec2';
import type { Listener, LoadBalancer, TargetGroup } from '@aws-sdk/client-elastic-load-balancing-v2';
import type { InstanceProfile, Role, RoleDetail } from '@aws-sdk/client-iam';
import type { HostedZone, ResourceRecordSet, RRType } from '@aws-sdk/client-route-53';
import type { AwsCloud } from './aws-cloud';
import { classifyAwsError } from './aws-errors';
import { tagMap, TagMap } from './aws-tags';
import { parseImageRef } from './image-ref';

// The largest page the launch template APIs give (AWS's maximum). Asked for explicitly: without it the
// default page is 15, and moto 5.2.1 then cuts the list at 15 without a NextToken.
const MAX_LAUNCH_TEMPLATE_PAGE = 200;

/** An ELBv2 resource with its tags (ELBv2 returns them from a separate DescribeTags). */
export interface Elbv2Tagged<T> {
  resource: T;
  tags: TagMap;
  /** Whether both cluster tags say it is this cluster's: only then may kforge change or delete it. */
  owned: boolean;
}

/** The VPC attributes kforge manages, which DescribeVpcs does not return. */
export interface VpcAttributes {
  enableDnsSupport: boolean;
  enableDnsHostnames: boolean;
}

/**
 * What a cluster has in EC2, read with ONE tag-filtered Describe call per resource kind (paged) and cached
 * for the run, so that finding 20 subnets costs what finding one does. Tasks' find() read from here, never
 * from the SDK. Security-group rules, routes, associations and gateway attachments come inside their
 * parents' descriptions, at no extra cost.
 */
export class AwsInventory {
  private readonly cache = new Map<string, Promise<unknown>>();

  constructor(private readonly cloud: AwsCloud) {}

  /** The filters every Describe uses: both of kops's cluster tags, so other clusters' resources never match. */
  clusterFilters(): Filter[] {
    const name = this.cloud.clusterName;
    return [
      { Name: 'tag:KubernetesCluster', Values: [name] },
      { Name: `tag:kubernetes.io/cluster/${name}`, Values: ['owned'] },
    ];
  }

  /** The cluster's VPCs. */
  vpcs(): Promise<Vpc[]> {
    return this.once('vpcs', async () => {
      const { sdk, client } = await this.cloud.ec2();
      return this.pages(async (NextToken) => {
        const out = await client.send(new sdk.DescribeVpcsCommand({ Filters: this.clusterFilters(), NextToken }));
        return [out.Vpcs ?? [], out.NextToken];
      });
    });
  }

  /** A VPC's DNS attributes: two calls per VPC (the API has no batch form), one VPC per cluster. */
  vpcAttributes(vpcId: string): Promise<VpcAttributes> {
    return this.once(`vpc-attributes/${vpcId}`, async () => {
      const { sdk, client } = await this.cloud.ec2();
      const [support, hostnames] = await Promise.all([
        client.send(new sdk.DescribeVpcAttributeCommand({ VpcId: vpcId, Attribute: 'enableDnsSupport' })),
        client.send(new sdk.DescribeVpcAttributeCommand({ VpcId: vpcId, Attribute: 'enableDnsHostnames' })),
      ]);
      return { enableDnsSupport: support.EnableDnsSupport?.Value === true, enableDnsHostnames: hostnames.EnableDnsHostnames?.Value === true };
    });
  }

  /** The cluster's subnets. */
  subnets(): Promise<Subnet[]> {
    return this.once('subnets', async () => {
      const { sdk, client } = await this.cloud.ec2();
      return this.pages(async (NextToken) => {
        const out = await client.send(new sdk.DescribeSubnetsCommand({ Filters: this.clusterFilters(), NextToken }));
        return [out.Subnets ?? [], out.NextToken];
      });
    });
  }

  /** The cluster's internet gateways, with their attachments. */
  internetGateways(): Promise<InternetGateway[]> {
    return this.once('internet-gateways', async () => {
      const { sdk, client } = await this.cloud.ec2();
      return this.pages(async (NextToken) => {
        const out = await client.send(new sdk.DescribeInternetGatewaysCommand({ Filters: this.clusterFilters(), NextToken }));
        return [out.InternetGateways ?? [], out.NextToken];
      });
    });
  }

  /** The cluster's route tables, with their routes and associations. */
  routeTables(): Promise<RouteTable[]> {
    return this.once('route-tables', async () => {
      const { sdk, client } = await this.cloud.ec2();
      return this.pages(async (NextToken) => {
        const out = await client.send(new sdk.DescribeRouteTablesCommand({ Filters: this.clusterFilters(), NextToken }));
        return [out.RouteTables ?? [], out.NextToken];
      });
    });
  }

  /** The cluster's security groups, with their ingress and egress rules. */
  securityGroups(): Promise<SecurityGroup[]> {
    return this.once('security-groups', async () => {
      const { sdk, client } = await this.cloud.ec2();
      return this.pages(async (NextToken) => {
        const out = await client.send(new sdk.DescribeSecurityGroupsCommand({ Filters: this.clusterFilters(), NextToken }));
        return [out.SecurityGroups ?? [], out.NextToken];
      });
    });
  }

  /** The cluster's Elastic IPs (DescribeAddresses has no pages). */
  addresses(): Promise<Address[]> {
    return this.once('addresses', async () => {
      const { sdk, client } = await this.cloud.ec2();
      return (await client.send(new sdk.DescribeAddressesCommand({ Filters: this.clusterFilters() }))).Addresses ?? [];
    });
  }

  /** The cluster's NAT gateways, deleted ones included (they stay visible for about an hour). */
  natGateways(): Promise<NatGateway[]> {
    return this.once('nat-gateways', async () => {
      const { sdk, client } = await this.cloud.ec2();
      return this.pages(async (NextToken) => {
        // This API spells its filter parameter in the singular.
        const out = await client.send(new sdk.DescribeNatGatewaysCommand({ Filter: this.clusterFilters(), NextToken }));
        // moto 5.2.1 ignores tag filters here and returns every gateway; the tags are checked again.
        return [(out.NatGateways ?? []).filter((g) => this.isOwned(g.Tags)), out.NextToken];
      });
    });
  }

  /** The cluster's EBS volumes (the etcd volumes). */
  volumes(): Promise<Volume[]> {
    return this.once('volumes', async () => {
      const { sdk, client } = await this.cloud.ec2();
      return this.pages(async (NextToken) => {
        const out = await client.send(new sdk.DescribeVolumesCommand({ Filters: this.clusterFilters(), NextToken }));
        return [out.Volumes ?? [], out.NextToken];
      });
    });
  }

  /** The cluster's EC2 key pairs (DescribeKeyPairs has no pages). */
  keyPairs(): Promise<KeyPairInfo[]> {
    return this.once('key-pairs', async () => {
      const { sdk, client } = await this.cloud.ec2();
      return (await client.send(new sdk.DescribeKeyPairsCommand({ Filters: this.clusterFilters() }))).KeyPairs ?? [];
    });
  }

  /** The cluster's launch templates (their data is in launchTemplateVersions()). */
  launchTemplates(): Promise<LaunchTemplate[]> {
    return this.once('launch-templates', async () => {
      const { sdk, client } = await this.cloud.ec2();
      return this.pages(async (NextToken) => {
        const out = await client.send(new sdk.DescribeLaunchTemplatesCommand({ Filters: this.clusterFilters(), MaxResults: MAX_LAUNCH_TEMPLATE_PAGE, NextToken }));
        return [out.LaunchTemplates ?? [], out.NextToken];
      });
    });
  }

  /**
   * The latest version of each of the cluster's launch templates. Versions take no tag filter, but without a
   * template id `$Latest` describes the latest version of every template of the account in one (paged) call;
   * the cluster's are kept. No call at all while the cluster has no template (the plan of a new cluster).
   */
  launchTemplateVersions(): Promise<LaunchTemplateVersion[]> {
    return this.once('launch-template-versions', async () => {
      const ids = new Set((await this.launchTemplates()).map((t) => t.LaunchTemplateId));
      if (ids.size === 0) return [];
      const { sdk, client } = await this.cloud.ec2();
      const all = await this.pages(async (NextToken) => {
        const out = await client.send(new sdk.DescribeLaunchTemplateVersionsCommand({ Versions: ['$Latest'], MaxResults: MAX_LAUNCH_TEMPLATE_PAGE, NextToken }));
        return [out.LaunchTemplateVersions ?? [], out.NextToken];
      });
      return all.filter((v) => ids.has(v.LaunchTemplateId));
    });
  }

  /**
   * The cluster's Auto Scaling groups, with their instances and tags: one DescribeAutoScalingGroups filtered
   * by `tag:KubernetesCluster` (the API takes tag filters by key and value), then the `owned` tag is checked
   * here because its key names the cluster.
   */
  autoScalingGroups(): Promise<AutoScalingGroup[]> {
    return this.once('auto-scaling-groups', async () => {
      const { sdk, client } = await this.cloud.autoScaling();
      const name = this.cloud.clusterName;
      const all = await this.pages(async (NextToken) => {
        const out = await client.send(new sdk.DescribeAutoScalingGroupsCommand({ Filters: [{ Name: 'tag:KubernetesCluster', Values: [name] }], MaxRecords: 100, NextToken }));
        return [out.AutoScalingGroups ?? [], out.NextToken];
      });
      return all.filter((g) => g.Tags?.some((t) => t.Key === `kubernetes.io/cluster/${name}` && t.Value === 'owned'));
    });
  }

  /**
   * The images `refs` name (`ami-…` ids, `<owner>/<name>` or a bare name), all at once: one DescribeImages
   * by id for the ids and one filtered by name for the names, whatever the number of instance groups.
   * Callers pass the model's whole list, so every launch template shares one load.
   */
  images(refs: readonly string[]): Promise<Image[]> {
    const sorted = [...new Set(refs)].sort();
    return this.once(`images/${sorted.join(',')}`, async () => {
      const { sdk, client } = await this.cloud.ec2();
      const ids = sorted.filter((r) => /^ami-[0-9a-f]+$/.test(r));
      const names = sorted.filter((r) => !ids.includes(r)).map((r) => parseImageRef(r).name);
      const loads: Promise<Image[]>[] = [];
      if (ids.length > 0) {
        loads.push(this.pages(async (NextToken) => {
          const out = await client.send(new sdk.DescribeImagesCommand({ Filters: [{ Name: 'image-id', Values: ids }], NextToken }));
          return [out.Images ?? [], out.NextToken];
        }));
      }
      if (names.length > 0) {
        loads.push(this.pages(async (NextToken) => {
          const out = await client.send(new sdk.DescribeImagesCommand({ Filters: [{ Name: 'name', Values: [...new Set(names)] }], NextToken }));
          return [out.Images ?? [], out.NextToken];
        }));
      }
      return (await Promise.all(loads)).flat();
    });
  }

  /**
   * An IAM role by name, with its tags, or undefined. IAM has no tag-filtered list; roles, their inline
   * policies and instance profiles all come from ONE paged GetAccountAuthorizationDetails (roles only), so
   * reading one role or forty costs the same.
   */
  async iamRole(name: string): Promise<Role | undefined> {
    const detail = (await this.iamRoleDetails()).get(name);
    return detail && { RoleName: detail.RoleName, Arn: detail.Arn, Path: detail.Path, RoleId: detail.RoleId, CreateDate: detail.CreateDate, AssumeRolePolicyDocument: detail.AssumeRolePolicyDocument, Tags: detail.Tags };
  }

  /** A role's inline policy document as IAM returns it (URL-encoded JSON), or undefined. */
  async iamRolePolicy(roleName: string, policyName: string): Promise<string | undefined> {
    return (await this.iamRoleDetails()).get(roleName)?.RolePolicyList?.find((p) => p.PolicyName === policyName)?.PolicyDocument;
  }

  /**
   * An instance profile by name, with its roles and tags, or undefined. Profiles holding a role come with
   * the role details; one holding none (a run stopped between its two creates), or listed without its tags,
   * is read with its own GetInstanceProfile.
   */
  async instanceProfile(name: string): Promise<InstanceProfile | undefined> {
    for (const detail of (await this.iamRoleDetails()).values()) {
      const profile = detail.InstanceProfileList?.find((p) => p.InstanceProfileName === name);
      if (profile?.Tags !== undefined) return profile;
    }
    return this.once(`instance-profile/${name}`, async () => {
      const { sdk, client } = await this.cloud.iam();
      return orUndefined(async () => (await client.send(new sdk.GetInstanceProfileCommand({ InstanceProfileName: name }))).InstanceProfile);
    });
  }

  /** Every role of the account, with inline policies, instance profiles and tags (the same one paged call). */
  async iamRoleList(): Promise<RoleDetail[]> {
    return [...(await this.iamRoleDetails()).values()];
  }

  /** Every role of the account by name, with inline policies, instance profiles and tags (one paged call). */
  private iamRoleDetails(): Promise<Map<string, RoleDetail>> {
    return this.once('iam-role-details', async () => {
      const { sdk, client } = await this.cloud.iam();
      const roles = await this.pages(async (Marker) => {
        const out = await client.send(new sdk.GetAccountAuthorizationDetailsCommand({ Filter: ['Role'], Marker }));
        return [out.RoleDetailList ?? [], out.IsTruncated ? out.Marker : undefined];
      });
      return new Map(roles.flatMap((r) => (r.RoleName ? [[r.RoleName, r] as const] : [])));
    });
  }

  // ELBv2 and Route 53 have no tag-filtered Describe: the API endpoint's resources are read by the names the
  // model gives them (known before any call), and ELBv2 ownership is confirmed by the cluster tags.

  /**
   * The load balancers among `names` (at most 20), with their tags: one DescribeLoadBalancers by Names and
   * one DescribeTags. One of that name without both cluster tags comes back with `owned: false` (ELB names
   * are per account and region: a task must refuse it rather than adopt it or make another).
   */
  loadBalancers(names: readonly string[]): Promise<Elbv2Tagged<LoadBalancer>[]> {
    return this.once(`load-balancers/${[...names].sort().join(',')}`, async () => {
      const { sdk, client } = await this.cloud.elbv2();
      const found = await this.byNames(names, (Names, Marker) =>
        client.send(new sdk.DescribeLoadBalancersCommand({ Names, Marker })).then((o) => [o.LoadBalancers ?? [], o.NextMarker] as [LoadBalancer[], string | undefined]),
      );
      return this.withTags(found, (lb) => lb.LoadBalancerArn);
    });
  }

  /** A load balancer's attributes (`load_balancing.cross_zone.enabled` → `true`): one DescribeLoadBalancerAttributes per load balancer. */
  loadBalancerAttributes(loadBalancerArn: string): Promise<Record<string, string>> {
    return this.once(`load-balancer-attributes/${loadBalancerArn}`, async () => {
      const { sdk, client } = await this.cloud.elbv2();
      const out = await client.send(new sdk.DescribeLoadBalancerAttributesCommand({ LoadBalancerArn: loadBalancerArn }));
      return Object.fromEntries((out.Attributes ?? []).filter((a) => a.Key !== undefined).map((a) => [a.Key as string, a.Value ?? '']));
    });
  }

  /** The target groups among `names` (at most 20), with their tags and `owned`: one DescribeTargetGroups by Names and one DescribeTags. */
  targetGroups(names: readonly string[]): Promise<Elbv2Tagged<TargetGroup>[]> {
    return this.once(`target-groups/${[...names].sort().join(',')}`, async () => {
      const { sdk, client } = await this.cloud.elbv2();
      const found = await this.byNames(names, (Names, Marker) =>
        client.send(new sdk.DescribeTargetGroupsCommand({ Names, Marker })).then((o) => [o.TargetGroups ?? [], o.NextMarker] as [TargetGroup[], string | undefined]),
      );
      return this.withTags(found, (tg) => tg.TargetGroupArn);
    });
  }

  /** A target group's attributes (`deregistration_delay.timeout_seconds` → `30`): one DescribeTargetGroupAttributes per target group. */
  targetGroupAttributes(targetGroupArn: string): Promise<Record<string, string>> {
    return this.once(`target-group-attributes/${targetGroupArn}`, async () => {
      const { sdk, client } = await this.cloud.elbv2();
      const out = await client.send(new sdk.DescribeTargetGroupAttributesCommand({ TargetGroupArn: targetGroupArn }));
      return Object.fromEntries((out.Attributes ?? []).filter((a) => a.Key !== undefined).map((a) => [a.Key as string, a.Value ?? '']));
    });
  }

  /** A load balancer's listeners: one DescribeListeners per load balancer (one per cluster). */
  listeners(loadBalancerArn: string): Promise<Listener[]> {
    return this.once(`listeners/${loadBalancerArn}`, async () => {
      const { sdk, client } = await this.cloud.elbv2();
      try {
        return await this.pages(async (Marker) => {
          const out = await client.send(new sdk.DescribeListenersCommand({ LoadBalancerArn: loadBalancerArn, Marker }));
          return [out.Listeners ?? [], out.NextMarker];
        });
      } catch (e) {
        if (classifyAwsError(e) === 'not-found') return [];
        throw e;
      }
    });
  }

  /**
   * The hosted zones `dnsZone` names: by id (no dot, GetHostedZone) or by name (ListHostedZonesByName, one
   * call), keeping only private or only public zones of that exact name. Empty when there is none.
   */
  hostedZones(dnsZone: string, privateZone: boolean): Promise<HostedZone[]> {
    return this.once(`hosted-zones/${dnsZone}/${privateZone}`, async () => {
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
    return this.once(`record-sets/${zoneId}/${root}`, async () => {
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
      return await this.pages((marker) => read([...names], marker));
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
    const tags = new Map((out.TagDescriptions ?? []).map((d) => [d.ResourceArn, tagMap(d.Tags)]));
    const c = this.cloud.clusterName;
    return items.map((resource) => {
      const t = tags.get(arn(resource)) ?? {};
      return { resource, tags: t, owned: t.KubernetesCluster === c && t[`kubernetes.io/cluster/${c}`] === 'owned' };
    });
  }

  /** Whether tags carry both cluster tags (`owned`): what the Describe filters ask for, checked where a peer may ignore them. */
  private isOwned(tags: ReadonlyArray<{ Key?: string; Value?: string }> | undefined): boolean {
    const c = this.cloud.clusterName;
    const t = new Map((tags ?? []).map((x) => [x.Key, x.Value]));
    return t.get('KubernetesCluster') === c && t.get(`kubernetes.io/cluster/${c}`) === 'owned';
  }

  /** Drops everything cached, so the next find reads the cloud again (before a retry, or after an apply). */
  invalidate(): void {
    this.cache.clear();
  }

  /** One load per key and run; concurrent callers share it; a failed load is forgotten so a retry reloads. */
  private once<T>(key: string, load: () => Promise<T>): Promise<T> {
    let p = this.cache.get(key) as Promise<T> | undefined;
    if (!p) {
      p = load();
      this.cache.set(key, p);
      p.catch(() => this.cache.delete(key));
    }
    return p;
  }

  /** Follows NextToken to the end. */
  private async pages<T>(page: (token: string | undefined) => Promise<[T[], string | undefined]>): Promise<T[]> {
    const all: T[] = [];
    let token: string | undefined;
    do {
      const [items, next] = await page(token);
      all.push(...items);
      token = next || undefined;
    } while (token);
    return all;
  }
}

/** The value, or undefined when the cloud says the entity does not exist (IAM's NoSuchEntity). */
async function orUndefined<T>(read: () => Promise<T | undefined>): Promise<T | undefined> {
  try {
    return await read();
  } catch (e) {
    if (classifyAwsError(e) === 'not-found') return undefined;
    throw e;
  }
}

