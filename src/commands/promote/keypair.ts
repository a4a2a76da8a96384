import { Args, Flags } from '@oclif/core';
import { BaseCommand, lockFlags } from '../../cli/base-command';
import { UsageError } from '../../errors/usage-error';

/** `kforge promote keypair KEYSET [ID] --name C`: makes a key of a keyset primary (kops's command). */
export default class PromoteKeypair extends BaseCommand {
  static override summary = 'Make a keypair the primary of its keyset, the one that signs.';
  static override description =
    'Without an id, the newest trusted keypair with a private key is promoted if it is newer than the current primary (as kops does); a distrusted keypair, or one without a private key, cannot be promoted. KEYSET is a CA, service-account, or "all" for every rotatable keyset. The certificates the keyset signs are re-issued from the new primary, in one transaction, under the cluster lock; the next "update" writes the node configs with the new primary ids (as in kops). Rotation: "create keypair KEYSET --cert --key" (or a new key), "update", "promote keypair", "update", then "distrust keypair".';
  static override examples = [
    '<%= config.bin %> promote keypair kubernetes-ca --name x.example.com',
    '<%= config.bin %> promote keypair service-account 5938372002934847 --name x.example.com',
    '<%= config.bin %> promote keypair all --name x.example.com',
  ];
  static override args = {
    keyset: Args.string({ description: 'Keyset name (a CA, service-account) or all', required: true }),
    id: Args.string({ description: 'Keypair id to promote (default: the newest trusted one)' }),
  };
  static override flags = {
    ...lockFlags,
    name: Flags.string({ description: 'Cluster name. Env: KFORGE_CLUSTER_NAME' }),
    'keypair-id': Flags.string({ description: 'Keypair id to promote (alternative to the ID argument)' }),
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(PromoteKeypair);
    if (args.id && flags['keypair-id'] && args.id !== flags['keypair-id']) throw new UsageError(`keypair id given twice: argument "${args.id}" and --keypair-id "${flags['keypair-id']}"`);
    const cluster = this.clusterName(undefined, flags.name);
    const { openVfs } = await import('../../state/vfs/open-vfs');
    const { promoteKeypair } = await import('../../ops/promote-keypair');
    const vfs = openVfs(this.stateUrl(flags));
    const r = await this.withClusterLock(vfs, cluster, flags, (store) => promoteKeypair(store, cluster, args.keyset, args.id ?? flags['keypair-id']));
    for (const x of r.results) this.out(x.promoted ? `Promoted ${x.keyset} ${x.promoted}` : `${x.unchanged?.replace(/^./, (c) => c.toUpperCase())}`);
    if (r.reissued.length > 0) this.out(`  re-issued from the new primary: ${r.reissued.join(', ')}`);
  }
}
