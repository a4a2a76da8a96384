import { CreateSubnetCommand, CreateVolumeCommand, CreateVpcCommand, DescribeImagesCommand, EC2Client, RunInstancesCommand } from '@aws-sdk/client-ec2';
import { buildEtcdVolumeTasks } from '../../src/model/aws/etcd-volume-model-builder';
import { tagList } from '../../src/cloud/aws/aws-tags';
import type { MotoServer } from '../helpers/moto-server';
import type { HaCluster } from './ha-cluster-fixture';

/** The cluster's etcd volumes and control-plane instances on moto, as update cluster and the ASGs would make them. */
export interface MotoControlPlane {
  ec2: EC2Client;
  /** Volume ids by task name (`<member>.etcd-<etcd>.<cluster>`). */
  volumes: Map<string, string>;
  /** Instance id by zone, with the address it was launched with. */
  instances: Map<string, { id: string; ip: string }>;
  /** Subnet id by zone. */
  subnets: Map<string, string>;
  /** The image instances are launched from. */
  image: string;
}

/**
 * Creates, on moto, one volume per etcd member with exactly the tags kforge's model gives it
 * (buildEtcdVolumeTasks), and one control-plane instance per zone with the private address `ips[zone]`, in subnet 127.0.<n>.0/24 of the n-th zone.
 * Addresses on loopback need a VPC on 127.0.0.0/16, which moto accepts and AWS would refuse: it lets the
 * members' instances have the addresses their etcd listens on in these tests.
 */
export async function makeMotoControlPlane(moto: MotoServer, ha: HaCluster, ips: Record<string, string>): Promise<MotoControlPlane> {
  const ec2 = new EC2Client({ region: 'us-east-1', endpoint: moto.endpoint, credentials: { accessKeyId: 'test', secretAccessKey: 'test' } });
  const volumes = new Map<string, string>();
  for (const task of buildEtcdVolumeTasks(ha.completed, ha.instanceGroups)) {
    const d = task.desired;
    const v = await ec2.send(new CreateVolumeCommand({ AvailabilityZone: d.zone, Size: d.size, VolumeType: d.volumeType as never, Encrypted: d.encrypted, TagSpecifications: [{ ResourceType: 'volume', Tags: tagList(d.tags) }] }));
    volumes.set(task.name, v.VolumeId as string);
  }
  const instances = new Map<string, { id: string; ip: string }>();
  const subnets = new Map<string, string>();
  const vpc = await ec2.send(new CreateVpcCommand({ CidrBlock: '127.0.0.0/16' }));
  const image = (await ec2.send(new DescribeImagesCommand({ Owners: ['amazon'], Filters: [{ Name: 'architecture', Values: ['x86_64'] }] }))).Images?.[0]?.ImageId;
  for (const [i, zone] of Object.keys(ips).sort().entries()) {
    const subnet = await ec2.send(new CreateSubnetCommand({ VpcId: vpc.Vpc?.VpcId, CidrBlock: `127.0.${i + 1}.0/24`, AvailabilityZone: zone }));
    const r = await ec2.send(new RunInstancesCommand({ ImageId: image, MinCount: 1, MaxCount: 1, InstanceType: 't3.medium', SubnetId: subnet.Subnet?.SubnetId, PrivateIpAddress: ips[zone] }));
    subnets.set(zone, subnet.Subnet?.SubnetId as string);
    instances.set(zone, { id: r.Instances?.[0]?.InstanceId as string, ip: ips[zone] });
  }
  return { ec2, volumes, instances, subnets, image: image as string };
}
