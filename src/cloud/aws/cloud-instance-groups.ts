import type { AwsCloud } from './aws-cloud';

/**
 * The tag a rolling update puts on an instance before it detaches it from its Auto Scaling group for a
 * surge (kops's `kops.k8s.io/detached-from-asg`, valued with the group's name). A detached instance is no
 * longer a member of its group, so this tag is how a later run finds it again: it is replaced (drained and
 * terminated) but never detached, nor counted as a surge, a second time.
 */
export const DETACHED_TAG = 'kops.k8s.io/detached-from-asg';

/** One instance of an instance group's Auto Scaling group, or one detached from it by an earlier surge. */
export interface CloudInstance {
  /** The EC2 instance id. */
  id: string;
  /** The launch template version it was launched from (`<template>:<version>`), when AWS says. */
  launchedFrom?: string;
  /** The Auto Scaling lifecycle state (`InService`, `Pending`, ...), or `Detached`. */
  state: string;
  /** Detached from the group by a rolling update's surge: still running, no longer counted by the group. */
  detached: boolean;
  /** Launched from an older launch template version than the group's, or detached: it must be replaced. */
  needsUpdate: boolean;
}

/** An instance group's Auto Scaling group as a rolling update sees it. */
export interface CloudInstanceGroup {
  /** The Auto Scaling group's name (`<ig>.<cluster>`). */
  asgName: string;
  minSize: number;
  maxSize: number;
  /** The group's desired capacity (kops's TARGET). */
  desired: number;
  /** The version new instances get (`<template>:<version>`, `$Latest` and `$Default` resolved). */
  currentVersion?: string;
  /** Members of the group, then the instances detached from it, each sorted by id. */
  instances: CloudInstance[];
}

// EC2's system tag on an instance launched from a launch template: the version it was launched from.
const LAUNCH_TEMPLATE_VERSION_TAG = 'aws:ec2launchtemplate:version';

// Instance states an instance can be in before it is gone.
const LIVE_STATES = ['pending', 'running', 'stopping', 'stopped'];

/**
 * The cluster's Auto Scaling groups by name, with members and detached instances, read fresh (not from the
 * run's inventory cache: a rolling update reads again after every change it makes). Three calls however
 * many groups: the groups (tag-filtered), their launch templates (to resolve `$Latest`/`$Default` to a
 * version number, as kops compares them) and the cluster's live instances (detached ones, launch versions).
 */
export async function listCloudInstanceGroups(cloud: AwsCloud): Promise<Map<string, CloudInstanceGroup>> {
  const { sdk: asgSdk, client: asg } = await cloud.autoScaling();
  const { sdk: ec2Sdk, client: ec2 } = await cloud.ec2();
  const name = cloud.clusterName;
  const groups = [];
  let token: string | undefined;
  do {
    const out = await asg.send(new asgSdk.DescribeAutoScalingGroupsCommand({ Filters: [{ Name: 'tag:KubernetesCluster', Values: [name] }], MaxRecords: 100, NextToken: token }));
    groups.push(...(out.AutoScalingGroups ?? []));
    token = out.NextToken;
  } while (token);
  const templateNames = [...new Set(groups.flatMap((g) => (g.LaunchTemplate?.LaunchTemplateName ? [g.LaunchTemplate.LaunchTemplateName] : [])))].sort();
  const versions = new Map<string, { latest: string; default: string }>();
  if (templateNames.length > 0) {
    // MaxResults always: moto returns at most 15 templates without it (docs/aws-tasks.md).
    const out = await ec2.send(new ec2Sdk.DescribeLaunchTemplatesCommand({ LaunchTemplateNames: templateNames, MaxResults: 200 }));
    for (const t of out.LaunchTemplates ?? []) {
      if (t.LaunchTemplateName) versions.set(t.LaunchTemplateName, { latest: String(t.LatestVersionNumber ?? ''), default: String(t.DefaultVersionNumber ?? '') });
    }
  }
  // Every live instance of the cluster, for two things the group's own listing cannot say: which instances
  // were detached from it (by their tag), and the template version each was launched from. EC2 tags an
  // instance launched from a template with aws:ec2launchtemplate:version; the group reports a version per
  // member too, but moto_server reports the template's current default there, so the tag is preferred.
  const detached = new Map<string, CloudInstance[]>();
  const launchedVersion = new Map<string, string>();
  let next: string | undefined;
  do {
    const out = await ec2.send(
      new ec2Sdk.DescribeInstancesCommand({ Filters: [{ Name: 'tag:KubernetesCluster', Values: [name] }, { Name: 'instance-state-name', Values: LIVE_STATES }], NextToken: next }),
    );
    for (const i of (out.Reservations ?? []).flatMap((r) => r.Instances ?? [])) {
      if (!i.InstanceId) continue;
      const tag = (key: string): string | undefined => i.Tags?.find((t) => t.Key === key)?.Value;
      const version = tag(LAUNCH_TEMPLATE_VERSION_TAG);
      if (version) launchedVersion.set(i.InstanceId, version);
      const from = tag(DETACHED_TAG);
      if (from) detached.set(from, [...(detached.get(from) ?? []), { id: i.InstanceId, state: 'Detached', detached: true, needsUpdate: true }]);
    }
    next = out.NextToken;
  } while (next);
  const result = new Map<string, CloudInstanceGroup>();
  for (const g of groups) {
    if (!g.AutoScalingGroupName) continue;
    const lt = g.LaunchTemplate;
    const v = lt?.LaunchTemplateName ? versions.get(lt.LaunchTemplateName) : undefined;
    const resolved = lt?.Version === '$Latest' || lt?.Version === undefined ? v?.latest : lt.Version === '$Default' ? v?.default : lt.Version;
    const currentVersion = lt?.LaunchTemplateName && resolved ? `${lt.LaunchTemplateName}:${resolved}` : undefined;
    const members = (g.Instances ?? [])
      .filter((i) => i.InstanceId && !['Terminating', 'Terminating:Wait', 'Terminating:Proceed', 'Terminated', 'Detaching', 'Detached'].includes(i.LifecycleState ?? ''))
      .map((i): CloudInstance => {
        const version = launchedVersion.get(i.InstanceId as string) ?? i.LaunchTemplate?.Version;
        const launchedFrom = i.LaunchTemplate?.LaunchTemplateName ? `${i.LaunchTemplate.LaunchTemplateName}:${version ?? ''}` : undefined;
        return { id: i.InstanceId as string, launchedFrom, state: i.LifecycleState ?? 'Unknown', detached: false, needsUpdate: currentVersion !== undefined && launchedFrom !== currentVersion };
      });
    // An instance tagged as detached but still listed as a member (a run stopped between tag and detach) is a member.
    const memberIds = new Set(members.map((m) => m.id));
    const gone = (detached.get(g.AutoScalingGroupName) ?? []).filter((d) => !memberIds.has(d.id));
    result.set(g.AutoScalingGroupName, {
      asgName: g.AutoScalingGroupName,
      minSize: g.MinSize ?? 0,
      maxSize: g.MaxSize ?? 0,
      desired: g.DesiredCapacity ?? 0,
      currentVersion,
      instances: [...byId(members), ...byId(gone)],
    });
  }
  return result;
}

function byId(list: CloudInstance[]): CloudInstance[] {
  return [...list].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}
