import { createHash } from 'node:crypto';
import { HclBlock, HclExpression, TerraformTarget } from '../../../tasks/terraform-target';
import { GceAddressTask, gceAddressPlaceholder } from './gce-address-task';
import type { GceNetworkTask } from './gce-network-task';
import type { GceServiceAccountTask } from './gce-service-account-task';
import type { GceSubnetworkTask } from './gce-subnetwork-task';
import type { GceCloud } from '../gce-cloud';
import { GCE_COLLECTIONS, GceResource } from '../gce-compute';
import { gceUrl, GceTask } from './gce-task';

/** The desired instance template of one instance group (kops's gcetasks.InstanceTemplate). */
export interface GceInstanceTemplateDesired extends Record<string, string | number | boolean | readonly string[] | Readonly<Record<string, string>> | undefined> {
  /** kops's name prefix: `<group>-<cluster>` cut to 32 characters with a hash; GCE appends the content suffix. */
  namePrefix: string;
  machineType: string;
  /** `project/image` or a full URL; rendered as kops renders it (a full URL). */
  image: string;
  bootDiskSizeGb: number;
  bootDiskType: string;
  /** The service account's email (`default`, or the cluster's per-role account). */
  serviceAccountEmail: string | undefined;
  scopes: readonly string[];
  /** Network tags the firewall rules target. */
  tags: readonly string[];
  labels: Readonly<Record<string, string>>;
  /** Metadata items by key (`cluster-name`, `kops-k8s-io-instance-group-name`, `user-data`, `ssh-keys`, `kube-env`). */
  metadata: Readonly<Record<string, string>>;
  canIpForward: boolean;
  externalIp: boolean;
  /** `STANDARD` or `SPOT` (spec.gcpProvisioningModel); SPOT is preemptible. */
  provisioningModel: string;
  stackType: string;
}

/**
 * An instance template. Templates are immutable in GCE: the resource's name is the prefix plus a suffix from
 * the content's hash, so any change makes a new template (Terraform: `name_prefix` with
 * create_before_destroy, as kops renders it) and the MIG is pointed at it.
 */
export class GceInstanceTemplateTask extends GceTask<GceInstanceTemplateDesired> {
  readonly kind = 'InstanceTemplate';

  constructor(
    name: string,
    desired: GceInstanceTemplateDesired,
    readonly network: GceNetworkTask,
    readonly subnetwork: GceSubnetworkTask,
    /** The cluster's account of the group's role; absent: `serviceAccountEmail` (the spec's). */
    readonly serviceAccount?: GceServiceAccountTask,
  ) {
    super(name, desired);
  }

  /**
   * The internal API addresses whose IPs a worker's boot script names (gceAddressPlaceholder): dependencies,
   * so they are found (or made) first and the template's content, and so its name, has their IPs.
   */
  readonly apiAddresses: GceAddressTask[] = [];

  /** The network and subnetwork its instances join, its service account, and the API addresses its boot script names. */
  dependencies(): readonly (GceNetworkTask | GceSubnetworkTask | GceServiceAccountTask | GceAddressTask)[] {
    return [this.network, this.subnetwork, ...(this.serviceAccount ? [this.serviceAccount] : []), ...this.apiAddresses];
  }

  /** The desired content with each API address's IP in place of its placeholder, once the address's IP is known. */
  private resolved(): GceInstanceTemplateDesired {
    if (this.apiAddresses.length === 0) return this.desired;
    const metadata: Record<string, string> = {};
    for (const [k, v] of Object.entries(this.desired.metadata)) {
      let value = v;
      for (const a of this.apiAddresses) {
        if (a.ip === undefined) continue;
        // The IP goes into a YAML line of the boot config: only an IPv4 or IPv6 address is put there.
        if (!/^[0-9a-fA-F.:]+$/.test(a.ip)) throw new Error(`InstanceTemplate/${this.name}: the address ${a.name} has IP ${JSON.stringify(a.ip)}, not an IP address`);
        value = value.split(gceAddressPlaceholder(a.name)).join(a.ip);
      }
      metadata[k] = value;
    }
    return { ...this.desired, metadata };
  }

  /** The template's GCE name: the prefix and the first 8 hex characters of the content's sha256 (a change, a new name). */
  templateName(): string {
    const content = JSON.stringify(Object.entries(this.resolved()).sort(([a], [b]) => (a < b ? -1 : 1)));
    return `${this.desired.namePrefix}-${createHash('sha256').update(content).digest('hex').slice(0, 8)}`;
  }

  /** The template of this content, by its content-hashed name. */
  protected override read(cloud: GceCloud): Promise<GceResource | undefined> {
    return cloud.inventory.get(GCE_COLLECTIONS.instanceTemplates, undefined, this.templateName());
  }

  /** The name is the content's hash: a template of that name has exactly this content. */
  protected override actualOf(): GceInstanceTemplateDesired {
    return this.desired;
  }

  /** Templates are immutable: a change is a new template (a new name), so only create is ever applied. */
  protected override async create(cloud: GceCloud): Promise<void> {
    const d = this.resolved();
    for (const a of this.apiAddresses) if (a.ip === undefined) throw new Error(`InstanceTemplate/${this.name}: the IP of address ${a.name} is not known; it is a dependency and must exist first`);
    const image = d.image.startsWith('https://') ? d.image : `https://www.googleapis.com/compute/v1/projects/${d.image.replace('/', '/global/images/')}`;
    const spot = d.provisioningModel === 'SPOT';
    const email = this.serviceAccount ? this.serviceAccount.email() : (d.serviceAccountEmail ?? 'default');
    await this.insert(cloud, GCE_COLLECTIONS.instanceTemplates, undefined, {
      name: this.templateName(),
      properties: {
        machineType: d.machineType,
        canIpForward: d.canIpForward,
        disks: [{ autoDelete: true, boot: true, deviceName: 'persistent-disks-0', mode: 'READ_WRITE', type: 'PERSISTENT', initializeParams: { sourceImage: image, diskSizeGb: String(d.bootDiskSizeGb), diskType: d.bootDiskType } }],
        networkInterfaces: [{ network: gceUrl(cloud, `global/networks/${this.network.name}`), subnetwork: gceUrl(cloud, `regions/${this.subnetwork.desired.region}/subnetworks/${this.subnetwork.name}`), stackType: d.stackType, accessConfigs: d.externalIp ? [{ name: 'external-nat', type: 'ONE_TO_ONE_NAT' }] : [] }],
        serviceAccounts: [{ email, scopes: [...d.scopes] }],
        tags: { items: [...d.tags] },
        labels: { ...d.labels },
        metadata: { items: Object.keys(d.metadata).sort().map((key) => ({ key, value: d.metadata[key] })) },
        scheduling: { automaticRestart: !spot, onHostMaintenance: spot ? 'TERMINATE' : 'MIGRATE', preemptible: spot, provisioningModel: d.provisioningModel },
      },
    });
  }

  /** `google_compute_instance_template` in kops's shape; the user-data goes to `data/` as kops does. */
  renderTerraform(t: TerraformTarget): void {
    const d = this.desired;
    const resource = this.name.replace(/\./g, '-');
    const metadata = Object.fromEntries(
      Object.keys(d.metadata)
        .sort()
        .map((k) => [k, k === 'user-data' || k === 'startup-script' ? this.bootScriptRef(t, resource, k) : d.metadata[k]]),
    );
    const image = d.image.startsWith('https://') ? d.image : `https://www.googleapis.com/compute/v1/projects/${d.image.replace('/', '/global/images/')}`;
    const spot = d.provisioningModel === 'SPOT';
    t.addResource(this, 'google_compute_instance_template', {
      can_ip_forward: d.canIpForward,
      disk: new HclBlock({ auto_delete: true, boot: true, device_name: 'persistent-disks-0', disk_size_gb: d.bootDiskSizeGb, disk_type: d.bootDiskType, mode: 'READ_WRITE', source_image: image, type: 'PERSISTENT' }),
      labels: d.labels,
      lifecycle: new HclBlock({ create_before_destroy: true }),
      machine_type: d.machineType,
      metadata,
      name_prefix: `${d.namePrefix}-`,
      network_interface: new HclBlock({
        ...(d.externalIp ? { access_config: new HclBlock({}) } : {}),
        network: this.network.networkRef(t),
        stack_type: d.stackType,
        subnetwork: this.subnetwork.subnetworkRef(t),
      }),
      scheduling: new HclBlock({ automatic_restart: !spot, on_host_maintenance: spot ? 'TERMINATE' : 'MIGRATE', preemptible: spot, provisioning_model: d.provisioningModel }),
      service_account: new HclBlock({ email: this.serviceAccount ? t.reference(this.serviceAccount, 'email') : (d.serviceAccountEmail ?? 'default'), scopes: d.scopes }),
      tags: d.tags,
    });
  }

  /** The boot script's `data/` file, with Terraform putting each API address's IP in place of its placeholder. */
  private bootScriptRef(t: TerraformTarget, resource: string, key: string): HclExpression {
    const file = t.addFile('google_compute_instance_template', resource, `metadata_${key}`, this.desired.metadata[key] ?? '');
    if (this.apiAddresses.length === 0) return file;
    return new HclExpression(() => this.apiAddresses.reduce((expr, a) => `replace(${expr}, "${gceAddressPlaceholder(a.name)}", ${t.reference(a, 'address').toString()})`, file.toString()));
  }
}
