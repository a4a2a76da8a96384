import { Args, Flags } from '@oclif/core';
import { BaseCommand, lockFlags } from '../../cli/base-command';

/** `kforge edit instancegroup IG --name C`. */
export default class EditInstanceGroup extends BaseCommand {
  static override aliases = ['edit:ig'];
  static override summary = 'Edit an instance group in your editor ($KUBE_EDITOR, $EDITOR, or vi).';
  static override description = 'Same loop as "kforge edit cluster": invalid results reopen the editor with the errors; only a valid result is written.';
  static override examples = ['<%= config.bin %> edit instancegroup nodes-us-east-1a --name x.example.com', '<%= config.bin %> edit ig control-plane-us-east-1a --name x.example.com'];
  static override args = { group: Args.string({ description: 'Instance group name', required: true }) };
  static override flags = { ...lockFlags, name: Flags.string({ description: 'Cluster name. Env: KFORGE_CLUSTER_NAME' }) };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(EditInstanceGroup);
    const cluster = this.clusterFromFlag(flags.name, 'instance groups');
    this.checkName('instance group', args.group);
    const { openVfs } = await import('../../state/vfs/open-vfs');
    const { editInstanceGroup } = await import('../../ops/edit-objects');
    const vfs = openVfs(this.stateUrl(flags));
    const outcome = await this.withClusterLock(vfs, cluster, flags, (store) => editInstanceGroup(store, cluster, args.group));
    this.out(outcome.status === 'unchanged' ? 'Edit cancelled, no changes made' : `instancegroup "${args.group}" updated in cluster "${cluster}"`);
  }
}
