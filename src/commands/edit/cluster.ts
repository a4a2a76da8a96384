import { Args, Flags } from '@oclif/core';
import { BaseCommand, lockFlags } from '../../cli/base-command';

/** `kforge edit cluster [C]`: edit the Cluster in $KUBE_EDITOR / $EDITOR. */
export default class EditCluster extends BaseCommand {
  static override summary = 'Edit a cluster spec in your editor ($KUBE_EDITOR, $EDITOR, or vi).';
  static override description =
    'Opens the stored Cluster as YAML. An invalid result reopens the editor with the errors in a comment header; an unchanged result cancels; only a valid result is written. Only the Cluster is written (validated and expanded first); as in kops, the next "update cluster" re-derives the completed spec and node configs and shows their changes.';
  static override examples = ['<%= config.bin %> edit cluster x.example.com', 'EDITOR=nano <%= config.bin %> edit cluster --name x.example.com'];
  static override args = { name: Args.string({ description: 'Cluster name' }) };
  static override flags = { ...lockFlags, name: Flags.string({ description: 'Cluster name (alternative to the argument). Env: KFORGE_CLUSTER_NAME' }) };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(EditCluster);
    const name = this.clusterName(args.name, flags.name);
    const { openVfs } = await import('../../state/vfs/open-vfs');
    const { editCluster } = await import('../../ops/edit-objects');
    const vfs = openVfs(this.stateUrl(flags));
    const outcome = await this.withClusterLock(vfs, name, flags, (store) => editCluster(store, name));
    this.out(outcome.status === 'unchanged' ? 'Edit cancelled, no changes made' : `cluster "${name}" updated`);
  }
}
