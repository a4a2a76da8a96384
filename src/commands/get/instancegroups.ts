import { Args, Flags } from '@oclif/core';
import { BaseCommand } from '../../cli/base-command';
import { OUTPUT_FORMATS, renderObjects, renderTable } from '../../cli/output';
import { NotFoundError } from '../../errors/not-found-error';

/** `kforge get instancegroups --name C [IG...]`. */
export default class GetInstanceGroups extends BaseCommand {
  static override aliases = ['get:instancegroup', 'get:ig', 'get:igs'];
  static override summary = 'List the instance groups of a cluster.';
  static override description =
    'The cluster is named with --name (or KFORGE_CLUSTER_NAME); arguments name instance groups to show, default all. With -o yaml or -o json, prints the InstanceGroup objects as "kforge replace -f" accepts them.';
  static override examples = ['<%= config.bin %> get instancegroups --name x.example.com', '<%= config.bin %> get ig nodes-us-east-1a --name x.example.com -o yaml'];
  static override strict = false;
  static override args = { groups: Args.string({ description: 'Instance group names; default: all' }) };
  static override flags = {
    name: Flags.string({ description: 'Cluster name. Env: KFORGE_CLUSTER_NAME' }),
    output: Flags.string({ char: 'o', description: 'Output format', options: [...OUTPUT_FORMATS], default: 'table' }),
  };

  async run(): Promise<void> {
    const { argv, flags } = await this.parse(GetInstanceGroups);
    const cluster = this.clusterFromFlag(flags.name, 'instance groups', argv as string[]);
    for (const g of argv as string[]) this.checkName('instance group', g);
    const { openVfs } = await import('../../state/vfs/open-vfs');
    const { ClusterRepository } = await import('../../state/cluster-repository');
    const stored = await new ClusterRepository(openVfs(this.stateUrl(flags))).get(cluster);
    const wanted = argv as string[];
    const igs = stored.instanceGroups.map((v) => v.object).filter((ig) => wanted.length === 0 || wanted.includes(ig.metadata.name));
    for (const w of wanted) if (!igs.some((ig) => ig.metadata.name === w)) throw new NotFoundError(`instance group "${w}" not found in cluster "${cluster}"`);
    const format = flags.output as 'table' | 'yaml' | 'json';
    if (format !== 'table') {
      this.out(renderObjects(format, igs, wanted.length !== 1));
      return;
    }
    const rows = igs.map((ig) => [ig.metadata.name, ig.spec.role, ig.spec.machineType ?? '(auto)', String(ig.spec.minSize ?? ''), String(ig.spec.maxSize ?? ''), (ig.spec.subnets ?? []).join(',')]);
    this.out(renderTable(['NAME', 'ROLE', 'MACHINETYPE', 'MIN', 'MAX', 'SUBNETS'], rows));
  }
}
