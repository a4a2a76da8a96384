import type { AutoScalingGroup } from '@aws-sdk/client-auto-scaling';
import type { Address, Filter, Image, InstanceTypeInfo, InternetGateway, KeyPairInfo, LaunchTemplate, LaunchTemplateVersion, NatGateway, RouteTable, SecurityGroup, Subnet, Volume, Vpc } from '@aws-sdk/client-ec2';
import type { InstanceProfile, Role, RoleDetail } from '@aws-sdk/client-iam';
import type { DuplicateName } from '../../tasks/duplicate-name';
import type { AwsCloud } from './aws-cloud';
import { AwsEndpointInventory } from './aws-endpoint-inventory';
import { AWS_PAGE_SIZE } from './aws-page-size';
import { InventoryCache } from './inventory-cache';
import { NthInventory } from './nth-inventory';
import { orUndefined } from './or-undefined';
import { ownedByCluster } from './owned-by-cluster';
import { parseImageRef } from './image-ref';


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
  /** The run's cache, shared with the endpoint inventory so that one invalidate() drops everything. */
  private readonly cache = new InventoryCache();
  /** Names that matched more than one resource in the last find of their task, by `type/name`. */
  private readonly duplicates = new Map<string, DuplicateName>();
  /** The API endpoint's resources (ELBv2, Route 53), read by name: see AwsEndpointInventory. */
  readonly endpoint: AwsEndpointInventory;
  /** The node-termination-handler's SQS queue and EventBridge rules, read by name: see NthInventory. */
  readonly nth: NthInventory;

  constructor(private readonly cloud: AwsCloud) {
    this.endpoint = new AwsEndpointInventory(cloud, this.cache);
    this.nth = new NthInventory(cloud, this.cache);
  }

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
        const out = await client.send(new sdk.DescribeVpcsCommand({ Filters: this.clusterFilters(), MaxResults: AWS_PAGE_SIZE.DescribeVpcs, NextToken }));
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
        const out = await client.send(new sdk.DescribeSubnetsCommand({ Filters: this.clusterFilters(), MaxResults: AWS_PAGE_SIZE.DescribeSubnets, NextToken }));
        return [out.Subnets ?? [], out.NextToken];
      });
    });
  }

  /** The cluster's internet gateways, with their attachments. */
  internetGateways(): Promise<InternetGateway[]> {
    return this.once('internet-gateways', async () => {
      const { sdk, client } = await this.cloud.ec2();
      return this.pages(async (NextToken) => {
        const out = await client.send(new sdk.DescribeInternetGatewaysCommand({ Filters: this.clusterFilters(), MaxResults: AWS_PAGE_SIZE.DescribeInternetGateways, NextToken }));
        return [out.InternetGateways ?? [], out.NextToken];
      });
    });
  }

  /** The cluster's route tables, with their routes and associations. */
  routeTables(): Promise<RouteTable[]> {
    return this.once('route-tables', async () => {
      const { sdk, client } = await this.cloud.ec2();
      return this.pages(async (NextToken) => {
        const out = await client.send(new sdk.DescribeRouteTablesCommand({ Filters: this.clusterFilters(), MaxResults: AWS_PAGE_SIZE.DescribeRouteTables, NextToken }));
        return [out.RouteTables ?? [], out.NextToken];
      });
    });
  }

  /** The cluster's security groups, with their ingress and egress rules. */
  securityGroups(): Promise<SecurityGroup[]> {
    return this.once('security-groups', async () => {
      const { sdk, client } = await this.cloud.ec2();
      return this.pages(async (NextToken) => {
        const out = await client.send(new sdk.DescribeSecurityGroupsCommand({ Filters: this.clusterFilters(), MaxResults: AWS_PAGE_SIZE.DescribeSecurityGroups, NextToken }));
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
        const out = await client.send(new sdk.DescribeNatGatewaysCommand({ Filter: this.clusterFilters(), MaxResults: AWS_PAGE_SIZE.DescribeNatGateways, NextToken }));
        // moto 5.2.1 ignores tag filters here and returns every gateway; the tags are checked again.
        return [(out.NatGateways ?? []).filter((g) => ownedByCluster(g.Tags, this.cloud.clusterName)), out.NextToken];
      });
    });
  }

  /** The cluster's EBS volumes (the etcd volumes). */
  volumes(): Promise<Volume[]> {
    return this.once('volumes', async () => {
      const { sdk, client } = await this.cloud.ec2();
      return this.pages(async (NextToken) => {
        const out = await client.send(new sdk.DescribeVolumesCommand({ Filters: this.clusterFilters(), MaxResults: AWS_PAGE_SIZE.DescribeVolumes, NextToken }));
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
        const out = await client.send(new sdk.DescribeLaunchTemplatesCommand({ Filters: this.clusterFilters(), MaxResults: AWS_PAGE_SIZE.DescribeLaunchTemplates, NextToken }));
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
        const out = await client.send(new sdk.DescribeLaunchTemplateVersionsCommand({ Versions: ['$Latest'], MaxResults: AWS_PAGE_SIZE.DescribeLaunchTemplateVersions, NextToken }));
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
        const out = await client.send(new sdk.DescribeAutoScalingGroupsCommand({ Filters: [{ Name: 'tag:KubernetesCluster', Values: [name] }], MaxRecords: AWS_PAGE_SIZE.DescribeAutoScalingGroups, NextToken }));
        return [out.AutoScalingGroups ?? [], out.NextToken];
      });
      return all.filter((g) => ownedByCluster(g.Tags, name));
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
   * The instance types `types` names that the region offers, with their instance-store disks and GPUs: ONE
   * paged DescribeInstanceTypes for every group's type (a type the region does not offer is not returned).
   * The preflight and the launch templates (kops's ephemeral device mappings) share the load.
   */
  instanceTypes(types: readonly string[]): Promise<InstanceTypeInfo[]> {
    const sorted = [...new Set(types)].sort();
    return this.once(`instance-types/${sorted.join(',')}`, async () => {
      if (sorted.length === 0) return [];
      const { sdk, client } = await this.cloud.ec2();
      return this.pages(async (NextToken) => {
        const out = await client.send(new sdk.DescribeInstanceTypesCommand({ Filters: [{ Name: 'instance-type', Values: sorted }], NextToken }));
        return [out.InstanceTypes ?? [], out.NextToken];
      });
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
        const out = await client.send(new sdk.GetAccountAuthorizationDetailsCommand({ Filter: ['Role'], MaxItems: AWS_PAGE_SIZE.GetAccountAuthorizationDetails, Marker }));
        return [out.RoleDetailList ?? [], out.IsTruncated ? out.Marker : undefined];
      });
      return new Map(roles.flatMap((r) => (r.RoleName ? [[r.RoleName, r] as const] : [])));
    });
  }

  /**
   * Resources the cluster uses but does not own, by the ids the spec gives (`spec.networkID`,
   * `spec.subnets[].id` and `egress`, an instance group's `securityGroupOverride`): one Describe filtered by
   * id per kind, whatever their tags. An id that does not exist is simply missing from the answer (a filter,
   * unlike `VpcIds`, does not fail the whole call). `ids` is the model's whole list, so every task shares one load.
   */
  sharedVpcs(ids: readonly string[]): Promise<Vpc[]> {
    return this.byIds('shared-vpcs', ids, async (Values, NextToken) => {
      const { sdk, client } = await this.cloud.ec2();
      const out = await client.send(new sdk.DescribeVpcsCommand({ Filters: [{ Name: 'vpc-id', Values }], NextToken }));
      return [out.Vpcs ?? [], out.NextToken];
    });
  }

  /** Existing subnets by id (see sharedVpcs). */
  sharedSubnets(ids: readonly string[]): Promise<Subnet[]> {
    return this.byIds('shared-subnets', ids, async (Values, NextToken) => {
      const { sdk, client } = await this.cloud.ec2();
      const out = await client.send(new sdk.DescribeSubnetsCommand({ Filters: [{ Name: 'subnet-id', Values }], NextToken }));
      return [out.Subnets ?? [], out.NextToken];
    });
  }

  /** Existing NAT gateways by id (see sharedVpcs). */
  sharedNatGateways(ids: readonly string[]): Promise<NatGateway[]> {
    return this.byIds('shared-nat-gateways', ids, async (Values, NextToken) => {
      const { sdk, client } = await this.cloud.ec2();
      const out = await client.send(new sdk.DescribeNatGatewaysCommand({ Filter: [{ Name: 'nat-gateway-id', Values }], NextToken }));
      return [(out.NatGateways ?? []).filter((g) => g.NatGatewayId && Values.includes(g.NatGatewayId)), out.NextToken];
    });
  }

  /** Existing security groups by id (see sharedVpcs). */
  sharedSecurityGroups(ids: readonly string[]): Promise<SecurityGroup[]> {
    return this.byIds('shared-security-groups', ids, async (Values, NextToken) => {
      const { sdk, client } = await this.cloud.ec2();
      const out = await client.send(new sdk.DescribeSecurityGroupsCommand({ Filters: [{ Name: 'group-id', Values }], NextToken }));
      return [out.SecurityGroups ?? [], out.NextToken];
    });
  }

  /** The internet gateways attached to a VPC, whatever their tags (a shared VPC's own gateway). */
  internetGatewaysOfVpc(vpcId: string): Promise<InternetGateway[]> {
    return this.once(`vpc-internet-gateways/${vpcId}`, async () => {
      const { sdk, client } = await this.cloud.ec2();
      return this.pages(async (NextToken) => {
        const out = await client.send(new sdk.DescribeInternetGatewaysCommand({ Filters: [{ Name: 'attachment.vpc-id', Values: [vpcId] }], NextToken }));
        return [out.InternetGateways ?? [], out.NextToken];
      });
    });
  }

  /**
   * Records the ids of every resource a task's find matched by name: more than one is a duplicate the plan
   * lists; one (or none) clears what an earlier find of the task recorded.
   */
  recordNameMatches(type: string, name: string, ids: readonly string[]): void {
    const key = `${type}/${name}`;
    const sorted = [...ids].sort();
    if (sorted.length > 1) this.duplicates.set(key, { type, name, ids: sorted, used: sorted[0] });
    else this.duplicates.delete(key);
  }

  /** The names that matched more than one resource, sorted by type then name (kept across invalidate()). */
  duplicateNames(): DuplicateName[] {
    return [...this.duplicates.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, d]) => ({ ...d, ids: [...d.ids] }));
  }

  /** Drops everything cached, so the next find reads the cloud again (before a retry, or after an apply). */
  invalidate(): void {
    this.cache.invalidate();
  }

  private byIds<T>(kind: string, ids: readonly string[], page: (ids: string[], token: string | undefined) => Promise<[T[], string | undefined]>): Promise<T[]> {
    const sorted = [...new Set(ids)].sort();
    if (sorted.length === 0) return Promise.resolve([]);
    return this.once(`${kind}/${sorted.join(',')}`, () => this.pages((token) => page(sorted, token)));
  }

  private once<T>(key: string, load: () => Promise<T>): Promise<T> {
    return this.cache.once(key, load);
  }

  private pages<T>(page: (token: string | undefined) => Promise<[T[], string | undefined]>): Promise<T[]> {
    return this.cache.pages(page);
  }
}
