import { Args, Flags } from '@oclif/core';
import { BaseCommand, lockFlags } from '../../cli/base-command';

/** `kforge create sshpublickey [C] -i FILE`: stores the cluster's admin SSH public key (kops's command). */
export default class CreateSshPublicKey extends BaseCommand {
  static override summary = 'Store the admin SSH public key of a cluster.';
  static override description =
    'Reads an OpenSSH public key (ssh-rsa, ssh-ed25519 or ecdsa) and stores it where kops does, <cluster>/pki/ssh/public/admin/<md5 fingerprint>. A cluster has one admin key: a different key already stored is replaced. The argument is the cluster name, as in kops; the older kops form "create secret sshpublickey admin --name C" is accepted as "create sshpublickey admin --name C".';
  static override examples = ['<%= config.bin %> create sshpublickey x.example.com -i ~/.ssh/id_rsa.pub', '<%= config.bin %> create sshpublickey --name x.example.com -i ~/.ssh/id_ed25519.pub'];
  static override args = { name: Args.string({ description: 'Cluster name (or "admin", the key name, with --name)' }) };
  static override flags = {
    ...lockFlags,
    name: Flags.string({ description: 'Cluster name (alternative to the argument). Env: KFORGE_CLUSTER_NAME' }),
    'ssh-public-key': Flags.string({ char: 'i', description: 'OpenSSH public key file, e.g. ~/.ssh/id_rsa.pub', required: true }),
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(CreateSshPublicKey);
    const { ADMIN_SSH_KEY, addSshPublicKey } = await import('../../ops/ssh-public-key-ops');
    const cluster = this.clusterName(args.name === ADMIN_SSH_KEY ? undefined : args.name, flags.name);
    const { readSshPublicKey } = await import('../../create/ssh-public-key');
    const key = await readSshPublicKey(flags['ssh-public-key']);
    const { openVfs } = await import('../../state/vfs/open-vfs');
    const vfs = openVfs(this.stateUrl(flags));
    const r = await this.withClusterLock(vfs, cluster, flags, (store) => addSshPublicKey(store, cluster, key));
    if (r.unchanged) this.out(`SSH public key ${key.fingerprint} of cluster "${cluster}" unchanged`);
    else this.out(`SSH public key ${key.fingerprint} stored for cluster "${cluster}"${r.replaced.length > 0 ? ` (replaced ${r.replaced.join(', ')})` : ''}`);
  }
}
