import { Args, Flags } from '@oclif/core';
import { BaseCommand } from '../../cli/base-command';
import { OUTPUT_FORMATS, OutputFormat } from '../../cli/output';
import { UsageError } from '../../errors/usage-error';

/**
 * `kforge get NAME`: kops's bare `get`, the same as `get all NAME`. Being a command as well as a topic,
 * it receives every `get WORD` that is not a subcommand, so a dotless word (never a cluster name) is
 * reported as an unknown subcommand, with the closest one suggested.
 */
export default class Get extends BaseCommand {
  static override summary = 'Show a cluster and its instance groups, or (with a subcommand) clusters, instance groups, keypairs or SSH keys.';
  static override description =
    '"kforge get NAME" is "kforge get all NAME", as in kops: the cluster then its instance groups as tables, or every object with -o yaml|json (a list that "kforge create -f" accepts). The cluster may also come from --name or KFORGE_CLUSTER_NAME.';
  static override examples = ['<%= config.bin %> get x.example.com', '<%= config.bin %> get x.example.com -o yaml > x.yaml', '<%= config.bin %> get clusters'];
  static override args = { name: Args.string({ description: 'Cluster name' }) };
  static override flags = {
    name: Flags.string({ description: 'Cluster name (alternative to the argument). Env: KFORGE_CLUSTER_NAME' }),
    output: Flags.string({ char: 'o', description: 'Output format', options: [...OUTPUT_FORMATS], default: 'table' }),
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(Get);
    const getCommands = this.config.commands.filter((c) => c.id.startsWith('get:'));
    const subcommands = getCommands.flatMap((c) => [c.id, ...c.aliases]).map((id) => id.slice('get:'.length));
    if (args.name !== undefined && !args.name.includes('.')) {
      const { closestWord } = await import('../../cli/closest-word');
      const near = closestWord(args.name, subcommands);
      // Normally caught earlier (src/cli/command-words.ts); the same message when run directly.
      throw new UsageError(`unknown command "get ${args.name}".${near ? ` Did you mean "kforge get ${near}"?` : ''} (a cluster name contains a dot; subcommands: ${getCommands.map((c) => c.id.slice('get:'.length)).sort().join(', ')})`);
    }
    if (args.name === undefined && flags.name === undefined && !process.env.KFORGE_CLUSTER_NAME) {
      throw new UsageError('name a cluster ("kforge get NAME", or --name) or a subcommand: kforge get clusters|instancegroups|keypairs|sshpublickeys|all');
    }
    const name = this.clusterName(args.name, flags.name);
    const { openVfs } = await import('../../state/vfs/open-vfs');
    const { getClusterObjects } = await import('../../ops/get-cluster-objects');
    const { renderClusterObjects } = await import('../../cli/render-cluster-objects');
    this.out(renderClusterObjects(await getClusterObjects(openVfs(this.stateUrl(flags)), name), flags.output as OutputFormat));
  }
}
