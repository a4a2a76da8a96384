import { CompletableCommand, completionModel } from './completion-model';

/**
 * A bash completion script for the given commands (oclif ids, `:`-separated): completes commands and
 * subcommands, flags, the values of flags with fixed options, file names for flags that read a file
 * (-f, --cert, --key, --ssh-public-key), and cluster names for --name and the cluster argument, read
 * from the state store named on the command line (or the default) through `completion --list-clusters`.
 * Also works in zsh through bashcompinit.
 */
export function bashCompletionScript(commands: Record<string, CompletableCommand>, bin = 'kforge'): string {
  const entries = completionModel(commands);
  const first = entries.filter((e) => e.words.length === 1).map((e) => e.words[0]);
  const lines: string[] = [
    `# bash completion for ${bin}; load with: source <(${bin} completion bash)`,
    `_${bin}_clusters() {`,
    '  local i state=()',
    '  for ((i = 1; i < ${#COMP_WORDS[@]}; i++)); do',
    '    case "${COMP_WORDS[i]}" in',
    '      --state) state=(--state "${COMP_WORDS[i+1]}") ;;',
    '      --state=*) state=("${COMP_WORDS[i]}") ;;',
    '    esac',
    '  done',
    '  "${COMP_WORDS[0]}" completion --list-clusters "${state[@]}" 2>/dev/null',
    '}',
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
  for (const e of entries) {
    const valueCases: string[] = [];
    for (const f of e.flags.filter((x) => x.kind !== 'none')) {
      const pattern = `--${f.name}${f.char ? `|-${f.char}` : ''}`;
      if (f.kind === 'options') valueCases.push(`${pattern}) COMPREPLY=($(compgen -W "${f.options.join(' ')}" -- "$cur")); return ;;`);
      if (f.kind === 'file') valueCases.push(`${pattern}) compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -f -- "$cur")); return ;;`);
      if (f.kind === 'cluster') valueCases.push(`${pattern}) COMPREPLY=($(compgen -W "$(_${bin}_clusters)" -- "$cur")); return ;;`);
    }
    // Other flags that take a value: nothing to offer for it.
    const valued = e.flags.filter((x) => x.kind === 'none' && x.takesValue).map((f) => `--${f.name}${f.char ? `|-${f.char}` : ''}`);
    if (valued.length > 0) valueCases.push(`${valued.join('|')}) return ;;`);
    const names = e.flags.map((f) => `--${f.name}`);
    lines.push(`      "${e.words.join(' ')}")`);
    if (valueCases.length > 0) lines.push('        case "$prev" in', ...valueCases.map((c) => `          ${c}`), '        esac');
    if (e.clusterArgument) lines.push(`        if [[ "$cur" != -* ]]; then COMPREPLY=($(compgen -W "$(_${bin}_clusters)" -- "$cur")); return; fi`);
    lines.push(`        words="${[...e.subcommands, ...names].join(' ')}" ;;`);
  }
  lines.push('    esac', '  fi', '  COMPREPLY=($(compgen -W "$words" -- "$cur"))', '}', `complete -F _${bin}_complete ${bin}`, '');
  return lines.join('\n');
}
