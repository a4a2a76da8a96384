/**
 * What the engine may do with a task, kops's `fi.Lifecycle` (`upup/pkg/fi/lifecycle.go`), set per task kind
 * with `update cluster --lifecycle-overrides Kind=Lifecycle`:
 * - `Sync`: find, diff and apply (the default);
 * - `Ignore`: never applied; still found (read-only) so that dependants learn its id when it exists;
 * - `WarnIfInsufficientAccess`: as Sync, but an access-denied error (find or apply) is a warning and the task is left alone;
 * - `ExistsAndValidates`: must exist and match; anything else fails the plan, before any change;
 * - `ExistsAndWarnIfChanges`: must exist (else the plan fails); differences are warnings, never applied.
 */
export type Lifecycle = 'Sync' | 'Ignore' | 'WarnIfInsufficientAccess' | 'ExistsAndValidates' | 'ExistsAndWarnIfChanges';

/** Every lifecycle, in kops's order (as usage errors list them). */
export const LIFECYCLES: readonly Lifecycle[] = ['Sync', 'Ignore', 'WarnIfInsufficientAccess', 'ExistsAndValidates', 'ExistsAndWarnIfChanges'];

/** Whether `value` names a lifecycle (exactly, as kops's LifecycleNameMap). */
export function isLifecycle(value: string): value is Lifecycle {
  return (LIFECYCLES as readonly string[]).includes(value);
}

/** Whether the engine may create or change a task's resource under this lifecycle. */
export function lifecycleApplies(lifecycle: Lifecycle): boolean {
  return lifecycle === 'Sync' || lifecycle === 'WarnIfInsufficientAccess';
}

/** The lifecycle of a kind under `lifecycles` (by task kind, as `--lifecycle-overrides` gives them): Sync when not listed. */
export function lifecycleOfKind(lifecycles: Readonly<Record<string, Lifecycle>> | undefined, kind: string): Lifecycle {
  return lifecycles && Object.prototype.hasOwnProperty.call(lifecycles, kind) ? (lifecycles[kind] ?? 'Sync') : 'Sync';
}
