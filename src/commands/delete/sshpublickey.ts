import { Args, Flags } from '@oclif/core';
import { BaseCommand, lockFlags } from '../../cli/base-command';

/** `kforge delete sshpublickey [C]`: removes the cluster's admin SSH public key (kops's command). */
export default class DeleteSshPublicKey extends BaseCommand {
  static override summary = 'Delete the admin SSH public key of a cluster.';
  static override description = 'Removes <cluster>/pki/ssh/public/admin/ under the cluster lock. The argument is the cluster name, as in kops; "admin" (the key name) with --name is accepted too.';
  static override examples = ['<%= config.bin %> delete sshpublickey x.example.com', '<%= config.bin %> delete sshpublickey admin --name x.example.com'];
  static override args = { name: Args.string({ description: 'Cluster name (or "admin", the key name, with --name)' }) };
  static override flags = { ...lockFlags, name: Flags.string({ description: 'Cluster name (alternative to the argument). Env: KFORGE_CLUSTER_NAME' }) };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(DeleteSshPublicKey);
    const { ADMIN_SSH_KEY, deleteSshPublicKey } = await import('../../ops/ssh-public-key-ops');
    const cluster = this.clusterName(args.name === ADMIN_SSH_KEY ? undefined : args.name, flags.name);
    const { openVfs } = await import('../../state/vfs/open-vfs');
    const vfs = openVfs(this.stateUrl(flags));
    const removed = await this.withClusterLock(vfs, cluster, flags, (store) => deleteSshPublicKey(store, cluster));
    this.out(`SSH public key ${removed.join(', ')} deleted from cluster "${cluster}"`);
  }
}
