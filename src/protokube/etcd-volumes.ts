import type { AwsCloud } from '../cloud/aws/aws-cloud';
import { awsErrorMessage, classifyAwsError } from '../cloud/aws/aws-errors';
import { tagMap } from '../cloud/aws/aws-tags';
import { withAwsRetries } from '../cloud/aws/with-aws-retries';
import { ProtokubeError } from './protokube-error';

/** One etcd member's EBS volume, as its tags describe it (etcd-volume-model-builder.ts sets them). */
export interface EtcdVolume {
  id: string;
  zone: string;
  /** The etcd cluster, from the `k8s.io/etcd/<etcd>` tag key. */
  etcdName: string;
  /** The member, from the tag value `<member>/<all members>`. */
  memberName: string;
  /** The instance it is attached to (any attachment state but detached), if any. */
  attachedTo?: string;
  /** The device name of that attachment, e.g. `/dev/xvdu`. */
  device?: string;
}

/** How a claim ended: this machine holds the volume, or another one got it first. */
export type ClaimResult = { won: true; device: string } | { won: false; reason: string };

const ETCD_TAG_PREFIX = 'k8s.io/etcd/';

/** Every etcd volume of the cluster in every zone (DescribeVolumes by the KubernetesCluster tag, all pages). */
export async function listEtcdVolumes(cloud: AwsCloud): Promise<EtcdVolume[]> {
  const { sdk, client } = await cloud.ec2();
  const out: EtcdVolume[] = [];
  let token: string | undefined;
  do {
    const page = await withAwsRetries(() =>
      client.send(new sdk.DescribeVolumesCommand({ Filters: [{ Name: 'tag:KubernetesCluster', Values: [cloud.clusterName] }], NextToken: token })),
    );
    for (const v of page.Volumes ?? []) {
      if (!v.VolumeId || v.State === 'deleting' || v.State === 'deleted' || v.State === 'error') continue;
      const tags = tagMap(v.Tags);
      const key = Object.keys(tags).find((k) => k.startsWith(ETCD_TAG_PREFIX));
      if (!key) continue;
      const attachment = (v.Attachments ?? []).find((a) => a.State !== 'detached');
      out.push({
        id: v.VolumeId,
        zone: v.AvailabilityZone ?? '',
        etcdName: key.slice(ETCD_TAG_PREFIX.length),
        memberName: tags[key].split('/')[0],
        attachedTo: attachment?.InstanceId,
        device: attachment?.Device,
      });
    }
    token = page.NextToken;
  } while (token);
  return out.sort((a, b) => a.etcdName.localeCompare(b.etcdName) || a.memberName.localeCompare(b.memberName) || a.id.localeCompare(b.id));
}

/**
 * Attaches `volume` to `instanceId` at `device`, and decides who won by the cloud's answer, not a local
 * guess: AWS refuses to attach a volume another instance holds (VolumeInUse: lost); after a successful
 * call, DescribeVolumes must show the attachment as this instance's, or the claim is lost too.
 */
export async function claimVolume(cloud: AwsCloud, volume: EtcdVolume, instanceId: string, device: string): Promise<ClaimResult> {
  const { sdk, client } = await cloud.ec2();
  try {
    // Not retried on "in use": for an attach that is the answer, not a transient state.
    await client.send(new sdk.AttachVolumeCommand({ VolumeId: volume.id, InstanceId: instanceId, Device: device }));
  } catch (e) {
    if (classifyAwsError(e) === 'resource-in-use') return { won: false, reason: `${volume.id} is attached to another instance (${awsErrorMessage(e)})` };
    throw new ProtokubeError(`attaching etcd volume ${volume.id} (${volume.etcdName} member ${volume.memberName}) to ${instanceId} at ${device}: ${awsErrorMessage(e)}`);
  }
  const owner = await volumeOwner(cloud, volume.id);
  if (owner?.instanceId !== instanceId) return { won: false, reason: `${volume.id} is attached to ${owner?.instanceId ?? 'no instance'} after the attach` };
  return { won: true, device: owner.device ?? device };
}

/** The instance a volume is attached to now (DescribeVolumes), with the device name. */
export async function volumeOwner(cloud: AwsCloud, volumeId: string): Promise<{ instanceId?: string; device?: string } | undefined> {
  const { sdk, client } = await cloud.ec2();
  const r = await withAwsRetries(() => client.send(new sdk.DescribeVolumesCommand({ VolumeIds: [volumeId] })));
  const a = (r.Volumes?.[0]?.Attachments ?? []).find((x) => x.State !== 'detached');
  return a ? { instanceId: a.InstanceId, device: a.Device } : undefined;
}

/** The private address of each instance, by id (DescribeInstances); instances without one are left out. */
export async function instanceAddresses(cloud: AwsCloud, instanceIds: string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  if (instanceIds.length === 0) return out;
  const { sdk, client } = await cloud.ec2();
  let token: string | undefined;
  do {
    const page = await withAwsRetries(() => client.send(new sdk.DescribeInstancesCommand({ InstanceIds: [...new Set(instanceIds)].sort(), NextToken: token })));
    for (const r of page.Reservations ?? []) for (const i of r.Instances ?? []) if (i.InstanceId && i.PrivateIpAddress) out.set(i.InstanceId, i.PrivateIpAddress);
    token = page.NextToken;
  } while (token);
  return out;
}
