import { CompletableCommand, completionModel } from './completion-model';

/**
 * A fish completion script for the given commands (oclif ids, `:`-separated), from the same model as
 * the bash one: commands, subcommands, flags, fixed values, file names for flags that read a file, and
 * cluster names from the state store for --name and the cluster argument.
 */
export function fishCompletionScript(commands: Record<string, CompletableCommand>, bin = 'kforge'): string {
  const entries = completionModel(commands);
  const q = (s: string) => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
  const lines: string[] = [
    `# fish completion for ${bin}; load with: ${bin} completion fish | source`,
    `complete -c ${bin} -f`,
    // True when the command line so far is exactly the given words (plus flags and values after them),
    // and, for a topic, no subcommand of it follows.
    `function __${bin}_is`,
    '  set -l t (commandline -opc)',
    '  set -l want (string split " " -- $argv[1])',
    '  set -l n (count $want)',
    '  test (count $t) -gt $n; or return 1',
    '  for i in (seq $n)',
    '    set -l j (math $i + 1)',
    '    test "$t[$j]" = "$want[$i]"; or return 1',
    '  end',
    '  set -l k (math $n + 2)',
    '  if test (count $t) -ge $k; and contains -- "$t[$k]" $argv[2..-1]',
    '    return 1',
    '  end',
    '  return 0',
    'end',
    `function __${bin}_clusters`,
    '  set -l t (commandline -opc)',
    '  set -l state',
    '  for i in (seq (count $t))',
    '    if test "$t[$i]" = --state; and test $i -lt (count $t)',
    '      set -l j (math $i + 1)',
    '      set state --state $t[$j]',
    '    else if string match -q -- "--state=*" $t[$i]',
    '      set state $t[$i]',
    '    end',
    '  end',
    '  $t[1] completion --list-clusters $state 2>/dev/null',
    'end',
    `complete -c ${bin} -n 'test (count (commandline -opc)) -eq 1' -a ${q(entries.filter((e) => e.words.length === 1).map((e) => e.words[0]).join(' '))}`,
  ];
  for (const e of entries) {
    const cond = `__${bin}_is ${[e.words.join(' '), ...e.subcommands].map(q).join(' ')}`;
    if (e.subcommands.length > 0) lines.push(`complete -c ${bin} -n ${q(`${cond}; and test (count (commandline -opc)) -eq ${e.words.length + 1}`)} -a ${q(e.subcommands.join(' '))}`);
    if (e.clusterArgument) lines.push(`complete -c ${bin} -n ${q(cond)} -a '(__${bin}_clusters)'`);
    for (const f of e.flags) {
      const parts = [`complete -c ${bin} -n ${q(cond)} -l ${f.name}`];
      if (f.char) parts.push(`-s ${f.char}`);
      if (f.kind === 'options') parts.push(`-x -a ${q(f.options.join(' '))}`);
      else if (f.kind === 'file') parts.push('-r -F');
      else if (f.kind === 'cluster') parts.push(`-x -a '(__${bin}_clusters)'`);
      else if (f.takesValue) parts.push('-x');
      lines.push(parts.join(' '));
    }
  }
  return `${lines.join('\n')}\n`;
}
