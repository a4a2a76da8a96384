/** The positional arguments of `set|unset cluster|instancegroup`: an optional leading name, then fields. */
export interface FieldArgs {
  /** The cluster (or group) name when the first argument is one. */
  name?: string;
  fields: string[];
}

/**
 * Splits `[NAME] field...` as kops does: the first argument is a name when it has no `=` and does not
 * start with a field root (`spec.`, `metadata.`); cluster names contain dots too, so a field given
 * without its value (`set cluster spec.x`) is reported as such rather than taken for a cluster.
 */
export function splitFieldArgs(argv: string[]): FieldArgs {
  const [first, ...rest] = argv;
  if (first === undefined) return { fields: [] };
  const isName = !first.includes('=') && !/^(spec|metadata)\./.test(first);
  return isName ? { name: first, fields: rest } : { fields: argv };
}
