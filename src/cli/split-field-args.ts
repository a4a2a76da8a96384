/** The positional arguments of `set|unset cluster|instancegroup`: an optional leading name, then fields. */
export interface FieldArgs {
  /** The cluster (or group) name when the first argument is one. */
  name?: string;
  fields: string[];
}

/**
 * Splits `[NAME] field...` as kops does: for `set`, the first argument is a name when it has no `=`;
 * for `unset`, when it does not start with a field root (`spec.`, `metadata.`, `cluster.`, `instancegroup.`),
 * since cluster names contain dots too.
 */
export function splitFieldArgs(argv: string[], mode: 'set' | 'unset'): FieldArgs {
  const [first, ...rest] = argv;
  if (first === undefined) return { fields: [] };
  const isName = mode === 'set' ? !first.includes('=') : !/^(spec|metadata|cluster|instancegroup)\./.test(first) && !first.includes('=');
  return isName ? { name: first, fields: rest } : { fields: argv };
}
