import type { AwsCloud } from './aws-cloud';
import { allPages } from './cluster-resources/all-pages';
import { ownedByCluster } from './owned-by-cluster';

/** One member of an Auto Scaling group, as the group reports it. */
export interface CloudGroupMember {
  instanceId: string;
  /** `InService`, `Pending`, `Terminating`, … */
  lifecycleState: string;
  healthStatus?: string;
  /** The launch-template version the instance was launched from. */
  launchTemplateVersion?: string;
}

/** An instance group's Auto Scaling group: its sizes, members and launch template. */
export interface CloudGroup {
  /** The ASG's name (`<ig>.<cluster>`). */
  name: string;
  /** The `kops.k8s.io/instancegroup` tag. */
  instanceGroup?: string;
  role: 'control-plane' | 'node' | 'bastion' | 'unknown';
  desired: number;
  min: number;
  max: number;
  members: CloudGroupMember[];
  /** The version the group launches from, resolved to a number (`$Latest` and `$Default` resolved). */
  currentTemplateVersion?: string;
}

/** One EC2 instance of the cluster. */
export interface CloudInstance {
  instanceId: string;
  /** `pending`, `running`, `stopping`, `stopped`, `shutting-down`. */
  state: string;
  /** Why it is in that state, when EC2 says (e.g. `Client.InstanceInitiatedShutdown`). */
  stateReason?: string;
  privateDnsName?: string;
  zone?: string;
  instanceGroup?: string;
  /** The ASG it belongs to (`aws:autoscaling:groupName`). */
  group?: string;
}

/** The cluster's groups and instances, read in a fixed number of calls however many there are. */
export interface ClusterInstances {
  groups: CloudGroup[];
  instances: CloudInstance[];
  /** What the cloud calls a group, for messages; default `Auto Scaling group` (GCE: `managed instance group`). */
  groupKind?: string;
  /** The cloud group has a target size only (GCE's MIGs: min = max = target), so only the spec's minSize is compared. */
  targetSizeOnly?: boolean;
}

const ALIVE = ['pending', 'running', 'stopping', 'stopped', 'shutting-down'];

function roleOf(tags: Array<{ Key?: string; Value?: string }>): CloudGroup['role'] {
  const keys = new Set(tags.map((t) => t.Key));
  if (keys.has('k8s.io/role/control-plane') || keys.has('k8s.io/role/master')) return 'control-plane';
  if (keys.has('k8s.io/role/bastion')) return 'bastion';
  if (keys.has('k8s.io/role/node')) return 'node';
  return 'unknown';
}

/**
 * The cluster's Auto Scaling groups (found by the cluster's tags, as `delete cluster` finds them), their
 * instances and their launch templates' versions: three paged Describe calls (DescribeAutoScalingGroups,
 * DescribeInstances, DescribeLaunchTemplates), so the cost does not grow with the number of instances.
 */
export async function describeClusterInstances(cloud: AwsCloud): Promise<ClusterInstances> {
  const cluster = cloud.clusterName;
  const tagFilter = { Name: 'tag:KubernetesCluster', Values: [cluster] };
  const [asg, ec2] = await Promise.all([cloud.autoScaling(), cloud.ec2()]);
  const [rawGroups, reservations, templates] = await Promise.all([
    allPages((NextToken) =>
      asg.client
        .send(new asg.sdk.DescribeAutoScalingGroupsCommand({ Filters: [{ Name: tagFilter.Name, Values: tagFilter.Values }, { Name: `tag:kubernetes.io/cluster/${cluster}`, Values: ['owned'] }], NextToken }))
        .then((o) => [o.AutoScalingGroups, o.NextToken] as const),
    ),
    allPages((NextToken) =>
      ec2.client.send(new ec2.sdk.DescribeInstancesCommand({ Filters: [tagFilter, { Name: 'instance-state-name', Values: ALIVE }], NextToken })).then((o) => [o.Reservations, o.NextToken] as const),
    ),
    allPages((NextToken) => ec2.client.send(new ec2.sdk.DescribeLaunchTemplatesCommand({ Filters: [tagFilter], NextToken })).then((o) => [o.LaunchTemplates, o.NextToken] as const)),
  ]);
  const templateVersions = new Map(templates.map((t) => [t.LaunchTemplateName, { latest: t.LatestVersionNumber, default: t.DefaultVersionNumber }]));
  // The version an instance was launched from, as EC2 tags it at launch: moto's group listing reports every
  // member at the template's current version instead (AWS reports the launch version in both places).
  const launchedFrom = new Map(
    reservations.flatMap((r) => r.Instances ?? []).map((i) => [i.InstanceId, i.Tags?.find((t) => t.Key === 'aws:ec2launchtemplate:version')?.Value] as const),
  );
  const groups: CloudGroup[] = [];
  for (const g of rawGroups) {
    if (!g.AutoScalingGroupName || !ownedByCluster(g.Tags?.map((t) => ({ Key: t.Key, Value: t.Value })), cluster)) continue;
    const tags = (g.Tags ?? []).map((t) => ({ Key: t.Key, Value: t.Value }));
    const lt = g.LaunchTemplate;
    const versions = lt?.LaunchTemplateName ? templateVersions.get(lt.LaunchTemplateName) : undefined;
    const wanted = lt?.Version ?? '$Default';
    const current = wanted === '$Latest' ? versions?.latest : wanted === '$Default' ? versions?.default : Number(wanted);
    groups.push({
      name: g.AutoScalingGroupName,
      instanceGroup: tags.find((t) => t.Key === 'kops.k8s.io/instancegroup')?.Value,
      role: roleOf(tags),
      desired: g.DesiredCapacity ?? 0,
      min: g.MinSize ?? 0,
      max: g.MaxSize ?? 0,
      currentTemplateVersion: current === undefined || Number.isNaN(current) ? undefined : String(current),
      members: (g.Instances ?? [])
        .filter((i) => i.InstanceId)
        .map((i) => ({ instanceId: i.InstanceId as string, lifecycleState: i.LifecycleState ?? 'unknown', healthStatus: i.HealthStatus, launchTemplateVersion: launchedFrom.get(i.InstanceId) ?? i.LaunchTemplate?.Version }))
        .sort((a, b) => a.instanceId.localeCompare(b.instanceId)),
    });
  }
  const instances: CloudInstance[] = reservations
    .flatMap((r) => r.Instances ?? [])
    .filter((i) => i.InstanceId)
    .map((i) => {
      const tag = (k: string): string | undefined => i.Tags?.find((t) => t.Key === k)?.Value;
      return {
        instanceId: i.InstanceId as string,
        state: i.State?.Name ?? 'unknown',
        stateReason: i.StateReason?.Message,
        privateDnsName: i.PrivateDnsName || undefined,
        zone: i.Placement?.AvailabilityZone,
        instanceGroup: tag('kops.k8s.io/instancegroup'),
        group: tag('aws:autoscaling:groupName'),
      };
    })
    .sort((a, b) => a.instanceId.localeCompare(b.instanceId));
  return { groups: groups.sort((a, b) => a.name.localeCompare(b.name)), instances };
}

/** An instance's serial console output (EC2 GetConsoleOutput, latest), decoded; empty when EC2 has none yet. */
export async function instanceConsoleOutput(cloud: AwsCloud, instanceId: string): Promise<string> {
  const { sdk, client } = await cloud.ec2();
  const out = await client.send(new sdk.GetConsoleOutputCommand({ InstanceId: instanceId, Latest: true }));
  return out.Output ? Buffer.from(out.Output, 'base64').toString('utf8') : '';
}
