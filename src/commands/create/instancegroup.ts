import { Args, Flags } from '@oclif/core';
import { BaseCommand, lockFlags } from '../../cli/base-command';
import { renderObjects } from '../../cli/output';
import { UsageError } from '../../errors/usage-error';

/** The roles `--role` takes, spelt as the spec spells them; the flag matches them without regard to case, as kops does. */
const ROLES = ['Node', 'ControlPlane', 'Master', 'Bastion', 'APIServer'];

/** `kforge create instancegroup NAME --name C --role R --subnet S`. */
export default class CreateInstanceGroup extends BaseCommand {
  static override aliases = ['create:ig'];
  static override summary = 'Add an instance group to a cluster\'s spec.';
  static override description = 'The whole cluster is validated with the new group before it is written. Defaults follow kops: 2 nodes for role Node, 1 for other roles.';
  static override examples = [
    '<%= config.bin %> create instancegroup gpu-nodes --name x.example.com --role node --subnet us-east-1a --machine-type g5.xlarge',
    '<%= config.bin %> create ig extra --name x.example.com --role Node --subnet us-east-1a,us-east-1b --min-size 0 --max-size 10 --dry-run -o yaml',
  ];
  static override args = { group: Args.string({ description: 'Instance group name', required: true }) };
  static override flags = {
    ...lockFlags,
    name: Flags.string({ description: 'Cluster name. Env: KFORGE_CLUSTER_NAME' }),
    role: Flags.string({ description: `Role of the machines: ${ROLES.join(', ')} (any case)`, default: 'Node' }),
    subnet: Flags.string({ description: 'Subnets to run in (comma-separated or repeated)', delimiter: ',', multiple: true, multipleNonGreedy: true, required: true }),
    'machine-type': Flags.string({ description: 'Machine type; default: chosen by update' }),
    'min-size': Flags.integer({ description: 'Minimum number of machines; default: 2 for nodes, 1 otherwise' }),
    'max-size': Flags.integer({ description: 'Maximum number of machines; default: the minimum' }),
    set: Flags.string({ description: 'Set a field, e.g. --set spec.rootVolumeSize=64 (repeatable)', multiple: true, multipleNonGreedy: true }),
    'dry-run': Flags.boolean({ description: 'Print the instance group instead of writing it (needs -o)' }),
    output: Flags.string({ char: 'o', description: 'Output format for --dry-run', options: ['yaml', 'json'], default: 'yaml' }),
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(CreateInstanceGroup);
    const cluster = this.clusterFromFlag(flags.name, 'instance groups');
    this.checkName('instance group', args.group);
    const role = ROLES.find((r) => r.toLowerCase() === flags.role.toLowerCase());
    if (!role) throw new UsageError(`--role: "${flags.role}" is not a role; use one of ${ROLES.join(', ')}`);
    const { openVfs } = await import('../../state/vfs/open-vfs');
    const { createInstanceGroup } = await import('../../ops/instance-group-ops');
    const vfs = openVfs(this.stateUrl(flags));
    const options = { cluster, name: args.group, role, subnets: flags.subnet, machineType: flags['machine-type'], minSize: flags['min-size'], maxSize: flags['max-size'], sets: flags.set ?? [] };
    const ig = flags['dry-run']
      ? await createInstanceGroup(vfs, options, true)
      : await this.withClusterLock(vfs, cluster, flags, () => createInstanceGroup(vfs, options, false));
    if (flags['dry-run']) this.out(renderObjects(flags.output as 'yaml' | 'json', [ig]));
    else this.out(`instancegroup "${args.group}" created in cluster "${cluster}"`);
  }
}
