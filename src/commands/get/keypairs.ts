import { Args, Flags } from '@oclif/core';
import { BaseCommand } from '../../cli/base-command';
import { OUTPUT_FORMATS, renderTable } from '../../cli/output';

/** `kforge get keypairs [KEYSET...] --name C`: the cluster's keys (certificates, never private keys). */
export default class GetKeypairs extends BaseCommand {
  static override aliases = ['get:keypair'];
  static override strict = false;
  static override summary = 'List the keypairs of a cluster\'s keystore: name, id, primary, expiry, distrusted.';
  static override description = 'Reads only the certificate files (pki/issued/); private keys are never read or printed.';
  static override examples = ['<%= config.bin %> get keypairs --name x.example.com', '<%= config.bin %> get keypairs kubernetes-ca --name x.example.com -o yaml'];
  static override args = { keyset: Args.string({ description: 'Keyset names to show (default: all)' }) };
  static override flags = {
    name: Flags.string({ description: 'Cluster name. Env: KFORGE_CLUSTER_NAME' }),
    output: Flags.string({ char: 'o', description: 'Output format', options: [...OUTPUT_FORMATS], default: 'table' }),
  };

  async run(): Promise<void> {
    const { argv, flags } = await this.parse(GetKeypairs);
    const cluster = this.clusterFromFlag(flags.name, 'keysets', argv as string[]);
    for (const k of argv as string[]) this.checkName('keyset', k);
    const { openVfs } = await import('../../state/vfs/open-vfs');
    const { listKeypairs } = await import('../../ops/list-keypairs');
    const rows = await listKeypairs(openVfs(this.stateUrl(flags)), cluster, argv as string[]);
    // As in kops, a cluster's keysets are created by its first update, not by create.
    if (rows.length === 0 && flags.output !== 'json' && flags.output !== 'yaml') this.status(`No keypairs found in cluster "${cluster}": its PKI is created by the first update ("kforge update cluster ${cluster} --yes")`);
    if (flags.output === 'json') this.out(JSON.stringify(rows, null, 2));
    else if (flags.output === 'yaml') this.out((await import('js-yaml')).dump(rows, { lineWidth: -1 }));
    else this.out(renderTable(['NAME', 'ID', 'PRIMARY', 'ALGORITHM', 'EXPIRY', 'DISTRUSTED'], rows.map((r) => [r.keyset, r.id, r.primary ? 'yes' : 'no', r.algorithm, r.notAfter, r.distrustTimestamp ?? '-'])));
  }
}
