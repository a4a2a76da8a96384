import { Args, Flags } from '@oclif/core';
import { BaseCommand } from '../../cli/base-command';

/** `kforge get nodeup-config C --instance-group IG`: prints a group's nodeup config, for `kforge nodeup --conf` on bare metal. */
export default class GetNodeupConfig extends BaseCommand {
  static override summary = "Print an instance group's nodeup config, for kforge nodeup --conf on a machine with no cloud.";
  static override description =
    'Prints igconfig/<role>/<group>/nodeupconfig.yaml as "update cluster" stored it: what a node of the group installs (download hashes, component flags, CA certificates; never a private key). Copy it to a machine and run "kforge nodeup --conf FILE" there. Exists after the first "kforge update cluster NAME --yes".';
  static override examples = [
    '<%= config.bin %> get nodeup-config x.example.com --instance-group nodes-us-east-1a > nodeupconfig.yaml',
    '<%= config.bin %> get nodeup-config x.example.com --instance-group nodes-us-east-1a -o json',
  ];
  static override args = { name: Args.string({ description: 'Cluster name' }) };
  static override flags = {
    name: Flags.string({ description: 'Cluster name (alternative to the argument). Env: KFORGE_CLUSTER_NAME' }),
    'instance-group': Flags.string({ description: 'The instance group', required: true }),
    output: Flags.string({ char: 'o', description: 'Output format', options: ['yaml', 'json'], default: 'yaml' }),
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(GetNodeupConfig);
    const name = this.clusterName(args.name, flags.name);
    const group = this.checkName('instance group', flags['instance-group']);
    const { openVfs } = await import('../../state/vfs/open-vfs');
    const { readNodeupConfig } = await import('../../ops/read-nodeup-config');
    const { text } = await readNodeupConfig(openVfs(this.stateUrl(flags)), name, group);
    if (flags.output === 'json') {
      const yaml = await import('js-yaml');
      this.out(JSON.stringify(yaml.load(text), null, 2));
      return;
    }
    this.out(text);
  }
}
