import { AutoScalingClient, DescribeAutoScalingGroupsCommand } from '@aws-sdk/client-auto-scaling';
import { CreateLaunchTemplateVersionCommand, DescribeInstancesCommand, DescribeLaunchTemplateVersionsCommand, EC2Client, Instance, ModifyLaunchTemplateCommand } from '@aws-sdk/client-ec2';
import { newCluster } from '../../src/create/new-cluster';
import { changeFields } from '../../src/ops/change-fields';
import { saveCluster } from '../../src/ops/save-cluster';
import { updateCluster } from '../../src/ops/update-cluster';
import type { Vfs } from '../../src/state/vfs/vfs';
import type { MotoServer } from './moto-server';

/** Static credentials every moto test uses. */
export const MOTO_CREDENTIALS = { accessKeyId: 'test', secretAccessKey: 'test' };
const LOCK = { command: 'test', forceUnlock: false, ttlSeconds: 60, warn: () => undefined };

/** The nodes group of a single-zone cluster made by `newCluster`. */
export const NODES_IG = 'nodes-us-east-1a';

/**
 * A single-zone AWS cluster with `nodes` nodes (`maxSurge` on the nodes group when given), created in moto
 * by `update cluster --yes`, then its nodes' machine type changed and updated again: every node now runs an
 * older launch template version than its group's, as after a real spec change.
 *
 * moto 5.2.1 cannot launch an instance from a launch template version made by CreateLaunchTemplateVersion
 * with UserData (an AssertionError, HTTP 500, inside whatever call makes the group launch: a detach, a
 * terminate): it stores that user data unencoded. With `launchable`, a version without user data is added
 * on top (and made the default, as kforge does), so the group's replacements can launch in moto.
 */
export async function clusterWithOutdatedNodes(vfs: Vfs, moto: MotoServer, name: string, o: { nodes: number; maxSurge?: number; launchable?: boolean }): Promise<void> {
  const planned = newCluster({ name, zones: ['us-east-1a'], cloud: 'aws', dns: 'none', nodeCount: o.nodes });
  const instanceGroups = planned.instanceGroups.map((ig) => (ig.metadata.name === NODES_IG && o.maxSurge !== undefined ? { ...ig, spec: { ...ig.spec, rollingUpdate: { maxSurge: o.maxSurge } } } : ig));
  await saveCluster(vfs, { cluster: planned.cluster, instanceGroups });
  const update = () => updateCluster(vfs, name, { yes: true, lock: LOCK, env: { AWS_ENDPOINT_URL: moto.endpoint, KFORGE_ALLOW_LOCAL_STATE_FOR_NODES: 'test-only' }, credentials: MOTO_CREDENTIALS, backoffMs: 10 });
  await update();
  await changeFields(vfs, { cluster: name, instanceGroup: NODES_IG, set: ['spec.machineType=t3.large'] });
  await update();
  if (o.launchable) await addLaunchableVersion(moto, `${NODES_IG}.${name}`);
}

/** A version of the template without user data (see clusterWithOutdatedNodes), made the default. */
async function addLaunchableVersion(moto: MotoServer, template: string): Promise<void> {
  const ec2 = new EC2Client({ region: 'us-east-1', endpoint: moto.endpoint, credentials: MOTO_CREDENTIALS });
  try {
    const latest = (await ec2.send(new DescribeLaunchTemplateVersionsCommand({ LaunchTemplateName: template, Versions: ['$Latest'] }))).LaunchTemplateVersions?.[0];
    const data = latest?.LaunchTemplateData;
    const made = await ec2.send(new CreateLaunchTemplateVersionCommand({ LaunchTemplateName: template, LaunchTemplateData: { ImageId: data?.ImageId, InstanceType: data?.InstanceType, SecurityGroupIds: data?.SecurityGroupIds } }));
    await ec2.send(new ModifyLaunchTemplateCommand({ LaunchTemplateName: template, DefaultVersion: String(made.LaunchTemplateVersion?.VersionNumber) }));
  } finally {
    ec2.destroy();
  }
}

/** A cluster's Auto Scaling group as moto describes it: members with their launch template versions. */
export async function describeGroup(asg: AutoScalingClient, name: string): Promise<{ desired: number; members: Array<{ id: string; version: string; state: string }> }> {
  const g = (await asg.send(new DescribeAutoScalingGroupsCommand({ AutoScalingGroupNames: [name] }))).AutoScalingGroups?.[0];
  return {
    desired: g?.DesiredCapacity ?? 0,
    members: (g?.Instances ?? []).map((i) => ({ id: i.InstanceId ?? '', version: i.LaunchTemplate?.Version ?? '', state: i.LifecycleState ?? '' })).sort((a, b) => a.id.localeCompare(b.id)),
  };
}

/** The cluster's EC2 instances that are not terminated, sorted by id. */
export async function liveInstances(ec2: EC2Client, cluster: string): Promise<Instance[]> {
  const out = await ec2.send(new DescribeInstancesCommand({ Filters: [{ Name: 'tag:KubernetesCluster', Values: [cluster] }, { Name: 'instance-state-name', Values: ['pending', 'running'] }] }));
  return (out.Reservations ?? []).flatMap((r) => r.Instances ?? []).sort((a, b) => (a.InstanceId ?? '').localeCompare(b.InstanceId ?? ''));
}
