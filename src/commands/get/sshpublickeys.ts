import { Args, Flags } from '@oclif/core';
import { BaseCommand } from '../../cli/base-command';
import { OUTPUT_FORMATS, renderTable } from '../../cli/output';

/** `kforge get sshpublickeys [C]`: the cluster's admin SSH public key (kops's command). */
export default class GetSshPublicKeys extends BaseCommand {
  static override aliases = ['get:sshpublickey'];
  static override summary = 'Show the admin SSH public key of a cluster: name and fingerprint.';
  static override description =
    'The fingerprint is the MD5 of the key, as "ssh-keygen -l -E md5 -f KEY.pub" prints it; kops names the stored file by it (without colons). -o json and -o yaml print a list with the public key itself.';
  static override examples = ['<%= config.bin %> get sshpublickeys --name x.example.com', '<%= config.bin %> get sshpublickeys x.example.com -o json'];
  static override args = { name: Args.string({ description: 'Cluster name (alternative to --name)' }) };
  static override flags = {
    name: Flags.string({ description: 'Cluster name. Env: KFORGE_CLUSTER_NAME' }),
    output: Flags.string({ char: 'o', description: 'Output format', options: [...OUTPUT_FORMATS], default: 'table' }),
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(GetSshPublicKeys);
    const cluster = this.clusterName(args.name, flags.name);
    const { openVfs } = await import('../../state/vfs/open-vfs');
    const { listSshPublicKeys } = await import('../../ops/ssh-public-key-ops');
    const rows = await listSshPublicKeys(openVfs(this.stateUrl(flags)), cluster);
    if (flags.output === 'json') this.out(JSON.stringify(rows, null, 2));
    else if (flags.output === 'yaml') this.out((await import('js-yaml')).dump(rows, { lineWidth: -1 }));
    else if (rows.length === 0) this.status(`No SSH public key found for cluster "${cluster}"`);
    else this.out(renderTable(['NAME', 'FINGERPRINT'], rows.map((r) => [r.name, r.fingerprint])));
  }
}
