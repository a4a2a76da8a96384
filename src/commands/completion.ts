import { Args } from '@oclif/core';
import { BaseCommand } from '../cli/base-command';
import { UsageError } from '../errors/usage-error';

/** `kforge completion bash|zsh`: prints a shell completion script. */
export default class Completion extends BaseCommand {
  static override summary = 'Print a shell completion script (bash, or zsh via bashcompinit).';
  static override examples = [
    'source <(<%= config.bin %> completion bash)          # current shell',
    '<%= config.bin %> completion bash > /etc/bash_completion.d/kforge',
    'autoload -U +X bashcompinit && bashcompinit && source <(<%= config.bin %> completion zsh)',
  ];
  static override args = { shell: Args.string({ description: 'bash or zsh', default: 'bash' }) };

  async run(): Promise<void> {
    const { args } = await this.parse(Completion);
    if (args.shell !== 'bash' && args.shell !== 'zsh') throw new UsageError(`completion: shell "${args.shell}" is not supported; use bash or zsh`);
    const { COMMANDS } = await import('./index');
    const { bashCompletionScript } = await import('../cli/completion-script');
    this.out(bashCompletionScript(COMMANDS as never, this.config.bin));
  }
}
