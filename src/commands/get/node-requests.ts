import { Args, Flags } from '@oclif/core';
import { BaseCommand } from '../../cli/base-command';
import { OUTPUT_FORMATS, renderTable } from '../../cli/output';

/** `kforge get node-requests [C]`: the node-identity service's pending requests (spec.nodeIdentity.mode Approval). */
export default class GetNodeRequests extends BaseCommand {
  static override aliases = ['get:node-request'];
  static override summary = 'List the node requests waiting for approval: name, node name, key fingerprints, source address, age.';
  static override description =
    'Reads <cluster>/node-requests/, where the node-identity service records each request of a node without a cloud proof (spec.nodeIdentity.mode: Approval). A fingerprint is "sha256:" and the hex sha256 of the DER public key, what "openssl pkey -pubin -outform DER | openssl dgst -sha256" prints; nodeup prints the same on the node, so compare them before "kforge approve node-request NAME". --all lists approved, denied and expired requests too. -o json and -o yaml print a list with the record times instead of ages.';
  static override examples = [
    '<%= config.bin %> get node-requests x.example.com',
    '<%= config.bin %> get node-requests --name x.example.com --all',
    '<%= config.bin %> get node-requests x.example.com -o json',
  ];
  static override args = { name: Args.string({ description: 'Cluster name (alternative to --name)' }) };
  static override flags = {
    name: Flags.string({ description: 'Cluster name. Env: KFORGE_CLUSTER_NAME' }),
    all: Flags.boolean({ description: 'Also list approved, denied and expired requests' }),
    output: Flags.string({ char: 'o', description: 'Output format', options: [...OUTPUT_FORMATS], default: 'table' }),
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(GetNodeRequests);
    const cluster = this.clusterName(args.name, flags.name);
    const { openVfs } = await import('../../state/vfs/open-vfs');
    const { listNodeRequests } = await import('../../ops/node-request-ops');
    const now = new Date();
    const rows = await listNodeRequests(openVfs(this.stateUrl(flags)), cluster, { all: flags.all, now });
    if (flags.output === 'json') return this.out(JSON.stringify(rows, null, 2));
    if (flags.output === 'yaml') return this.out((await import('js-yaml')).dump(rows, { lineWidth: -1 }));
    if (rows.length === 0) return this.status(`No ${flags.all ? '' : 'pending '}node requests for cluster "${cluster}"`);
    const { humanDuration } = await import('../../state/lock/lease');
    const headers = ['NAME', 'NODE', ...(flags.all ? ['STATUS'] : []), 'FINGERPRINTS', 'SOURCE', 'AGE'];
    const cells = rows.map((r) => [
      r.name,
      r.nodeName,
      ...(flags.all ? [r.status] : []),
      Object.entries(r.fingerprints)
        .map(([k, f]) => `${k}=${f}`)
        .join(','),
      r.source,
      humanDuration(now.getTime() - Date.parse(r.created)),
    ]);
    this.out(renderTable(headers, cells));
  }
}
