/** Minimal view of a command class for completion: its flags and aliases. */
export interface CompletableCommand {
  flags?: Record<string, { char?: string; options?: readonly string[] } | undefined>;
  baseFlags?: Record<string, unknown>;
  aliases?: string[];
}

/**
 * A bash completion script for the given commands (oclif ids, `:`-separated): completes topics,
 * subcommands, flags of the chosen command and the values of flags that have a fixed set of options.
 * Also works in zsh through bashcompinit.
 */
export function bashCompletionScript(commands: Record<string, CompletableCommand>, bin = 'kforge'): string {
  const ids = new Map<string, CompletableCommand>();
  for (const [id, cmd] of Object.entries(commands)) {
    ids.set(id.replace(/:/g, ' '), cmd);
    for (const a of cmd.aliases ?? []) ids.set(a.replace(/:/g, ' '), cmd);
  }
  const first = [...new Set([...ids.keys()].map((k) => k.split(' ')[0]))].sort();
  const lines: string[] = [
    `# bash completion for ${bin}; load with: source <(${bin} completion bash)`,
    `_${bin}_complete() {`,
    '  local cur="${COMP_WORDS[COMP_CWORD]}" prev="${COMP_WORDS[COMP_CWORD-1]}"',
    '  local cmd="${COMP_WORDS[1]}"',
    '  if [ "$COMP_CWORD" -ge 3 ] && [[ "${COMP_WORDS[2]}" != -* ]]; then cmd="${COMP_WORDS[1]} ${COMP_WORDS[2]}"; fi',
    '  local words=""',
    '  if [ "$COMP_CWORD" -eq 1 ]; then',
    `    words="${first.join(' ')}"`,
    '  else',
    '    case "$cmd" in',
  ];
  const subs = new Map<string, string[]>();
  for (const key of ids.keys()) {
    const [topic, sub] = key.split(' ');
    if (sub) subs.set(topic, [...(subs.get(topic) ?? []), sub]);
  }
  for (const [key, cmd] of [...ids.entries()].sort(([a], [b]) => a.localeCompare(b))) {
    const flags = { ...(cmd.baseFlags ?? {}), ...(cmd.flags ?? {}) } as Record<string, { char?: string; options?: readonly string[] } | undefined>;
    const names = Object.keys(flags).sort().map((f) => `--${f}`);
    const valueCases = Object.entries(flags)
      .filter(([, f]) => f?.options && f.options.length > 0)
      .map(([n, f]) => `--${n}${f?.char ? `|-${f.char}` : ''}) COMPREPLY=($(compgen -W "${f?.options?.join(' ')}" -- "$cur")); return ;;`);
    const [topic, sub] = key.split(' ');
    const subWords = !sub && subs.has(topic) ? `${subs.get(topic)?.sort().join(' ')} ` : '';
    lines.push(`      "${key}")`);
    if (valueCases.length > 0) lines.push('        case "$prev" in', ...valueCases.map((c) => `          ${c}`), '        esac');
    lines.push(`        words="${subWords}${names.join(' ')}" ;;`);
  }
  for (const [topic, list] of [...subs.entries()].sort(([a], [b]) => a.localeCompare(b))) {
    if (!ids.has(topic)) lines.push(`      "${topic}") words="${[...new Set(list)].sort().join(' ')}" ;;`);
  }
  lines.push('    esac', '  fi', '  COMPREPLY=($(compgen -W "$words" -- "$cur"))', '}', `complete -F _${bin}_complete ${bin}`, '');
  return lines.join('\n');
}
