/** What one delete attempt achieved: the resource is gone, or its deletion started and is not finished yet. */
export type DeleteOutcome = 'deleted' | 'pending';

/**
 * One cloud resource of a cluster, as `delete cluster` lists and deletes it (kops's `resources.Resource`).
 * `delete()` is idempotent: the deleter calls it again in later rounds while it answers `pending` (a NAT
 * gateway being deleted, an Auto Scaling group whose instances are still terminating) or after a
 * dependency error.
 */
export interface ClusterResource {
  /** Kind, kops-style: `vpc`, `subnet`, `security-group`, `autoscaling-group`, … */
  type: string;
  /** The `Name` tag (or the resource's own name); the id when it has none. */
  name: string;
  /** The cloud's id, unique in a listing: ARNs for load balancers and IAM entities, the name for Auto Scaling groups. */
  id: string;
  /** Ids of resources of the same listing that must be gone before this one can be deleted. */
  dependsOn: string[];
  /** Deletes the resource, or checks on a deletion already started. */
  delete(): Promise<DeleteOutcome>;
}
