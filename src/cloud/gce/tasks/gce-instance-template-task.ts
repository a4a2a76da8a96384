import { createHash } from 'node:crypto';
import { HclBlock, TerraformTarget } from '../../../tasks/terraform-target';
import type { GceNetworkTask } from './gce-network-task';
import type { GceServiceAccountTask } from './gce-service-account-task';
import type { GceSubnetworkTask } from './gce-subnetwork-task';
import { GceTask } from './gce-task';

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

  /** The network and subnetwork its instances join, and its service account. */
  dependencies(): readonly (GceNetworkTask | GceSubnetworkTask | GceServiceAccountTask)[] {
    return [this.network, this.subnetwork, ...(this.serviceAccount ? [this.serviceAccount] : [])];
  }

  /** The template's GCE name: the prefix and the first 8 hex characters of the content's sha256 (a change, a new name). */
  templateName(): string {
    const content = JSON.stringify(Object.entries(this.desired).sort(([a], [b]) => (a < b ? -1 : 1)));
    return `${this.desired.namePrefix}-${createHash('sha256').update(content).digest('hex').slice(0, 8)}`;
  }

  /** `google_compute_instance_template` in kops's shape; the user-data goes to `data/` as kops does. */
  renderTerraform(t: TerraformTarget): void {
    const d = this.desired;
    const resource = this.name.replace(/\./g, '-');
    const metadata = Object.fromEntries(
      Object.keys(d.metadata)
        .sort()
        .map((k) => [k, k === 'user-data' || k === 'startup-script' ? t.addFile('google_compute_instance_template', resource, `metadata_${k}`, d.metadata[k]) : d.metadata[k]]),
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
}
