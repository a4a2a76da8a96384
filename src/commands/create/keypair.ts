import { Args, Flags } from '@oclif/core';
import { BaseCommand, lockFlags } from '../../cli/base-command';

/** `kforge create keypair KEYSET --cert F --key F --name C`: bring your own CA. */
export default class CreateKeypair extends BaseCommand {
  static override summary = 'Import your own CA certificate and key into a cluster\'s keystore.';
  static override description =
    'Before the cluster\'s first "update --yes", the imported CA becomes the keyset (replacing a generated one, if any), and the certificates it signs are (re-)issued; update then generates only the keysets still missing. Afterwards it is added to the keyset and becomes primary only with --primary. Accepts PEM files: an RSA (2048+ bits) or ECDSA P-256/P-384 key, and a CA certificate (basicConstraints CA:TRUE) for that key.';
  static override examples = [
    '<%= config.bin %> create keypair kubernetes-ca --cert ca.crt --key ca.key --name x.example.com',
    '<%= config.bin %> create keypair etcd-clients-ca --cert etcd-ca.pem --key etcd-ca-key.pem --name x.example.com --primary',
  ];
  static override args = { keyset: Args.string({ description: 'Keyset name, e.g. kubernetes-ca', required: true }) };
  static override flags = {
    ...lockFlags,
    name: Flags.string({ description: 'Cluster name. Env: KFORGE_CLUSTER_NAME' }),
    cert: Flags.string({ description: 'PEM file with the CA certificate', required: true }),
    key: Flags.string({ description: 'PEM file with the CA private key (unencrypted)', required: true }),
    primary: Flags.boolean({ description: 'Make the key primary (automatic before the first update)' }),
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(CreateKeypair);
    const cluster = this.clusterFromFlag(flags.name, 'keysets');
    this.checkName('keyset', args.keyset);
    const { loadCaKeypairFiles } = await import('../../pki/load-keypair-files');
    const keypair = await loadCaKeypairFiles(flags.cert, flags.key);
    const { openVfs } = await import('../../state/vfs/open-vfs');
    const { importKeypair } = await import('../../ops/import-keypair');
    const vfs = openVfs(this.stateUrl(flags));
    const r = await this.withClusterLock(vfs, cluster, flags, (store) => importKeypair(store, cluster, args.keyset, keypair, flags.primary));
    this.out(`keypair ${r.id} added to keyset "${args.keyset}" of cluster "${cluster}"${r.primary ? ' as primary' : ''}`);
    if (r.replaced.length > 0) this.out(`  replaced the generated key ${r.replaced.join(', ')} (the cluster has not been updated yet, so nothing used it)`);
    if (r.reissued.length > 0) this.out(`  re-issued from the new CA: ${r.reissued.join(', ')}`);
  }
}
