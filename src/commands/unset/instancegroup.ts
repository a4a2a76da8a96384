import { Args, Flags } from '@oclif/core';
import { BaseCommand, lockFlags } from '../../cli/base-command';
import { UsageError } from '../../errors/usage-error';

/** `kforge unset instancegroup GROUP --name C path...`: removes fields of a stored InstanceGroup. */
export default class UnsetInstanceGroup extends BaseCommand {
  static override aliases = ['unset:ig'];
  static override strict = false;
  static override summary = 'Unset fields of an instance group, e.g. spec.machineType, so their defaults apply.';
  static override description =
    'The first argument names the group, the rest are field paths the schema knows. The cluster is validated with the changed group and saved exactly as "kforge edit instancegroup" saves: under the cluster lock, compare-and-swap on the versions read. An unknown field or an invalid result is an error naming the field, and nothing is written.';
  static override examples = ['<%= config.bin %> unset instancegroup nodes-us-east-1a --name x.example.com spec.machineType'];
  static override args = { fields: Args.string({ description: 'GROUP then one or more field paths' }) };
  static override flags = { ...lockFlags, name: Flags.string({ description: 'Cluster name. Env: KFORGE_CLUSTER_NAME' }) };

  async run(): Promise<void> {
    const { argv, flags } = await this.parse(UnsetInstanceGroup);
    const [group, ...fields] = argv as string[];
    if (!group || /^(spec|metadata|instancegroup)\./.test(group)) throw new UsageError('the instance group name is required: kforge unset instancegroup GROUP --name CLUSTER field...');
    if (fields.length === 0) throw new UsageError('no fields to unset: pass field paths, e.g. spec.machineType');
    const cluster = this.clusterName(undefined, flags.name);
    const { openVfs } = await import('../../state/vfs/open-vfs');
    const { changeFields } = await import('../../ops/change-fields');
    const vfs = openVfs(this.stateUrl(flags));
    const status = await this.withClusterLock(vfs, cluster, flags, (store) => changeFields(store, { cluster, instanceGroup: group, unset: fields }));
    this.out(`instance group "${group}" of cluster "${cluster}" ${status}`);
  }
}
