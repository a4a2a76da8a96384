import type { Cluster, InstanceGroup } from '../api/types';
import { UsageError } from '../errors/usage-error';
import type { RollingUpdateCloud } from '../rolling-update/update-instance-group';
import type { DuplicateName } from '../tasks/duplicate-name';
import type { AnyTask } from '../tasks/task';
import type { TaskExecutor, TaskExecutorOptions } from '../tasks/task-executor';
// The shape `get instances` and `validate` read; AWS's groups and instances are the first to fill it.
import type { ClusterInstances } from './aws/cluster-instances';

/** The cluster's machines, as `validate cluster` and `get instances` read them through a provider. */
export interface CloudMachines {
  /** The instance groups' cloud groups and their machines, in a fixed number of calls. */
  instances(): Promise<ClusterInstances>;
  /** A machine's serial console, for why it has not registered. */
  consoleOutput(instanceId: string): Promise<string>;
}

/** The API calls of a run, as a command prints them and tests assert on them (AWS: ApiCallCounter). */
export interface CallCounter {
  /** Whose API is counted, for the summary line (`GCE API: …`); default AWS. */
  readonly api?: string;
  /** Operations made (a retried operation counts once). */
  calls: number;
  /** HTTP requests made, retries included. */
  attempts: number;
  /** Requests the cloud throttled. */
  throttled: number;
  /** Operations that change something. */
  mutating: number;
  /** Operations per name, sorted. */
  snapshot(): Record<string, number>;
}

/** One cluster's connection to its cloud, as the ops see it: whatever else it holds is the provider's. */
export interface CloudConnection {
  /** Region (AWS) or region of the zones (GCE). */
  readonly region: string;
  readonly calls: CallCounter;
  /** The cluster's UID, which salts idempotency tokens; set before the first create that takes one. */
  clusterUid: string | undefined;
  /** The account or project the credentials belong to (AWS: STS's Account), once connected; what addon manifests name. */
  accountId?: string;
  /** The cluster lock's fence: every mutating call awaits it first. */
  fence?: () => Promise<void>;
}

/** How to connect: the clients' environment, static credentials (tests), what a failure means for the user. */
export interface ConnectOptions {
  env?: NodeJS.ProcessEnv;
  credentials?: { accessKeyId: string; secretAccessKey: string };
  clusterUid?: string;
  /** Appended to a credentials error, e.g. `; nothing was deleted`. */
  consequence?: string;
}

/** What the builders need from the state store besides the spec (see update-cluster's modelInputs). */
export interface ModelInputs {
  nodeupConfigHashes: Readonly<Record<string, string>>;
  sshPublicKey?: { fingerprint: string; publicKey: string };
  stateStoreKmsKey?: string;
  kopsControllerCa?: string;
}

/** A resource of the cluster that the model no longer has: what `update` lists under "Will delete". */
export interface OrphanedResource {
  kind: string;
  name: string;
}

/** One cloud resource of a cluster as `delete cluster` lists and deletes it (kops's `resources.Resource`). */
export interface ListedResource {
  type: string;
  name: string;
  id: string;
  dependsOn: string[];
  delete(): Promise<'deleted' | 'pending'>;
}

/** A resource the cluster used but does not own: left alone by `delete cluster`, only its cluster tag removed. */
export interface SharedResource {
  type: string;
  name: string;
  id: string;
  tagged: boolean;
  untag(): Promise<boolean>;
}

/** The cloud side of `delete cluster`: a connection plus what the provider needs to find the cluster's resources. */
export interface DeleteTarget {
  cloud: CloudConnection;
}

/** How the deleter paces its rounds (AWS: DeleteInRoundsOptions); the defaults suit the cloud, tests pass small numbers. */
export interface DeleteOptions {
  concurrency?: number;
  backoffMs?: number;
  maxBackoffMs?: number;
  maxStalledRounds?: number;
  maxRounds?: number;
  timeoutMs?: number;
  /** Called after each round, e.g. to print `round 2: deleted 7, 3 waiting`. */
  onRound?: (report: { round: number; deleted: ListedResource[]; waiting: number }) => void;
  /** The cluster lock's fence, awaited before each deletion. */
  fence?: () => Promise<void>;
  sleep?: (ms: number) => Promise<void>;
}

/**
 * One cloud as the ops use it (the seam of issue 21): connect and prove the credentials, preflight, build the
 * tasks from the completed spec, find (the executor over the provider's inventory), the orphan finder, and
 * the lister and deleter behind `delete cluster`. The ops pass a connection back only to the provider that
 * made it. Methods (not function properties), so that a provider of a narrower connection type fits.
 */
export interface CloudProvider<C extends CloudConnection = CloudConnection, T extends DeleteTarget = DeleteTarget> {
  /** `spec.cloudProvider`. */
  readonly name: 'aws' | 'gce';
  /** The names `--lifecycle-overrides` accepts (kops's task type names and kforge's kinds), mapped to task kinds. */
  readonly lifecycleKinds: Readonly<Record<string, string>>;
  /** Connects and proves the credentials with one cheap call, before anything is planned. */
  connect(cluster: Cluster, options: ConnectOptions): Promise<C>;
  /** Checks what the cloud must offer before anything is created (images, zones, instance types). */
  preflight(cloud: C, completed: Cluster, instanceGroups: readonly InstanceGroup[]): Promise<void>;
  /** The tasks of the completed spec, from the provider's pure model builders. */
  buildTasks(completed: Cluster, instanceGroups: readonly InstanceGroup[], inputs: ModelInputs): Promise<AnyTask<C>[]>;
  /** The executor that finds the tasks in the provider's inventory and applies them. */
  executor(cloud: C, tasks: readonly AnyTask<C>[], options: TaskExecutorOptions): Promise<TaskExecutor<C>>;
  /** Names that match more than one of the cluster's resources, found while planning. */
  duplicateNames(cloud: C): DuplicateName[];
  /** Read-only lookups the Terraform rendering needs (images, zone ids). */
  prepareTerraform(cloud: C, tasks: readonly AnyTask<C>[]): Promise<void>;
  /** Renders the tasks as `kubernetes.tf` and `data/`. */
  renderTerraform(cluster: string, cloud: C, tasks: readonly AnyTask<C>[]): Promise<{ files: Map<string, string>; resources: string[] }>;
  /** Resources of the cluster that no task of the model has (a deleted instance group's). */
  findOrphans(cloud: C, tasks: readonly AnyTask<C>[]): Promise<OrphanedResource[]>;
  /** Deletes what findOrphans found. */
  deleteOrphans(cloud: C, orphans: readonly OrphanedResource[]): Promise<void>;
  /** Deletes one instance group's own resources (`delete instancegroup`); the descriptions of what went, sorted. */
  deleteInstanceGroup(cloud: C, cluster: Cluster, group: InstanceGroup | undefined, name: string): Promise<string[]>;
  /** The cloud side of `delete cluster`: connected, with what the spec names as shared. */
  deleteTarget(cluster: Cluster, instanceGroups: readonly InstanceGroup[], env: NodeJS.ProcessEnv): Promise<T>;
  /** Every cloud resource of the cluster, sorted by type, name and id. */
  listClusterResources(target: T): Promise<ListedResource[]>;
  /** The shared resources the cluster used: never deleted. */
  listSharedResources(target: T): Promise<SharedResource[]>;
  /** Deletes listed resources in dependency rounds. */
  deleteResources(resources: readonly ListedResource[], options: DeleteOptions): Promise<void>;
  /** Removes the cluster's tag from a shared resource, retried as the provider retries reads. */
  untagShared(resource: SharedResource): Promise<boolean>;
  /** The DNS name of the API load balancer (clusters without DNS), or undefined when there is none yet. */
  apiLoadBalancerDnsName(cloud: C, cluster: string): Promise<string | undefined>;
  /** The cluster's machines, read through this connection. */
  machines(cloud: C): CloudMachines;
  /** The cloud side of `rolling-update cluster` (detach, terminate, groups). */
  rollingUpdateCloud(cloud: C): Promise<RollingUpdateCloud>;
  /** The DNS hosted zone (id) of a name, for `create cluster` without `--dns-zone`. */
  findDnsZone(cloud: C, name: string, privateZone: boolean): Promise<string>;
}

/** The cloud of a spec: `spec.cloudProvider`, AWS when unset (as create makes it). */
export function cloudProviderName(cluster: Cluster): string {
  return cluster.spec?.cloudProvider ?? 'aws';
}

/**
 * The provider of a cloud, loaded on first use: a command that never reaches a cloud pays for no SDK.
 * UsageError for a cloud kforge does not build; `what` names the command for the message.
 */
export async function loadCloudProvider(name: string, what: string): Promise<CloudProvider> {
  if (name === 'aws') return (await import('./aws/aws-cloud-provider')).awsCloudProvider;
  if (name === 'gce') return (await import('./gce/gce-cloud-provider')).gceCloudProvider;
  throw new UsageError(`${what}: cloud "${name}" (spec.cloudProvider) is not supported; kforge builds clusters on aws and gce`);
}
