import { UsageError } from '../errors/usage-error';
import { isLifecycle, Lifecycle, LIFECYCLES } from './lifecycle';

/**
 * Parses `--lifecycle-overrides` values (`Kind=Lifecycle`, each value possibly a comma-separated list, as
 * kops's StringSlice flag) into lifecycles by task kind. `kinds` maps every name a user may write (kops's
 * task type names and the cloud's own kinds) to the task kind it means. An unknown name or lifecycle, a
 * malformed item, or one kind given two lifecycles is a UsageError naming the flag and the valid values.
 */
export function parseLifecycleOverrides(values: readonly string[], kinds: Readonly<Record<string, string>>, flag = '--lifecycle-overrides'): Record<string, Lifecycle> {
  const out: Record<string, Lifecycle> = {};
  const names = Object.keys(kinds).sort();
  for (const item of values.flatMap((v) => v.split(',')).map((v) => v.trim())) {
    if (item === '') continue;
    const parts = item.split('=');
    if (parts.length !== 2 || parts[0] === '' || parts[1] === '') {
      throw new UsageError(`${flag}: "${item}" is not Kind=Lifecycle (e.g. IAMRole=ExistsAndWarnIfChanges)`);
    }
    const [name, lifecycle] = parts as [string, string];
    const kind = Object.prototype.hasOwnProperty.call(kinds, name) ? kinds[name] : undefined;
    if (kind === undefined) throw new UsageError(`${flag}: unknown task kind "${name}" in "${item}"; valid kinds: ${names.join(', ')}`);
    if (!isLifecycle(lifecycle)) throw new UsageError(`${flag}: unknown lifecycle "${lifecycle}" in "${item}"; valid lifecycles: ${LIFECYCLES.join(', ')}`);
    const before = out[kind];
    if (before !== undefined && before !== lifecycle) throw new UsageError(`${flag}: ${kind} is given two lifecycles, ${before} and ${lifecycle}`);
    out[kind] = lifecycle;
  }
  return out;
}
