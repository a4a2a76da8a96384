import type { Cluster, InstanceGroup } from '../api/types';
import { CloudConnection, CloudMachines, loadCloudProvider } from '../cloud/cloud-provider';
import { NotSupportedError } from '../errors/not-supported-error';
import { NotUpdatedError } from '../errors/not-updated-error';
import { UsageError } from '../errors/usage-error';
import type { RollingUpdateKube } from '../rolling-update/rolling-update-kube';
import { GroupPlan, GroupSelection, planRollingUpdate } from '../rolling-update/rolling-update-plan';
import { RollingUpdateCloud, RollingUpdateEvent, RollingUpdateTimings, updateInstanceGroup } from '../rolling-update/update-instance-group';
import { ClusterRepository } from '../state/cluster-repository';
import { LockOptions, withClusterLocks } from '../state/lock/cluster-lock';
import { StatePaths } from '../state/state-paths';
import type { Vfs } from '../state/vfs/vfs';

/** How `rolling-update cluster` runs. */
export interface RollingUpdateClusterOptions {
  /** Replace instances (`--yes`); otherwise only report what needs it. */
  yes: boolean;
  lock: LockOptions;
  /** `--instance-group`, `--instance-group-roles`, `--force`. */
  selection: GroupSelection;
  /** `--cloudonly`: no Kubernetes API at all; terminate and wait on the cloud only. */
  cloudOnly: boolean;
  timings: RollingUpdateTimings;
  /** Connects to the cluster's Kubernetes API (not called with `cloudOnly`). */
  connectKube: (cluster: Cluster, cloud: CloudMachines) => Promise<RollingUpdateKube>;
  /** Environment of the cloud's clients (AWS_ENDPOINT_URL, profiles; CLOUDSDK_* on GCE); default process.env. */
  env?: NodeJS.ProcessEnv;
  /** Static credentials (tests); default the SDK's standard chain. */
  credentials?: { accessKeyId: string; secretAccessKey: string };
  /** Wraps the cloud of the rolling update (the provider's, e.g. `awsRollingUpdateCloud`); tests wrap it to observe. */
  wrapCloud?: (cloud: RollingUpdateCloud) => RollingUpdateCloud;
  report?: (e: RollingUpdateEvent) => void;
  sleep?: (ms: number) => Promise<void>;
}

/** What `rolling-update cluster` found and did. */
export interface RollingUpdateClusterResult {
  cluster: string;
  /** The selected groups as found before any change, in update order. */
  groups: GroupPlan[];
  /** Some selected instance needs replacing. */
  needsUpdate: boolean;
  /** `--yes` and something needed replacing: it was replaced. */
  applied: boolean;
  /** The cloud of the run, with its API call counter. */
  cloud: CloudConnection;
}

/**
 * `rolling-update cluster`: finds, per instance group, the instances launched from an older launch template
 * version than their group's (or detached by an interrupted surge, or annotated `kops.k8s.io/needs-update`,
 * or all with `--force`), and with `yes`, under the cluster lock, replaces them group by group in kops's
 * order (bastions, control plane, nodes). Each group is read again right before it is updated, so a re-run
 * after an interruption continues from what the cloud says, not from a saved plan.
 */
export async function rollingUpdateCluster(vfs: Vfs, name: string, options: RollingUpdateClusterOptions): Promise<RollingUpdateClusterResult> {
  const repo = new ClusterRepository(vfs);
  const stored = await repo.get(name);
  const instanceGroups = stored.instanceGroups.map((v) => v.object);
  checkSelection(instanceGroups, options.selection);
  if ((await vfs.read(StatePaths.completedSpec(name))) === undefined) {
    throw new NotUpdatedError(`cluster "${name}" has never been updated: run "kforge update cluster ${name} --yes" first; there is nothing to roll`);
  }
  const completed = await repo.getCompleted(name);
  const cloudName = completed.spec?.cloudProvider ?? 'aws';
  if (cloudName !== 'aws' && cloudName !== 'gce') throw new UsageError(`rolling-update cluster: cloud "${cloudName}" (spec.cloudProvider) is not supported yet; kforge rolls instance groups on aws and gce`);
  const provider = await loadCloudProvider(cloudName, 'rolling-update cluster');
  const connection = await provider.connect(completed, { env: options.env, credentials: options.credentials });
  const base = await provider.rollingUpdateCloud(connection);
  const cloud = options.wrapCloud ? options.wrapCloud(base) : base;
  const kube = options.cloudOnly ? undefined : await options.connectKube(completed, provider.machines(connection));
  const plan = async (): Promise<GroupPlan[]> => planRollingUpdate(completed, instanceGroups, await cloud.groups(), kube ? await kube.nodes() : [], options.selection);
  const groups = await plan();
  const needsUpdate = groups.some((g) => g.needUpdate.length > 0);
  const result = { cluster: name, groups, needsUpdate, applied: false, cloud: connection };
  if (!options.yes || !needsUpdate) return result;
  // A cloud without detach (GCE) cannot surge: refused before anything changes (kops fails at the first detach).
  const surging = cloud.detach || !kube ? [] : groups.filter((g) => g.needUpdate.length > 0 && g.settings.maxSurge > 0);
  if (surging.length > 0) {
    throw new NotSupportedError(`rolling-update cluster: ${surging.map((g) => `instance group "${g.name}" has maxSurge ${g.settings.maxSurge}`).join(', ')}, but ${cloudName} cannot surge (kops: "gce cloud provider does not support surging"); set spec.rollingUpdate.maxSurge to 0 (kforge edit instancegroup / edit cluster), or pass --cloudonly; nothing was replaced`);
  }
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const run = { cloud, kube, timings: options.timings, report: options.report ?? (() => undefined), sleep };
  await withClusterLocks(vfs, [name], options.lock, async () => {
    for (const g of groups) {
      // Fresh: an earlier group's update took time, and the cloud and the Nodes may have moved.
      const now = (await plan()).find((p) => p.name === g.name);
      if (now) await updateInstanceGroup(run, now);
    }
  });
  return { ...result, applied: true };
}

/** `--instance-group` names groups that exist; `--instance-group-roles` names kops's roles. */
function checkSelection(instanceGroups: readonly InstanceGroup[], sel: GroupSelection): void {
  const names = new Set(instanceGroups.map((ig) => ig.metadata.name));
  const unknown = (sel.instanceGroups ?? []).filter((n) => !names.has(n));
  if (unknown.length > 0) throw new UsageError(`--instance-group: no instance group ${unknown.map((n) => `"${n}"`).join(', ')} in the cluster (it has ${[...names].sort().join(', ')})`);
  const roles = ['Bastion', 'ControlPlane', 'Master', 'Node', 'APIServer'];
  const bad = (sel.roles ?? []).filter((r) => !roles.includes(r));
  if (bad.length > 0) throw new UsageError(`--instance-group-roles: unknown role ${bad.map((r) => `"${r}"`).join(', ')}; roles are ${roles.join(', ')}`);
}
