import * as path from 'node:path';
import type { Cluster } from '../api/types';
import { CloudConnection, CloudProvider, loadCloudProvider, ModelInputs, OrphanedResource } from '../cloud/cloud-provider';
import { UsageError } from '../errors/usage-error';
import { ClusterRepository } from '../state/cluster-repository';
import { ensureClusterUid, readClusterUid } from '../state/cluster-uid';
import { LockOptions, withClusterLocks } from '../state/lock/cluster-lock';
import type { LockFence } from '../state/lock/lock-fence';
import { StatePaths } from '../state/state-paths';
import type { Vfs } from '../state/vfs/vfs';
import type { StateStoreFile } from '../targets/terraform/state-store-files';
import { Lifecycle, lifecycleApplies, lifecycleOfKind } from '../tasks/lifecycle';
import { parseLifecycleOverrides } from '../tasks/parse-lifecycle-overrides';
import type { DuplicateName } from '../tasks/duplicate-name';
import type { AnyTask } from '../tasks/task';
import type { TaskExecutor, TaskExecutorOptions } from '../tasks/task-executor';
import type { TaskPlan, TaskWarning } from '../tasks/task-plan';
import { assertNodesCanReadStore, nodeStateStoreProblem } from './node-state-store';
import { DiscoveryDocumentsPlan, planDiscoveryDocuments, writeDiscoveryDocuments } from './plan-discovery-documents';
import { ManagedFilesPlan, planManagedFiles, writeManagedFiles } from './plan-managed-files';

/** A step of `update cluster`, in order, for progress output. */
export type UpdateStep = 'load' | 'expand' | 'build' | 'connect' | 'preflight' | 'find' | 'plan' | 'render' | 'write managed files' | 'write terraform' | 'apply' | 'delete';

/** What update reports while it runs: the step it is in, and tasks done of total in the find and apply steps. */
export interface UpdateProgress {
  step(name: UpdateStep): void;
  task(phase: 'find' | 'apply', done: number, total: number, current: string): void;
  retry(task: string, error: unknown): void;
}

/** How `update cluster` runs. */
export interface UpdateClusterOptions {
  /** Apply the plan (`--yes`); otherwise only plan. */
  yes: boolean;
  lock: LockOptions;
  /** Environment of the AWS clients (AWS_ENDPOINT_URL, profiles); default process.env. */
  env?: NodeJS.ProcessEnv;
  /** Static credentials (tests); default the SDK's standard chain. */
  credentials?: { accessKeyId: string; secretAccessKey: string };
  /** First retry delay of a task; default the executor's. */
  backoffMs?: number;
  progress?: UpdateProgress;
  /** Every executor event, with the task it concerns (benchmarks time the critical path with it). */
  onTaskEvent?: TaskExecutorOptions['onEvent'];
  /**
   * `direct` (default): find, plan and with `yes` apply. `terraform`: render the tasks as Terraform into
   * `outDir` and make no mutating cloud call; as kops does, the state-store files are written too, without `yes`.
   */
  target?: 'direct' | 'terraform';
  /** Where `terraform` writes `kubernetes.tf` and `data/`; default `out/terraform` (kops's). */
  outDir?: string;
  /** Lifecycles by task kind (direct target only); a kind not listed is Sync. Takes precedence over `lifecycleOverrides`. */
  lifecycles?: Readonly<Record<string, Lifecycle>>;
  /** `--lifecycle-overrides` as given (`Kind=Lifecycle`, comma-separated or repeated), parsed against the cluster's cloud's kinds. */
  lifecycleOverrides?: readonly string[];
}

/** What `--target terraform` wrote. */
export interface TerraformResult {
  /** The output directory. */
  dir: string;
  /** The files written, relative to `dir`: `kubernetes.tf`, then the `data/` files sorted. */
  files: string[];
  /** The resource addresses in `kubernetes.tf`, sorted. */
  resources: string[];
  /** The state-store objects of the run (keysets created, managed files, discovery documents), each with its owner. */
  stateStoreFiles: StateStoreFile[];
}

/** What `update cluster` found and did. */
export interface UpdateClusterResult {
  cluster: string;
  /** The cloud resources, found and diffed. */
  cloudPlan: TaskPlan<CloudConnection>;
  /** The state-store objects update manages: new keysets, the completed spec, nodeup configs. */
  managed: ManagedFilesPlan;
  /** The OIDC discovery documents, when the cluster publishes them (`serviceAccountIssuerDiscovery.discoveryStore`). */
  discovery: DiscoveryDocumentsPlan;
  /** Whether the plan was applied (`--yes` and there were changes). */
  applied: boolean;
  /** The cloud of the run, with its API call counter. */
  cloud: CloudConnection;
  /** The tasks the model built, with their dependencies. */
  tasks: readonly AnyTask<CloudConnection>[];
  /** Resources of the cluster the model no longer has (a deleted instance group's), deleted after the apply. */
  orphans: OrphanedResource[];
  /** With `--target terraform`: what was written (the cloud plan is then empty: nothing was found or diffed). */
  terraform?: TerraformResult;
  /** What the lifecycle overrides let pass while planning and applying, sorted by task. */
  warnings: TaskWarning[];
  /** Names that match more than one of the cluster's resources (the task uses the lowest id), sorted; found while planning. */
  duplicates: DuplicateName[];
  /** Why nodes could not read the state store (a local store): a plan or Terraform output is still made, `--yes` is refused. */
  storeWarning?: string;
}

/**
 * `update cluster`, as a pipeline of named steps: load → expand → build → connect → preflight → find → plan, and
 * with `yes`: write managed files → apply → delete (what a deleted instance group left). The whole run holds the cluster lock when it applies, so
 * nothing changes the spec between plan and apply. Managed files (new keysets, completed spec, nodeup
 * configs) are written before the cloud apply: an instance the apply launches must find the config its
 * user-data names, and a crash after that point must not regenerate the PKI on the next run.
 */
export async function updateCluster(vfs: Vfs, name: string, options: UpdateClusterOptions): Promise<UpdateClusterResult> {
  // kops applies lifecycles to the direct target only and silently ignores them for terraform; refusing says so.
  const overridesGiven = Object.keys(options.lifecycles ?? {}).length > 0 || (options.lifecycleOverrides ?? []).some((v) => v.replace(/,/g, '').trim() !== '');
  if (options.target === 'terraform' && overridesGiven) {
    throw new UsageError('update cluster: --lifecycle-overrides applies to the direct target only; --target terraform renders every resource (drop the resources from the Terraform output or import them instead)');
  }
  // Under the lock, every change (a state write, a task, a cloud call) verifies the lock first (the fence).
  const run = async (fence?: LockFence): Promise<UpdateClusterResult> => {
    const store = fence ? fence.vfs(vfs) : vfs;
    const p = options.progress;
    p?.step('load');
    const stored = await new ClusterRepository(store).get(name);
    const instanceGroups = stored.instanceGroups.map((v) => v.object);
    p?.step('expand');
    // Read only: the plan makes no token, and a plan or a failed preflight writes nothing to the store.
    // Credentials are proven by one cheap call before anything is planned. The addons name the account (the
    // node-termination-handler's queue URL), so the managed files ask for the connection once the spec is complete.
    const clusterUid = await readClusterUid(store, name);
    let connecting: Promise<CloudConnection> | undefined;
    const connectOnce = (completed: Cluster): Promise<CloudConnection> =>
      (connecting ??= loadCloudProvider(completed.spec.cloudProvider ?? 'aws', 'update cluster').then((pr) => pr.connect(completed, { env: options.env, credentials: options.credentials, clusterUid })));
    const managed = await planManagedFiles(store, name, stored, { awsAccountId: async (completed) => (await connectOnce(completed)).accountId });
    const discovery = await planDiscoveryDocuments(managed.completed, managed.serviceAccountPublicKeys);
    p?.step('build');
    // The completed spec's cloud picks the provider; its model builders make the tasks.
    const provider = await loadCloudProvider(managed.completed.spec.cloudProvider ?? 'aws', 'update cluster');
    // The kinds a user may name are the cloud's, so the flag is parsed once the cloud is known (nothing is written yet).
    const lifecycles = options.lifecycles ?? parseLifecycleOverrides(options.lifecycleOverrides ?? [], provider.lifecycleKinds);
    const tasks = await provider.buildTasks(managed.completed, instanceGroups, await modelInputs(store, name, managed, options.env ?? process.env));
    p?.step('connect');
    const cloud = await connectOnce(managed.completed);
    cloud.fence = fence?.verify;
    p?.step('preflight');
    await provider.preflight(cloud, managed.completed, instanceGroups);
    if (options.target === 'terraform') return renderAndWriteTerraform(store, provider, { cluster: name, managed, discovery, cloud, tasks }, options, fence);
    p?.step('find');
    const executor = await makeExecutor(provider, cloud, tasks, { ...options, lifecycles, fence: fence?.verify });
    const cloudPlan = await executor.plan();
    p?.step('plan');
    const { orphans, kept } = keepHeldOrphans(await provider.findOrphans(cloud, tasks), lifecycles);
    const result: UpdateClusterResult = { cluster: name, cloudPlan, managed, discovery, applied: false, cloud, tasks, orphans, warnings: byTask([...executor.warnings, ...kept]), duplicates: provider.duplicateNames(cloud) };
    if (!options.yes || (!cloudPlan.hasChanges && !managed.hasChanges && !discovery.hasChanges && orphans.length === 0)) return result;
    p?.step('write managed files');
    // Before any create that takes a token; create-only, so this life of the cluster keeps its first UID.
    cloud.clusterUid = await ensureClusterUid(store, name);
    if (managed.hasChanges) await writeManagedFiles(store, managed);
    await fence?.verify();
    await writeDiscoveryDocuments(discovery);
    p?.step('apply');
    const { applyPlan } = await import('../targets/direct-target');
    await applyPlan(executor, cloudPlan);
    if (orphans.length > 0) {
      p?.step('delete');
      await provider.deleteOrphans(cloud, orphans);
    }
    await markApplied(store, name);
    return { ...result, applied: true, warnings: byTask([...executor.warnings, ...kept]) };
  };
  // Nodes read their config from the store: on AWS a local store would make every instance unbootable.
  const storeProblem = nodeStateStoreProblem(vfs.url);
  if (storeProblem && options.yes && options.target !== 'terraform') {
    const cloud = (await new ClusterRepository(vfs).get(name)).cluster.object.spec.cloudProvider;
    if (cloud === undefined || cloud === 'aws') assertNodesCanReadStore(vfs.url, options.env ?? process.env);
  }
  // The terraform target writes the state store whatever `yes` says (as kops), so it takes the lock too.
  const result = await (options.yes || options.target === 'terraform' ? withClusterLocks(vfs, [name], options.lock, run) : run());
  // A plan, or Terraform output (which would boot no node either), with such a store: allowed, to try things out, but said.
  return storeProblem ? { ...result, storeWarning: storeProblem } : result;
}

/**
 * The terraform target after preflight: resolves the launch templates' images (read-only, from the image
 * load preflight made), renders every task, then writes the state-store files (keysets, completed spec,
 * nodeup configs, discovery documents) and the output. kops does the same with `--target terraform`: the
 * state store is not Terraform's, and the rendered user-data names nodeup configs that must exist.
 */
async function renderAndWriteTerraform(
  vfs: Vfs,
  provider: CloudProvider,
  run: Pick<UpdateClusterResult, 'cluster' | 'managed' | 'discovery' | 'cloud' | 'tasks'>,
  options: UpdateClusterOptions,
  fence?: LockFence,
): Promise<UpdateClusterResult> {
  const p = options.progress;
  p?.step('render');
  // Read-only lookups first (AWS: the launch templates' images, the hosted zone's id).
  await provider.prepareTerraform(run.cloud, run.tasks);
  const { writeTerraformOutput } = await import('../targets/terraform/render-terraform');
  const output = await provider.renderTerraform(run.cluster, run.cloud, run.tasks);
  p?.step('write managed files');
  if (run.managed.hasChanges) await writeManagedFiles(vfs, run.managed);
  await fence?.verify();
  await writeDiscoveryDocuments(run.discovery);
  p?.step('write terraform');
  const dir = options.outDir ?? path.join('out', 'terraform');
  writeTerraformOutput(dir, output);
  await markApplied(vfs, run.cluster);
  const { stateStoreFiles } = await import('../targets/terraform/state-store-files');
  const terraform = { dir, files: [...output.files.keys()], resources: output.resources, stateStoreFiles: stateStoreFiles(run.managed, run.discovery.files) };
  return { ...run, cloudPlan: { entries: [], hasChanges: false }, orphans: [], applied: run.managed.hasChanges, terraform, warnings: [], duplicates: [] };
}

/**
 * What the builders need from the store besides the spec: nodeup config hashes, the admin SSH key, and the
 * KMS key an S3 store encrypts with (the S3 store writes every object with KFORGE_STATE_S3_KMS_KEY_ID).
 */
async function modelInputs(vfs: Vfs, name: string, managed: ManagedFilesPlan, env: NodeJS.ProcessEnv): Promise<ModelInputs> {
  const keys = await vfs.list(StatePaths.sshPublicKey(name, ''));
  const first = keys.sort()[0];
  const read = first ? await vfs.read(first) : undefined;
  const sshPublicKey = first && read ? { fingerprint: first.slice(first.lastIndexOf('/') + 1), publicKey: read.data.toString('utf8').trim() } : undefined;
  const stateStoreKmsKey = vfs.url.startsWith('s3://') ? env.KFORGE_STATE_S3_KMS_KEY_ID || undefined : undefined;
  return { nodeupConfigHashes: managed.nodeupConfigHashes, sshPublicKey, ...(stateStoreKmsKey ? { stateStoreKmsKey } : {}), ...(managed.kopsControllerCa ? { kopsControllerCa: managed.kopsControllerCa } : {}) };
}

/** The task executor, reporting progress. */
async function makeExecutor(provider: CloudProvider, cloud: CloudConnection, tasks: AnyTask<CloudConnection>[], options: UpdateClusterOptions & { fence?: () => Promise<void> }): Promise<TaskExecutor<CloudConnection>> {
  const done = { find: 0, apply: 0 };
  return provider.executor(cloud, tasks, {
    backoffMs: options.backoffMs,
    lifecycles: options.lifecycles,
    fence: options.fence,
    onEvent: (e) => {
      options.onTaskEvent?.(e);
      if (e.type === 'done') options.progress?.task(e.phase, ++done[e.phase], tasks.length, e.task);
      if (e.type === 'retry') options.progress?.retry(e.task, e.error);
    },
  });
}

/**
 * Orphans of a kind whose lifecycle forbids changes (Ignore, ExistsAnd…) are not deleted: the user asked
 * update to leave resources of that kind alone, and a delete is a change. Each kept one is a warning instead.
 */
function keepHeldOrphans(found: OrphanedResource[], lifecycles: UpdateClusterOptions['lifecycles']): { orphans: OrphanedResource[]; kept: TaskWarning[] } {
  const kept = found
    .filter((o) => !lifecycleApplies(lifecycleOfKind(lifecycles, o.kind)))
    .map((o): TaskWarning => ({ task: `${o.kind}/${o.name}`, lifecycle: lifecycleOfKind(lifecycles, o.kind), message: 'is no longer in the model; not deleted' }));
  return { orphans: found.filter((o) => lifecycleApplies(lifecycleOfKind(lifecycles, o.kind))), kept };
}

/** Warnings sorted by task, so the same state prints the same lines. */
function byTask(warnings: TaskWarning[]): TaskWarning[] {
  return warnings.sort((a, b) => (a.task < b.task ? -1 : a.task > b.task ? 1 : 0));
}

/** Records that the cluster has been applied (kops's kops-version.txt): from now on keys are rotated, not replaced. */
async function markApplied(vfs: Vfs, name: string): Promise<void> {
  const path = StatePaths.appliedMarker(name);
  if ((await vfs.read(path)) === undefined) await vfs.write(path, Buffer.from('kforge 0.1.0\n'));
}
