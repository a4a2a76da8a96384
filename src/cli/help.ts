import { Command, Help, Interfaces } from '@oclif/core';

/** What a new user types first; shown at the end of the top-level help. */
const ROOT_EXAMPLES = [
  '<%= config.bin %> create cluster demo.k8s.local --zones us-east-1a',
  '<%= config.bin %> get clusters',
  '<%= config.bin %> get cluster demo.k8s.local -o yaml > demo.yaml',
  '<%= config.bin %> replace -f demo.yaml',
  '<%= config.bin %> export kubeconfig demo.k8s.local --admin',
  '<%= config.bin %> help create cluster',
];

/**
 * kforge's help (package.json `oclif.helpClass`): lists each command once, with its aliases beside it
 * instead of as commands of their own, and ends the top-level and topic help with examples.
 */
export default class KforgeHelp extends Help {
  /** Alias entries (oclif lists every alias as a command) are dropped; their command names them. */
  protected override formatCommands(commands: Command.Loadable[]): string {
    const own = commands.filter((c) => !(c.aliases ?? []).includes(c.id));
    // Copies: the base class rewrites ids in place, and config.commands is shared with later sections.
    const withAliases = own.map((c) => {
      const aliases = (c.aliases ?? []).map((a) => a.split(':').pop() as string).sort();
      if (aliases.length === 0) return { ...c } as Command.Loadable;
      const summary = (c.summary ?? c.description ?? '').split('\n')[0];
      return { ...c, summary: `${summary} (alias${aliases.length > 1 ? 'es' : ''}: ${aliases.join(', ')})` } as Command.Loadable;
    });
    return super.formatCommands(withAliases);
  }

  /** Top-level help, then the first steps. */
  protected override async showRootHelp(): Promise<void> {
    await super.showRootHelp();
    this.log(this.examples(ROOT_EXAMPLES));
    this.log('');
  }

  /** Topic help, then one example of each of the topic's commands. */
  protected override async showTopicHelp(topic: Interfaces.Topic): Promise<void> {
    await super.showTopicHelp(topic);
    const prefix = `${topic.name.replaceAll(this.config.topicSeparator, ':')}:`;
    const examples = this.sortedCommands
      .filter((c) => c.id.startsWith(prefix) && !(c.aliases ?? []).includes(c.id))
      .flatMap((c) => (c.examples ?? []).slice(0, 1))
      .map((e) => (typeof e === 'string' ? e : e.command));
    if (examples.length > 0) {
      this.log(this.examples(examples));
      this.log('');
    }
  }

  /** An EXAMPLES section like the one of a command's help. */
  private examples(lines: string[]): string {
    return this.section('EXAMPLES', lines.map((l) => `$ ${this.render(l)}`).join('\n\n'));
  }
}
