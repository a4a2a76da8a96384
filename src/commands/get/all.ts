import { Args, Flags } from '@oclif/core';
import { BaseCommand } from '../../cli/base-command';
import { OUTPUT_FORMATS, OutputFormat } from '../../cli/output';

/** `kforge get all NAME`: the cluster and its instance groups (kops's `get all`). */
export default class GetAll extends BaseCommand {
  static override summary = 'Show a cluster and its instance groups (kops\'s "get all"; also "kforge get NAME").';
  static override description =
    'As a table: the cluster, then its instance groups (and any additional objects stored with it). With -o yaml, every object as a multi-document stream that "kforge create -f" and "kforge replace -f" accept; with -o json, a JSON array of the same objects.';
  static override examples = ['<%= config.bin %> get all x.example.com', '<%= config.bin %> get all x.example.com -o yaml > x.yaml', '<%= config.bin %> get x.example.com -o json'];
  static override args = { name: Args.string({ description: 'Cluster name' }) };
  static override flags = {
    name: Flags.string({ description: 'Cluster name (alternative to the argument). Env: KFORGE_CLUSTER_NAME' }),
    output: Flags.string({ char: 'o', description: 'Output format', options: [...OUTPUT_FORMATS], default: 'table' }),
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(GetAll);
    const name = this.clusterName(args.name, flags.name);
    const { openVfs } = await import('../../state/vfs/open-vfs');
    const { getClusterObjects } = await import('../../ops/get-cluster-objects');
    const { renderClusterObjects } = await import('../../cli/render-cluster-objects');
    this.out(renderClusterObjects(await getClusterObjects(openVfs(this.stateUrl(flags)), name), flags.output as OutputFormat));
  }
}
