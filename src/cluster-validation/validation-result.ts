/** What failed, in validate's order of checks. */
export type FailureKind = 'API' | 'InstanceGroup' | 'Machine' | 'Node' | 'ControlPlanePod' | 'Pod' | 'Addon';

/** One validation failure: what, which, and why where a cause can be found. */
export interface ValidationFailure {
  kind: FailureKind;
  /** The object: the API URL, an instance group, an instance id, a node, `namespace/pod`, an addon. */
  name: string;
  message: string;
  instanceGroup?: string;
  /** Where it comes from: the API step that failed, the instance state, nodeup's last console stage, a condition reason, a waiting reason. */
  cause?: string;
}

/** A node as validate saw it. */
export interface ValidatedNode {
  name: string;
  role: 'control-plane' | 'node';
  instanceGroup?: string;
  instanceId?: string;
  zone?: string;
  ready: boolean;
  /** The Ready condition's status: True, False or Unknown. */
  status: string;
  reason?: string;
  message?: string;
}

/** The result of one validation pass. */
export interface ValidationResult {
  cluster: string;
  valid: boolean;
  /** Sorted by check order, then name. */
  failures: ValidationFailure[];
  /** Sorted by role (control-plane first), then name. */
  nodes: ValidatedNode[];
}

const ORDER: FailureKind[] = ['API', 'InstanceGroup', 'Machine', 'Node', 'ControlPlanePod', 'Pod', 'Addon'];

/** Failures in validate's order: by kind in check order, then by name and message. */
export function sortFailures(failures: ValidationFailure[]): ValidationFailure[] {
  return [...failures].sort((a, b) => ORDER.indexOf(a.kind) - ORDER.indexOf(b.kind) || a.name.localeCompare(b.name) || a.message.localeCompare(b.message));
}
