import { AutoScalingClient, DescribeAutoScalingGroupsCommand } from '@aws-sdk/client-auto-scaling';
import { DescribeInstancesCommand, DescribeVolumesCommand, EC2Client } from '@aws-sdk/client-ec2';
import type { MotoServer } from '../helpers/moto-server';

/** The machine a control-plane group's Auto Scaling group launched in moto, and the cluster's etcd volumes. */
export interface ControlPlaneInstance {
  instanceId: string;
  zone: string;
  internalIp: string;
  /** Every etcd volume of the cluster (update cluster made them with the model's tags). */
  volumeIds: string[];
}

/**
 * Reads, with the operator's test keys, what protokube's test-only flags stand for on a real instance
 * (where instance metadata gives them): the id, zone and private address of the instance moto launched
 * for the group's Auto Scaling group (`<group>.<cluster>`, as update cluster names it), and the ids of
 * the cluster's etcd volumes, whose devices the test provides.
 */
export async function controlPlaneInstance(moto: MotoServer, cluster: string, group: string): Promise<ControlPlaneInstance> {
  // The pinned SDK's notice that its future releases need Node 22 says nothing to this test.
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  const client = { region: 'us-east-1', endpoint: moto.endpoint, credentials: { accessKeyId: 'test', secretAccessKey: 'test' } };
  const asg = new AutoScalingClient(client);
  const ec2 = new EC2Client(client);
  try {
    const groups = await asg.send(new DescribeAutoScalingGroupsCommand({ AutoScalingGroupNames: [`${group}.${cluster}`] }));
    const instanceId = groups.AutoScalingGroups?.[0]?.Instances?.[0]?.InstanceId;
    if (!instanceId) throw new Error(`moto launched no instance for the Auto Scaling group ${group}.${cluster}`);
    const described = await ec2.send(new DescribeInstancesCommand({ InstanceIds: [instanceId] }));
    const instance = described.Reservations?.[0]?.Instances?.[0];
    const volumes = await ec2.send(new DescribeVolumesCommand({ Filters: [{ Name: 'tag:KubernetesCluster', Values: [cluster] }] }));
    const volumeIds = (volumes.Volumes ?? []).filter((v) => v.Tags?.some((t) => t.Key?.startsWith('k8s.io/etcd/'))).map((v) => v.VolumeId as string);
    return { instanceId, zone: instance?.Placement?.AvailabilityZone as string, internalIp: instance?.PrivateIpAddress as string, volumeIds: volumeIds.sort() };
  } finally {
    asg.destroy();
    ec2.destroy();
  }
}
