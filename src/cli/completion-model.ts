/** Minimal view of a command class for completion: its flags, arguments and aliases. */
export interface CompletableCommand {
  flags?: Record<string, { char?: string; options?: readonly string[]; type?: string; hidden?: boolean } | undefined>;
  baseFlags?: Record<string, unknown>;
  args?: Record<string, unknown>;
  aliases?: string[];
}

/** How the value of a flag is completed. */
export type ValueKind = 'none' | 'file' | 'cluster' | 'options';

/** One flag as completion offers it. */
export interface CompletionFlag {
  name: string;
  char?: string;
  /** Boolean flags take no value. */
  takesValue: boolean;
  kind: ValueKind;
  options: string[];
}

/** One command line prefix (`create cluster`, `get ig`, `replace`) with what can follow it. */
export interface CompletionEntry {
  /** The words after the binary, e.g. ['create', 'cluster']. */
  words: string[];
  flags: CompletionFlag[];
  /** Subcommands when the entry is a topic (`create` -> cluster, ig, ...). */
  subcommands: string[];
  /** The positional argument is an existing cluster's name. */
  clusterArgument: boolean;
}

/** Flags whose value is a file to read: shells offer file names for them. */
const FILE_FLAGS = new Set(['filename', 'cert', 'key', 'ssh-public-key']);

/**
 * What completion knows of every command (oclif ids, `:`-separated), aliases included, sorted: the
 * shell scripts (bash, zsh, fish) are generated from this one model.
 */
export function completionModel(commands: Record<string, CompletableCommand>): CompletionEntry[] {
  const byKey = new Map<string, CompletionEntry>();
  for (const [id, cmd] of Object.entries(commands)) {
    // `create cluster` names a new cluster: there is nothing to complete from the store.
    const creates = id === 'create:cluster';
    const flags = Object.entries({ ...(cmd.baseFlags ?? {}), ...(cmd.flags ?? {}) } as NonNullable<CompletableCommand['flags']>)
      .filter(([, f]) => f !== undefined && !f.hidden)
      .map(([name, f]): CompletionFlag => {
        const options = [...(f?.options ?? [])];
        const takesValue = f?.type !== 'boolean';
        const kind: ValueKind = !takesValue
          ? 'none'
          : options.length > 0
            ? 'options'
            : FILE_FLAGS.has(name)
              ? 'file'
              : name === 'name' && !creates
                ? 'cluster'
                : 'none';
        return { name, char: f?.char, takesValue, kind, options };
      })
      .sort((a, b) => a.name.localeCompare(b.name));
    const clusterArgument = !creates && cmd.args !== undefined && Object.keys(cmd.args).includes('name');
    for (const key of [id, ...(cmd.aliases ?? [])]) byKey.set(key.replace(/:/g, ' '), { words: key.split(':'), flags, subcommands: [], clusterArgument });
  }
  // Topics without a command of their own (`get`, `edit`) still complete their subcommands.
  for (const key of [...byKey.keys()]) {
    const [topic, sub] = key.split(' ');
    if (sub === undefined) continue;
    const entry = byKey.get(topic) ?? { words: [topic], flags: [], subcommands: [], clusterArgument: false };
    entry.subcommands = [...new Set([...entry.subcommands, sub])].sort();
    byKey.set(topic, entry);
  }
  return [...byKey.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([, e]) => e);
}
