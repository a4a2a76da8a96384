import { Args, Flags } from '@oclif/core';
import { BaseCommand } from '../cli/base-command';
import { UsageError } from '../errors/usage-error';

// Completion runs on every Tab press: a store that does not answer quickly gets no cluster names.
const LIST_TIMEOUT_MS = 2000;

/** `kforge completion bash|zsh|fish`: prints a shell completion script. */
export default class Completion extends BaseCommand {
  static override summary = 'Print a shell completion script (bash, zsh or fish).';
  static override description =
    'Completes commands, flags, fixed flag values (--networking, --topology, --dns, -o, ...), file names for -f, --cert, --key and --ssh-public-key, and cluster names for --name and the cluster argument, read from the state store given on the command line (or KFORGE_STATE_STORE, or the default) with a 2 s limit.';
  static override examples = [
    'source <(<%= config.bin %> completion bash)          # current shell',
    '<%= config.bin %> completion bash > /etc/bash_completion.d/kforge',
    'autoload -U +X bashcompinit && bashcompinit && source <(<%= config.bin %> completion zsh)',
    '<%= config.bin %> completion fish > ~/.config/fish/completions/kforge.fish',
  ];
  static override args = { shell: Args.string({ description: 'bash, zsh or fish', default: 'bash' }) };
  static override flags = {
    // Called by the scripts themselves, not by people.
    'list-clusters': Flags.boolean({ description: 'Print the names of the clusters in the state store, one per line (used by the completion scripts)', hidden: true }),
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(Completion);
    if (flags['list-clusters']) {
      const { listClusterNamesQuickly } = await import('../ops/list-cluster-names');
      for (const name of await listClusterNamesQuickly(this.stateUrl(flags), LIST_TIMEOUT_MS)) this.out(name);
      // An SDK client may keep sockets open; the shell waits for this process to end.
      process.exit(0);
    }
    const { COMMANDS } = await import('./index');
    if (args.shell === 'bash' || args.shell === 'zsh') {
      const { bashCompletionScript } = await import('../cli/completion-script');
      this.out(bashCompletionScript(COMMANDS as never, this.config.bin));
    } else if (args.shell === 'fish') {
      const { fishCompletionScript } = await import('../cli/fish-completion-script');
      this.out(fishCompletionScript(COMMANDS as never, this.config.bin));
    } else {
      throw new UsageError(`completion: shell "${args.shell}" is not supported; use bash, zsh or fish`);
    }
  }
}
