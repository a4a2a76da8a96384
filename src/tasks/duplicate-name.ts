/**
 * Several resources of the cluster that carry one task's name (an answer lost before the create was made
 * idempotent, a tool that ignores tokens, a copy made by hand): the task uses `used`, the rest stay
 * untouched, and the plan lists them all so that nobody mistakes "No changes" for "exactly one of each".
 */
export interface DuplicateName {
  /** The task kind, e.g. `EBSVolume`, `RouteTable`. */
  type: string;
  /** The name (Name tag) they share. */
  name: string;
  /** Every resource with that name, by id, sorted. */
  ids: string[];
  /** The one the task finds and updates: the lowest id, so every run picks the same one. */
  used: string;
}
