import * as path from 'node:path';
import type { AwsCloud } from '../cloud/aws/aws-cloud';
import { awsErrorMessage } from '../cloud/aws/aws-errors';
import { claimVolume, ClaimResult, EtcdVolume, instanceAddresses, listEtcdVolumes } from './etcd-volumes';
import { GceComputeRest } from './gce-compute-rest';
import { claimGceDisk, gceInstanceAddresses, listGceEtcdDisks } from './gce-etcd-disks';
import { ProtokubeError } from './protokube-error';

/** The calls protokube makes for the etcd volumes, on whichever cloud the boot config names. */
export interface EtcdVolumeCloud {
  /** Every etcd volume of the cluster it can see (AWS: every zone; GCE: this zone). */
  list(): Promise<EtcdVolume[]>;
  /** Attaches `volume` to `instanceId` (at `device` where the cloud takes one); the cloud's answer decides a race. */
  claim(volume: EtcdVolume, instanceId: string, device: string): Promise<ClaimResult>;
  /** The internal address of each instance, by id. */
  addresses(instanceIds: string[]): Promise<Map<string, string>>;
}

/** AWS: EC2's DescribeVolumes / AttachVolume / DescribeInstances (etcd-volumes.ts), call for call as before. */
export function awsEtcdVolumeCloud(cloud: AwsCloud): EtcdVolumeCloud {
  return {
    async list() {
      try {
        return await listEtcdVolumes(cloud);
      } catch (e) {
        if (e instanceof ProtokubeError) throw e;
        throw new ProtokubeError(`listing the etcd volumes of cluster ${cloud.clusterName}: ${awsErrorMessage(e)}`);
      }
    },
    claim: (volume, instanceId, device) => claimVolume(cloud, volume, instanceId, device),
    addresses: (ids) => instanceAddresses(cloud, ids),
  };
}

/**
 * GCE: the zone's persistent disks by kops's labels, Instances.AttachDisk (gce-etcd-disks.ts, over gce-compute-rest.ts). Instance ids
 * are instance names (what AttachDisk and a disk's `users` name); a disk's device is where GCE's udev rules
 * put it, `<deviceDir>/google-<device name>`.
 */
export function gceEtcdVolumeCloud(project: string, zone: string, safeClusterName: string, deviceDir: string, env: NodeJS.ProcessEnv = process.env): EtcdVolumeCloud {
  const compute = new GceComputeRest(project, zone, env);
  const devicePath = (name: string) => path.join(deviceDir, `google-${name}`);
  return {
    async list() {
      return (await listGceEtcdDisks(compute, safeClusterName)).map((v) => (v.device ? { ...v, device: devicePath(v.device) } : v));
    },
    async claim(volume, instanceId) {
      const r = await claimGceDisk(compute, volume, instanceId);
      return r.won ? { won: true, device: devicePath(r.device) } : r;
    },
    addresses: (names) => gceInstanceAddresses(compute, names),
  };
}
