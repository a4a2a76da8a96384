import type { TerraformTarget } from '../../../tasks/terraform-target';
import { GceTask } from './gce-task';

/** The desired persistent disk. */
export interface GceDiskDesired extends Record<string, string | number | Readonly<Record<string, string>> | undefined> {
  zone: string;
  sizeGb: number;
  /** `pd-ssd` (kops's etcd default), `pd-standard`, `pd-balanced`, … */
  type: string;
  /** kops's labels: the cluster, the control-plane role and the etcd member, by which protokube finds it. */
  labels: Readonly<Record<string, string>>;
  provisionedIops: number | undefined;
  provisionedThroughput: number | undefined;
}

/** A zonal persistent disk (kops's gcetasks.Disk): an etcd member's data. */
export class GceDiskTask extends GceTask<GceDiskDesired> {
  readonly kind = 'Disk';
  protected override readonly immutable = ['zone', 'type'] as const;

  /** None: the instance attaches it at boot (protokube). */
  dependencies(): readonly never[] {
    return [];
  }

  /** `google_compute_disk`. */
  renderTerraform(t: TerraformTarget): void {
    const d = this.desired;
    t.addResource(this, 'google_compute_disk', { labels: d.labels, name: this.name, provisioned_iops: d.provisionedIops, provisioned_throughput: d.provisionedThroughput, size: d.sizeGb, type: d.type, zone: d.zone });
  }
}
