import type { TerraformTarget } from '../../../tasks/terraform-target';
import type { Change } from '../../../tasks/task';
import type { GceCloud } from '../gce-cloud';
import { GCE_COLLECTIONS, GceResource } from '../gce-compute';
import { GceTask, lastSegment } from './gce-task';

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

  /** The disk in its zone. */
  protected override read(cloud: GceCloud): Promise<GceResource | undefined> {
    return cloud.inventory.get(GCE_COLLECTIONS.disks, this.desired.zone, this.name);
  }

  /** Size, type and labels; provisioned performance as GCE reports it. */
  protected override actualOf(r: GceResource): GceDiskDesired {
    const n = (v: unknown) => (v === undefined || v === null ? undefined : Number(v));
    return { zone: this.desired.zone, sizeGb: Number(r.sizeGb ?? 0), type: lastSegment(r.type) ?? '', labels: (r.labels ?? {}) as Record<string, string>, provisionedIops: n(r.provisionedIops), provisionedThroughput: n(r.provisionedThroughput) };
  }

  /** The disk with kops's labels, which protokube finds it by. */
  protected override async create(cloud: GceCloud): Promise<void> {
    const d = this.desired;
    await this.insert(cloud, GCE_COLLECTIONS.disks, d.zone, { name: this.name, sizeGb: String(d.sizeGb), type: `zones/${d.zone}/diskTypes/${d.type}`, labels: { ...d.labels }, ...(d.provisionedIops !== undefined ? { provisionedIops: String(d.provisionedIops) } : {}), ...(d.provisionedThroughput !== undefined ? { provisionedThroughput: String(d.provisionedThroughput) } : {}) });
  }

  /** Labels are set with the current labelFingerprint (412 when stale: re-read, retry); a disk grows with resize. */
  protected override async update(cloud: GceCloud, changes: readonly Change[]): Promise<void> {
    const z = this.desired.zone;
    for (const c of changes) {
      if (c.field === 'labels') {
        const current = await this.read(cloud);
        await cloud.compute.method(GCE_COLLECTIONS.disks, z, 'setLabels', this.name, { resource: this.name, zoneSetLabelsRequestResource: { labels: { ...this.desired.labels }, labelFingerprint: current?.labelFingerprint } });
      } else if (c.field === 'sizeGb') await cloud.compute.method(GCE_COLLECTIONS.disks, z, 'resize', this.name, { disksResizeRequestResource: { sizeGb: String(this.desired.sizeGb) } });
      else await super.update(cloud, [c]);
    }
  }

  /** `google_compute_disk`. */
  renderTerraform(t: TerraformTarget): void {
    const d = this.desired;
    t.addResource(this, 'google_compute_disk', { labels: d.labels, name: this.name, provisioned_iops: d.provisionedIops, provisioned_throughput: d.provisionedThroughput, size: d.sizeGb, type: d.type, zone: d.zone });
  }
}
