/** A Node as a rolling update needs to see it. */
export interface RollingUpdateNode {
  name: string;
  /** The EC2 instance id from `spec.providerID` (`aws:///<zone>/<id>`), when it has one. */
  instanceId?: string;
  /** The Ready condition is True. */
  ready: boolean;
  /** Cordoned (`spec.unschedulable`). */
  unschedulable: boolean;
  /** Annotated `kops.k8s.io/needs-update`: replace it whatever its launch template version. */
  needsUpdate: boolean;
}

/** The outcome of one validation pass of the cluster. */
export interface ValidationPass {
  /** No failures. */
  ok: boolean;
  /** Each problem as one line (what and where), sorted. */
  failures: string[];
}

/** What a drain reports while it waits on a PodDisruptionBudget. */
export interface DrainBlocked {
  node: string;
  /** `<namespace>/<pod>`. */
  pod: string;
  /** `<namespace>/<pdb>`, when the API named it. */
  pdb?: string;
  message: string;
}

/** The Kubernetes API calls a rolling update makes (absent with `--cloudonly`). */
export interface RollingUpdateKube {
  /** Every Node. */
  nodes(): Promise<RollingUpdateNode[]>;
  /**
   * Adds kops's PreferNoSchedule taint `kops.k8s.io/scheduled-for-update` (a no-op when it has it or is
   * gone): pods evicted from the first old nodes then avoid the other old ones.
   */
  taintForUpdate(node: string): Promise<void>;
  /** Marks the node unschedulable (a no-op when it is gone). */
  cordon(node: string): Promise<void>;
  /**
   * Evicts every pod on the node through the Eviction API except DaemonSet and mirror pods, retrying
   * those a PodDisruptionBudget protects (429) until `timeoutMs`; then DrainFailedError naming the pod and
   * the budget. `onBlocked` hears each refusal.
   */
  drain(node: string, options: { timeoutMs: number; retryMs: number; onBlocked?: (b: DrainBlocked) => void }): Promise<void>;
  /** Deletes the Node object (a no-op when it is gone), so a replacement of the same name is not cordoned. */
  deleteNode(node: string): Promise<void>;
  /** One validation pass of the cluster (the pass `kforge validate cluster` runs). */
  validate(): Promise<ValidationPass>;
}
