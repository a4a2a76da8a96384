import type { TerraformTarget } from '../../../tasks/terraform-target';
import { diffFields } from '../../../tasks/diff-fields';
import { taskKey } from '../../../tasks/task';
import type { Change } from '../../../tasks/task';
import { TaskOutput } from '../../../tasks/task-output';
import type { AwsCloud } from '../aws-cloud';
import { tagMap, TagMap } from '../aws-tags';
import { AwsTask } from './aws-task';

/** The actual state of an EBS volume. */
export interface EbsVolumeActual {
  id: string;
  zone?: string;
  size?: number;
  volumeType?: string;
  encrypted?: boolean;
  iops?: number;
  throughput?: number;
  tags: TagMap;
}

/** What an etcd member's volume should be. */
export interface EbsVolumeSpec {
  zone: string;
  /** GiB. */
  size: number;
  volumeType: string;
  encrypted: boolean;
  iops?: number;
  throughput?: number;
  tags: TagMap;
}

/**
 * An etcd member's data volume (kops's EBSVolume), named `<member>.etcd-<etcd>.<cluster>`; protokube on the
 * control plane finds it by its `k8s.io/etcd/<etcd>` tag and attaches it. Created once and never replaced:
 * its data is the cluster's state.
 */
export class EbsVolumeTask extends AwsTask<EbsVolumeActual> {
  readonly kind = 'EBSVolume';
  /** The volume id, once it exists. */
  readonly id = new TaskOutput<string>(`EBSVolume/${this.name} id`);
  protected override readonly immutable = {
    zone: 'a volume cannot move to another zone',
    size: 'kforge does not resize etcd volumes (kops does not either)',
    volumeType: 'kforge does not change the type of an etcd volume',
    encrypted: 'a volume cannot be encrypted or decrypted in place',
    iops: 'kforge does not modify the IOPS of an etcd volume yet',
    throughput: 'kforge does not modify the throughput of an etcd volume yet',
  };

  constructor(
    name: string,
    readonly desired: EbsVolumeSpec,
  ) {
    super(name);
  }

  renderTerraform(t: TerraformTarget): void {
    const d = this.desired;
    t.addResource(this, 'aws_ebs_volume', { availability_zone: d.zone, encrypted: d.encrypted, iops: d.iops, size: d.size, tags: d.tags, throughput: d.throughput, type: d.volumeType });
  }

  async find(cloud: AwsCloud): Promise<EbsVolumeActual | undefined> {
    // A deleted volume is gone for good; one being deleted is not ours to keep.
    const live = (await cloud.inventory.volumes()).filter((v) => v.State !== 'deleting' && v.State !== 'deleted' && v.State !== 'error');
    const v = this.pickOwn(cloud, live, (x) => x.VolumeId);
    if (!v?.VolumeId) return undefined;
    this.id.set(v.VolumeId);
    return { id: v.VolumeId, zone: v.AvailabilityZone, size: v.Size, volumeType: v.VolumeType, encrypted: v.Encrypted, iops: v.Iops, throughput: v.Throughput, tags: tagMap(v.Tags) };
  }

  diff(actual: EbsVolumeActual | undefined): Change[] {
    const d = this.desired;
    return diffFields(actual as unknown as Record<string, unknown>, {
      zone: d.zone,
      size: d.size,
      volumeType: d.volumeType,
      encrypted: d.encrypted,
      iops: d.iops,
      throughput: d.throughput,
      tags: d.tags,
    });
  }

  async apply(cloud: AwsCloud, actual: EbsVolumeActual | undefined, changes: readonly Change[]): Promise<void> {
    if (actual) {
      await this.updateTags(cloud, actual.id, changes);
      return;
    }
    const { sdk, client } = await cloud.ec2();
    const d = this.desired;
    const out = await client.send(
      new sdk.CreateVolumeCommand({
        AvailabilityZone: d.zone,
        Size: d.size,
        VolumeType: d.volumeType as never,
        Encrypted: d.encrypted,
        Iops: d.iops,
        Throughput: d.throughput,
        ClientToken: cloud.clientToken(taskKey(this)),
        TagSpecifications: this.tagSpec('volume', d.tags),
      }),
    );
    if (!out.VolumeId) throw new Error('CreateVolume returned no VolumeId');
    this.id.set(out.VolumeId);
  }
}
