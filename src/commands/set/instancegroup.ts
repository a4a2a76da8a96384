import { Args, Flags } from '@oclif/core';
import { BaseCommand, lockFlags } from '../../cli/base-command';
import { UsageError } from '../../errors/usage-error';

/** `kforge set instancegroup GROUP --name C path=value...`: sets fields of a stored InstanceGroup (kops's `set instancegroup`). */
export default class SetInstanceGroup extends BaseCommand {
  static override aliases = ['set:ig'];
  static override strict = false;
  static override summary = 'Set fields of an instance group, e.g. spec.maxSize=5.';
  static override description =
    'The first argument names the group, the rest are path=value. The cluster is validated with the changed group and saved exactly as "kforge edit instancegroup" saves: under the cluster lock, compare-and-swap on the versions read, node configs re-derived. An unknown field, a value of the wrong type or an invalid result is an error naming the field, and nothing is written.';
  static override examples = ['<%= config.bin %> set instancegroup nodes-us-east-1a --name x.example.com spec.maxSize=5', '<%= config.bin %> set ig nodes-us-east-1a --name x.example.com spec.minSize=2 spec.maxSize=4'];
  static override args = { fields: Args.string({ description: 'GROUP then one or more path=value' }) };
  static override flags = { ...lockFlags, name: Flags.string({ description: 'Cluster name. Env: KFORGE_CLUSTER_NAME' }) };

  async run(): Promise<void> {
    const { argv, flags } = await this.parse(SetInstanceGroup);
    const { splitFieldArgs } = await import('../../cli/split-field-args');
    const parsed = splitFieldArgs(argv as string[]);
    if (!parsed.name) throw new UsageError('the instance group name is required: kforge set instancegroup GROUP --name CLUSTER path=value...');
    if (parsed.fields.length === 0) throw new UsageError('no fields to set: pass path=value, e.g. spec.maxSize=5');
    const cluster = this.clusterName(undefined, flags.name);
    const { openVfs } = await import('../../state/vfs/open-vfs');
    const { changeFields } = await import('../../ops/change-fields');
    const vfs = openVfs(this.stateUrl(flags));
    const status = await this.withClusterLock(vfs, cluster, flags, (store) => changeFields(store, { cluster, instanceGroup: parsed.name, set: parsed.fields }));
    this.out(`instance group "${parsed.name}" of cluster "${cluster}" ${status}`);
  }
}
