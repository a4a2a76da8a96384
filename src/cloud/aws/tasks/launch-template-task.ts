import { HclBlock, HclExpression, type TerraformTarget } from '../../../tasks/terraform-target';
import { ImageNotResolvedError } from '../image-not-resolved-error';
import { createHash } from 'node:crypto';
import type { InstanceTypeInfo, LaunchTemplateVersion, RequestLaunchTemplateData } from '@aws-sdk/client-ec2';
import { diffFields } from '../../../tasks/diff-fields';
import { taskKey } from '../../../tasks/task';
import type { AnyTask, Change } from '../../../tasks/task';
import { TaskOutput } from '../../../tasks/task-output';
import type { AwsCloud } from '../aws-cloud';
import { classifyAwsError } from '../aws-errors';
import { tagList, tagMap, TagMap } from '../aws-tags';
import { ImageNotFoundError } from '../image-not-found-error';
import { pickImage } from '../image-ref';
import { AwsTask } from './aws-task';
import { LOAD_BALANCER_DNS_PLACEHOLDER, loadBalancerIpsOf, withLoadBalancer, withoutApiServerIps } from './launch-template-user-data';
import type { Ec2KeyPairTask } from './ec2-key-pair-task';
import type { IamInstanceProfileTask } from './iam-instance-profile-task';
import type { NetworkLoadBalancerTask } from './network-load-balancer-task';
import type { SecurityGroupTask } from './security-group-task';

export { LOAD_BALANCER_DNS_PLACEHOLDER, LOAD_BALANCER_IPS_PLACEHOLDER } from './launch-template-user-data';

/** The root volume of an instance group's instances. */
export interface RootVolumeSpec {
  /** GiB. */
  size: number;
  volumeType: string;
  encrypted: boolean;
  iops?: number;
  throughput?: number;
  /** KMS key of the encryption (`rootVolumeEncryptionKey`); default: the account's EBS key. */
  kmsKeyId?: string;
}

/** What an instance group's launch template should hold. */
export interface LaunchTemplateSpec {
  /** The instance group, for messages (`InstanceGroup/<ig> spec.image`). */
  instanceGroup: string;
  /** `ami-…`, `<owner>/<name>` or a name. */
  image: string;
  /** Every image the model needs, so that all templates resolve theirs with one load. */
  imageRefs: readonly string[];
  /** Every instance type the model uses, so that all templates read the types' instance stores with one load. */
  instanceTypes: readonly string[];
  instanceType: string;
  rootVolume: RootVolumeSpec;
  httpTokens: 'required' | 'optional';
  httpPutResponseHopLimit: number;
  securityGroup: SecurityGroupTask;
  /** Existing security groups added to the group's own (`additionalSecurityGroups`), sorted. */
  additionalSecurityGroupIds: readonly string[];
  /** Detailed (one-minute) CloudWatch monitoring (`detailedInstanceMonitoring`). */
  detailedMonitoring: boolean;
  /** `standard` or `unlimited` CPU credits for burstable types (`cpuCredits`); default: the type's own. */
  cpuCredits?: string;
  /** `dedicated` or `host` tenancy (`tenancy`); default: shared. */
  tenancy?: string;
  instanceProfile: IamInstanceProfileTask;
  keyPair?: Ec2KeyPairTask;
  /** An existing key pair named by the spec (`sshKeyName`), used instead of an imported one. */
  existingKeyName?: string;
  /** The boot script, plain text (sent base64). */
  /** The boot script; none for a bastion (a bare jump host, as in kops). */
  userData?: string;
  /**
   * The API load balancer whose DNS name user-data names in place of LOAD_BALANCER_DNS_PLACEHOLDER (a worker of
   * a cluster without DNS reaches the node-identity service through it): a dependency.
   */
  loadBalancer?: NetworkLoadBalancerTask;
  /**
   * A worker of a cluster without DNS (kops's UsesLoadBalancerForKopsController): user-data's
   * LOAD_BALANCER_IPS_PLACEHOLDER becomes the private addresses of `loadBalancer`'s network interfaces inside
   * `networkCidrs` (and any IPv6 address), kops's BootConfig.APIServerIPs, which nodeup maps the API's and the
   * node-identity service's internal names to in /etc/hosts.
   */
  loadBalancerIps?: { networkCidrs: readonly string[] };
  /** Tags of the instances and their volumes. */
  instanceTags: TagMap;
  /** Tags of the template itself. */
  tags: TagMap;
}

/** The actual state of a launch template: its latest version's data, flattened to the fields kforge sets. */
export interface LaunchTemplateActual {
  id: string;
  latestVersion: number;
  imageId?: string;
  instanceType?: string;
  rootVolume?: Record<string, unknown>;
  /** The instance-store devices, as `<device>=<ephemeralN>`. */
  ephemeralDevices?: string[];
  metadataOptions?: Record<string, unknown>;
  securityGroupIds?: string[];
  instanceProfile?: string;
  keyName?: string;
  userDataSha256?: string;
  instanceTags?: string[];
  /** The resource types the template tags at launch, sorted. */
  tagSpecTypes?: string[];
  detailedMonitoring?: boolean;
  cpuCredits?: string;
  tenancy?: string;
  tags: TagMap;
}

// kops tags the instances, their volumes and their network interfaces at launch.
const TAGGED_AT_LAUNCH = ['instance', 'network-interface', 'volume'];

/**
 * An instance group's launch template (kops's LaunchTemplate), named `<ig>.<cluster>`. A change makes a
 * new version with the full data and makes it the default; the template itself is never replaced (kops
 * PR #10151), so the ASG, which launches `$Latest`, picks the change up for new instances.
 */
export class LaunchTemplateTask extends AwsTask<LaunchTemplateActual> {
  readonly kind = 'LaunchTemplate';
  /** The template id, once it exists. */
  readonly id = new TaskOutput<string>(`LaunchTemplate/${this.name} id`);
  /** The image found for the group at find; its root device name places the root volume. */
  private image: { id: string; rootDevice: string } | undefined;
  /** The instance type's instance-store disks as kops maps them (`/dev/sdc` = `ephemeral0`, …), found with the image. */
  private ephemeral: EphemeralDevice[] = [];
  /** The load balancer's addresses for `loadBalancerIps`, found at find or apply; undefined while it does not exist. */
  private apiServerIps: string[] | undefined;

  constructor(
    name: string,
    readonly desired: LaunchTemplateSpec,
  ) {
    super(name);
  }

  override dependencies(): readonly AnyTask<AwsCloud>[] {
    const d = this.desired;
    return [d.securityGroup, d.instanceProfile, ...(d.keyPair ? [d.keyPair] : []), ...(d.loadBalancer ? [d.loadBalancer] : [])];
  }

  /**
   * The user-data with the load balancer's DNS name and addresses in place of the placeholders; `strict` throws
   * while they are unknown (apply), else the placeholders stay (a plan of a load balancer yet to be made shows a
   * change).
   */
  private userData(strict: boolean): string | undefined {
    const d = this.desired;
    if (d.userData === undefined || !d.loadBalancer) return d.userData;
    if (d.loadBalancerIps && strict && this.apiServerIps === undefined) throw new Error(`LaunchTemplate/${this.name}: the load balancer's addresses are not known (find or apply did not read them)`);
    const dns = strict ? d.loadBalancer.dnsName.get() : d.loadBalancer.dnsName.peek();
    return withLoadBalancer(taskKey(this), d.userData, dns, d.loadBalancerIps ? this.apiServerIps : undefined);
  }

  /**
   * Reads the load balancer's addresses for `loadBalancerIps` once it exists (its ARN is known; before, as in a
   * plan, they stay unknown and `strict`, apply, throws): see loadBalancerIpsOf.
   */
  private async resolveApiServerIps(cloud: AwsCloud, strict: boolean): Promise<void> {
    const d = this.desired;
    if (!d.loadBalancerIps || !d.loadBalancer) return;
    const arn = strict ? d.loadBalancer.arn.get() : d.loadBalancer.arn.peek();
    this.apiServerIps = arn === undefined ? undefined : await loadBalancerIpsOf(cloud, taskKey(this), d.loadBalancer, d.loadBalancerIps.networkCidrs);
  }

  renderTerraform(t: TerraformTarget): void {
    const d = this.desired;
    // The AMI id is resolved before rendering (read-only), as kops writes it: a name would float to newer images.
    if (!this.image) throw new ImageNotResolvedError(taskKey(this));
    const r = d.rootVolume;
    const root = new HclBlock({
      device_name: this.image.rootDevice,
      ebs: new HclBlock({ delete_on_termination: true, encrypted: r.encrypted, iops: r.iops, kms_key_id: r.kmsKeyId, throughput: r.throughput, volume_size: r.size, volume_type: r.volumeType }),
    });
    const ephemeral = this.ephemeral.map((e) => new HclBlock({ device_name: e.deviceName, virtual_name: e.virtualName }));
    t.addResource(this, 'aws_launch_template', {
      block_device_mappings: ephemeral.length > 0 ? [root, ...ephemeral] : root,
      credit_specification: d.cpuCredits ? new HclBlock({ cpu_credits: d.cpuCredits }) : undefined,
      iam_instance_profile: new HclBlock({ name: t.reference(d.instanceProfile, 'id') }),
      image_id: this.image.id,
      instance_type: d.instanceType,
      key_name: d.keyPair ? t.reference(d.keyPair, 'id') : d.existingKeyName,
      // A changed template is a new version in place; create_before_destroy covers a rename (kops sets it too).
      lifecycle: new HclBlock({ create_before_destroy: true }),
      metadata_options: new HclBlock({ http_endpoint: 'enabled', http_put_response_hop_limit: d.httpPutResponseHopLimit, http_tokens: d.httpTokens }),
      monitoring: new HclBlock({ enabled: d.detailedMonitoring }),
      name: this.name,
      placement: d.tenancy ? new HclBlock({ tenancy: d.tenancy }) : undefined,
      tag_specifications: TAGGED_AT_LAUNCH.map((type) => new HclBlock({ resource_type: type, tags: d.instanceTags })),
      tags: d.tags,
      // kops's Terraform output has no APIServerIPs (the load balancer's interfaces do not exist when it is rendered).
      user_data: d.userData === undefined ? undefined : this.terraformUserData(t, withoutApiServerIps(d.userData)),
      vpc_security_group_ids: [t.reference(d.securityGroup, 'id'), ...d.additionalSecurityGroupIds],
    });
  }

  /** user_data: the file, with the load balancer's `dns_name` put in for the placeholder by Terraform when it names one. */
  private terraformUserData(t: TerraformTarget, userData: string): HclExpression {
    const lb = this.desired.loadBalancer;
    if (!lb) return t.addFile('aws_launch_template', this.name, 'user_data', userData, 'base64');
    const file = t.addFile('aws_launch_template', this.name, 'user_data', userData, 'text');
    const dns = t.reference(lb, 'dns_name');
    return new HclExpression(() => `base64encode(replace(${file.toString()}, "${LOAD_BALANCER_DNS_PLACEHOLDER}", ${dns.toString()}))`);
  }

  /** Resolves the group's image to an AMI id and root device (read-only; one image load for all templates). */
  async resolveImage(cloud: AwsCloud): Promise<void> {
    const d = this.desired;
    const image = pickImage(await cloud.inventory.images(d.imageRefs), d.image);
    if (!image?.ImageId) throw new ImageNotFoundError(d.instanceGroup, d.image);
    this.image = { id: image.ImageId, rootDevice: image.RootDeviceName ?? '/dev/sda1' };
    this.useInstanceType((await cloud.inventory.instanceTypes(d.instanceTypes)).find((t) => t.InstanceType === d.instanceType));
  }

  /** Sets the instance type's description without asking a cloud (its instance-store disks; tests render with kops's). */
  useInstanceType(info: InstanceTypeInfo | undefined): void {
    this.ephemeral = ephemeralDevices(info);
  }

  /** Sets the resolved image without asking a cloud (rendering with a known image, tests). */
  useImage(image: { id: string; rootDevice: string }): void {
    this.image = image;
  }

  async find(cloud: AwsCloud): Promise<LaunchTemplateActual | undefined> {
    await this.resolveImage(cloud);
    await this.resolveApiServerIps(cloud, false);
    const t = (await cloud.inventory.launchTemplates()).find((x) => x.LaunchTemplateName === this.name);
    if (!t?.LaunchTemplateId) return undefined;
    this.id.set(t.LaunchTemplateId);
    const v = (await cloud.inventory.launchTemplateVersions()).find((x) => x.LaunchTemplateId === t.LaunchTemplateId);
    return { id: t.LaunchTemplateId, latestVersion: v?.VersionNumber ?? t.LatestVersionNumber ?? 1, ...flatten(v), tags: tagMap(t.Tags) };
  }

  diff(actual: LaunchTemplateActual | undefined): Change[] {
    const d = this.desired;
    const sg = d.securityGroup.id.peek();
    return diffFields(actual as unknown as Record<string, unknown>, {
      imageId: this.image?.id,
      instanceType: d.instanceType,
      rootVolume: this.rootVolume(),
      ephemeralDevices: this.ephemeral.map((e) => `${e.deviceName}=${e.virtualName}`),
      metadataOptions: { httpPutResponseHopLimit: d.httpPutResponseHopLimit, httpTokens: d.httpTokens },
      securityGroupIds: sg ? [sg, ...d.additionalSecurityGroupIds] : undefined,
      instanceProfile: d.instanceProfile.name,
      keyName: d.keyPair?.keyName ?? d.existingKeyName,
      userDataSha256: d.userData === undefined ? undefined : sha256(this.userData(false) as string),
      instanceTags: tagStrings(d.instanceTags),
      tagSpecTypes: TAGGED_AT_LAUNCH,
      detailedMonitoring: d.detailedMonitoring,
      // '' is "the default": a setting removed from the spec is then a change back.
      cpuCredits: d.cpuCredits ?? '',
      tenancy: d.tenancy ?? '',
      tags: d.tags,
    });
  }

  async apply(cloud: AwsCloud, actual: LaunchTemplateActual | undefined, changes: readonly Change[]): Promise<void> {
    const { sdk, client } = await cloud.ec2();
    // The addresses as they are now (the plan may have run before the load balancer existed).
    if (changes.some((c) => !c.field.startsWith('tags.')) || !actual) await this.resolveApiServerIps(cloud, true);
    if (!actual) {
      try {
        const out = await client.send(
          new sdk.CreateLaunchTemplateCommand({
            LaunchTemplateName: this.name,
            ClientToken: cloud.clientToken(taskKey(this)),
            LaunchTemplateData: this.data(),
            TagSpecifications: this.tagSpec('launch-template', this.desired.tags),
          }),
        );
        if (!out.LaunchTemplate?.LaunchTemplateId) throw new Error('CreateLaunchTemplate returned no LaunchTemplateId');
        this.id.set(out.LaunchTemplate.LaunchTemplateId);
        return;
      } catch (e) {
        // A resent create whose token was not honoured (moto ignores it) meets the template the first one
        // made: find it again by its tags and bring it up to date. An untagged template of that name is
        // not ours, and the error stands.
        if (classifyAwsError(e) !== 'already-exists') throw e;
        cloud.inventory.invalidate();
        const found = await this.find(cloud);
        if (!found) throw e;
        await this.apply(cloud, found, this.diff(found));
        return;
      }
    }
    if (changes.some((c) => !c.field.startsWith('tags.'))) {
      const data = this.data();
      // The full data every time, never SourceVersion: a version must not inherit fields the model dropped
      // (and moto does not merge a source version). The token is per content, so a resend makes no twin.
      const out = await client.send(
        new sdk.CreateLaunchTemplateVersionCommand({
          LaunchTemplateId: actual.id,
          LaunchTemplateData: data,
          ClientToken: cloud.clientToken(`${taskKey(this)}@${sha256(JSON.stringify(data))}`),
        }),
      );
      const version = out.LaunchTemplateVersion?.VersionNumber;
      if (version === undefined) throw new Error('CreateLaunchTemplateVersion returned no VersionNumber');
      await client.send(new sdk.ModifyLaunchTemplateCommand({ LaunchTemplateId: actual.id, DefaultVersion: String(version) }));
    }
    await this.updateTags(cloud, actual.id, changes);
  }

  /** The root volume as compared: the device comes from the image. */
  private rootVolume(): Record<string, unknown> | undefined {
    if (!this.image) return undefined;
    const r = this.desired.rootVolume;
    return { deviceName: this.image.rootDevice, encrypted: r.encrypted, iops: r.iops, kmsKeyId: r.kmsKeyId, size: r.size, throughput: r.throughput, volumeType: r.volumeType };
  }

  /** The full launch template data of the desired state. */
  private data(): RequestLaunchTemplateData {
    const d = this.desired;
    if (!this.image) throw new Error(`LaunchTemplate/${this.name}: the image was not resolved (find did not run)`);
    const r = d.rootVolume;
    const instanceTags = tagList(d.instanceTags);
    return {
      ImageId: this.image.id,
      InstanceType: d.instanceType as never,
      BlockDeviceMappings: [
        {
          DeviceName: this.image.rootDevice,
          Ebs: { VolumeSize: r.size, VolumeType: r.volumeType as never, Encrypted: r.encrypted, Iops: r.iops, KmsKeyId: r.kmsKeyId, Throughput: r.throughput, DeleteOnTermination: true },
        },
        ...this.ephemeral.map((e) => ({ DeviceName: e.deviceName, VirtualName: e.virtualName })),
      ],
      Monitoring: { Enabled: d.detailedMonitoring },
      CreditSpecification: d.cpuCredits ? { CpuCredits: d.cpuCredits } : undefined,
      Placement: d.tenancy ? { Tenancy: d.tenancy as never } : undefined,
      MetadataOptions: { HttpEndpoint: 'enabled', HttpTokens: d.httpTokens, HttpPutResponseHopLimit: d.httpPutResponseHopLimit },
      SecurityGroupIds: [d.securityGroup.id.get(), ...d.additionalSecurityGroupIds],
      IamInstanceProfile: { Name: d.instanceProfile.name },
      KeyName: d.keyPair?.keyName ?? d.existingKeyName,
      UserData: d.userData === undefined ? undefined : Buffer.from(this.userData(true) as string, 'utf8').toString('base64'),
      TagSpecifications: TAGGED_AT_LAUNCH.map((type) => ({ ResourceType: type as never, Tags: instanceTags })),
    };
  }
}

/** The fields kforge sets, read from a version's data. */
function flatten(v: LaunchTemplateVersion | undefined): Omit<LaunchTemplateActual, 'id' | 'latestVersion' | 'tags'> {
  const data = v?.LaunchTemplateData;
  if (!data) return {};
  const root = data.BlockDeviceMappings?.[0];
  const ebs = root?.Ebs;
  const instance = data.TagSpecifications?.find((t) => t.ResourceType === 'instance');
  return {
    imageId: data.ImageId,
    instanceType: data.InstanceType,
    ephemeralDevices: (data.BlockDeviceMappings ?? []).flatMap((m) => (m.VirtualName ? [`${m.DeviceName}=${m.VirtualName}`] : [])),
    rootVolume: root
      ? { deviceName: root.DeviceName, encrypted: ebs?.Encrypted, iops: ebs?.Iops, kmsKeyId: ebs?.KmsKeyId, size: ebs?.VolumeSize, throughput: ebs?.Throughput, volumeType: ebs?.VolumeType }
      : undefined,
    metadataOptions: data.MetadataOptions
      ? { httpPutResponseHopLimit: data.MetadataOptions.HttpPutResponseHopLimit, httpTokens: data.MetadataOptions.HttpTokens }
      : undefined,
    securityGroupIds: data.SecurityGroupIds,
    instanceProfile: data.IamInstanceProfile?.Name,
    keyName: data.KeyName,
    userDataSha256: data.UserData ? sha256(Buffer.from(data.UserData, 'base64').toString('utf8')) : undefined,
    instanceTags: instance ? tagStrings(tagMap(instance.Tags)) : undefined,
    // moto also lists the template's own tags (type launch-template) here; only the launch-time types count.
    tagSpecTypes: (data.TagSpecifications ?? []).flatMap((t) => (t.ResourceType && TAGGED_AT_LAUNCH.includes(t.ResourceType) ? [t.ResourceType] : [])).sort(),
    detailedMonitoring: data.Monitoring?.Enabled ?? false,
    cpuCredits: data.CreditSpecification?.CpuCredits ?? '',
    tenancy: data.Placement?.Tenancy === undefined || data.Placement.Tenancy === 'default' ? '' : data.Placement.Tenancy,
  };
}

/** An instance-store disk's block device mapping. */
interface EphemeralDevice {
  deviceName: string;
  virtualName: string;
}

/**
 * kops's EphemeralDevices (awsup/machine_types.go): every instance-store disk of the type, counted out of
 * DescribeInstanceTypes, mapped as `/dev/sdc` = `ephemeral0`, `/dev/sdd` = `ephemeral1`, … (kops stops at 20).
 */
function ephemeralDevices(info: InstanceTypeInfo | undefined): EphemeralDevice[] {
  const count = (info?.InstanceStorageInfo?.Disks ?? []).reduce((n, d) => n + (d.Count ?? 0), 0);
  return Array.from({ length: Math.min(count, 20) }, (_, i) => ({ deviceName: `/dev/sd${String.fromCharCode('c'.charCodeAt(0) + i)}`, virtualName: `ephemeral${i}` }));
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** Tags as sorted `key=value` strings: compared as a whole (a stray instance tag is a change) and readable in a plan. */
function tagStrings(tags: TagMap): string[] {
  return Object.keys(tags)
    .sort()
    .map((k) => `${k}=${tags[k]}`);
}
