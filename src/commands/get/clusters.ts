import { Args, Flags } from '@oclif/core';
import { BaseCommand } from '../../cli/base-command';
import { OUTPUT_FORMATS, renderObjects, renderTable } from '../../cli/output';
import { UsageError } from '../../errors/usage-error';

/** `kforge get clusters [NAME]`: lists clusters or prints one, optionally its completed spec. */
export default class GetClusters extends BaseCommand {
  static override aliases = ['get:cluster'];
  static override summary = 'List clusters, or print one cluster (with --full, its completed spec).';
  static override description =
    'Prints Clusters only, as kops does: with -o yaml|json a list when listing, the Cluster object when one is named ("kforge get all NAME -o yaml" adds its instance groups, as "kforge create -f" takes them). --full prints the completed spec instead: every default and derived value filled in, computed from the stored objects as "update cluster" will write it.';
  static override examples = [
    '<%= config.bin %> get clusters',
    '<%= config.bin %> get cluster x.example.com -o yaml > x.yaml',
    '<%= config.bin %> get cluster x.example.com --full -o yaml',
    '<%= config.bin %> get clusters a.example.com b.example.com -o json',
  ];
  // Several names may be given, as `kops get clusters A B` takes them.
  static override strict = false;
  static override args = { name: Args.string({ description: 'Cluster name(s); default: all clusters' }) };
  static override flags = {
    name: Flags.string({ description: 'Cluster name (alternative to the argument)' }),
    output: Flags.string({ char: 'o', description: 'Output format', options: [...OUTPUT_FORMATS], default: 'table' }),
    full: Flags.boolean({ description: 'Print the completed spec (needs a cluster name)' }),
  };

  async run(): Promise<void> {
    const { args, argv, flags } = await this.parse(GetClusters);
    const { checkStoreExists, openVfs } = await import('../../state/vfs/open-vfs');
    const { ClusterRepository } = await import('../../state/cluster-repository');
    const repo = new ClusterRepository(openVfs(this.stateUrl(flags)));
    const positional = (argv as string[]).filter((a) => a !== undefined);
    if (args.name && flags.name && (positional.length > 1 || args.name !== flags.name)) throw new UsageError(`cluster name given twice: argument "${args.name}" and --name "${flags.name}"`);
    const given = positional.length > 0 ? [...new Set(positional)] : flags.name !== undefined ? [flags.name] : [];
    for (const n of given) this.checkName('cluster', n);
    const one = given.length === 1 ? given[0] : undefined;
    if (flags.full && !one) throw new UsageError(given.length > 1 ? '--full takes one cluster name' : '--full needs a cluster name');
    // A store the user named that is missing is a typo, not an empty store; the default one may not exist yet.
    if (given.length === 0 && !this.stateIsDefault()) await checkStoreExists(repo.vfs);
    const listed = given.length > 0 ? { clusters: given, incomplete: [] } : await repo.listNames();
    const names = listed.clusters;
    for (const n of listed.incomplete) this.status(`Warning: "${n}" is an incomplete cluster (no config), left by an interrupted command; "kforge delete cluster ${n} --yes" removes it`);
    const format = flags.output as 'table' | 'yaml' | 'json';
    if (flags.full) {
      // Computed now, as update would write it: before the first update nothing is stored (as in kops).
      const { completeStoredCluster } = await import('../../ops/complete-stored-cluster');
      const completed = await completeStoredCluster(repo.vfs, one as string);
      this.out(format === 'table' ? renderObjects('yaml', [completed]) : renderObjects(format, [completed]));
      return;
    }
    const stored = await Promise.all(names.map((n) => repo.get(n)));
    if (format === 'table') {
      if (stored.length === 0) {
        this.status(`No clusters found in ${repo.vfs.url}`);
        return;
      }
      const rows = stored.map((s) => {
        const spec = s.cluster.object.spec;
        const zones = [...new Set((spec.subnets ?? []).map((x) => x.zone ?? x.region ?? ''))].filter(Boolean).join(',');
        return [s.cluster.object.metadata.name, spec.cloudProvider ?? 'aws', zones];
      });
      this.out(renderTable(['NAME', 'CLOUD', 'ZONES'], rows));
      return;
    }
    // Clusters only, as kops prints them: a list when listing, the object when one was named. `get all NAME`
    // prints a cluster with its instance groups and additional objects (docs/output-formats.md).
    this.out(renderObjects(format, stored.map((s) => s.cluster.object), !one));
  }
}
