import { Args, Flags } from '@oclif/core';
import { BaseCommand, lockFlags } from '../../cli/base-command';
import { UsageError } from '../../errors/usage-error';

/** `kforge distrust keypair KEYSET [ID...] --name C`: takes keys out of trust (kops's command). */
export default class DistrustKeypair extends BaseCommand {
  static override strict = false;
  static override summary = 'Distrust keypairs of a keyset, removing their certificates from trust bundles.';
  static override description =
    'Without ids, every trusted keypair older than the primary is distrusted (as kops does). The primary cannot be distrusted: promote another keypair first. KEYSET is a CA, service-account, or "all" for every rotatable keyset. The keysets are written in one transaction, under the cluster lock; the next "update" writes the node configs, whose trust bundles lose the certificates (as in kops). "get keypairs" shows the DISTRUSTED column.';
  static override examples = [
    '<%= config.bin %> distrust keypair kubernetes-ca --name x.example.com',
    '<%= config.bin %> distrust keypair kubernetes-ca 6977545226837259959403993899 --name x.example.com',
    '<%= config.bin %> distrust keypair all --name x.example.com',
  ];
  static override args = { keyset: Args.string({ description: 'Keyset name (a CA, service-account) or all, then keypair ids (default: all older than the primary)' }) };
  static override flags = { ...lockFlags, name: Flags.string({ description: 'Cluster name. Env: KFORGE_CLUSTER_NAME' }) };

  async run(): Promise<void> {
    const { argv, flags } = await this.parse(DistrustKeypair);
    const [keyset, ...ids] = argv as string[];
    if (!keyset) throw new UsageError('the keyset is required: kforge distrust keypair KEYSET [ID...] --name CLUSTER');
    const cluster = this.clusterName(undefined, flags.name);
    const { openVfs } = await import('../../state/vfs/open-vfs');
    const { distrustKeypair } = await import('../../ops/distrust-keypair');
    const vfs = openVfs(this.stateUrl(flags));
    const results = await this.withClusterLock(vfs, cluster, flags, (store) => distrustKeypair(store, cluster, keyset, ids));
    for (const r of results) {
      if (r.unchanged) this.out(r.unchanged.replace(/^./, (c) => c.toUpperCase()));
      for (const id of r.distrusted) this.out(`Distrusted ${r.keyset} ${id}`);
    }
  }
}
