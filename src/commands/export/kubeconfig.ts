import { Args, Flags } from '@oclif/core';
import { BaseCommand } from '../../cli/base-command';
import { DEFAULT_ADMIN, withAdminDefault } from '../../cli/admin-flag';


/** `kforge export kubeconfig [C]`: writes a kubectl context for the cluster. */
export default class ExportKubeconfig extends BaseCommand {
  static override aliases = ['export:kubecfg'];
  static override summary = 'Write a kubectl context for a cluster into your kubeconfig.';
  static override description =
    'Merges a cluster, user and context named after the cluster into the kubeconfig ($KUBECONFIG or ~/.kube/config) without touching other entries, sets it as the current context, and writes the file with mode 0600. --admin issues a short-lived client certificate in group system:masters from the cluster CA (default 18h; --admin=DURATION for another lifetime). Without --admin or --user the context has no credentials.';
  static override examples = [
    '<%= config.bin %> export kubeconfig x.example.com --admin',
    '<%= config.bin %> export kubeconfig x.example.com --admin=2h --kubeconfig ./x.kubeconfig',
    '<%= config.bin %> export kubeconfig x.example.com --user my-oidc-user',
    '<%= config.bin %> export kubeconfig x.example.com --admin --internal',
  ];
  static override args = { name: Args.string({ description: 'Cluster name' }) };
  static override flags = {
    name: Flags.string({ description: 'Cluster name (alternative to the argument). Env: KFORGE_CLUSTER_NAME' }),
    admin: Flags.string({ description: `Issue an admin client certificate valid for DURATION (--admin alone: ${DEFAULT_ADMIN})`, helpValue: 'DURATION' }),
    user: Flags.string({ description: 'Use this existing kubeconfig user for the context instead of issuing credentials', exclusive: ['admin'] }),
    internal: Flags.boolean({ description: 'Use the API\'s internal name (api.internal.<cluster>), for use inside the cluster\'s network' }),
    kubeconfig: Flags.string({ description: 'Kubeconfig file to write. Default: the first file in $KUBECONFIG, else ~/.kube/config' }),
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(ExportKubeconfig, withAdminDefault(this.argv));
    const cluster = this.clusterName(args.name, flags.name);
    const { parseDuration } = await import('../../util/parse-duration');
    const adminMs = flags.admin !== undefined ? parseDuration(flags.admin, '--admin') : undefined;
    const { kubeconfigPath } = await import('../../kubeconfig/kubeconfig-file');
    const { openVfs } = await import('../../state/vfs/open-vfs');
    const { exportKubeconfig } = await import('../../ops/export-kubeconfig');
    const file = await kubeconfigPath(flags.kubeconfig);
    const r = await exportKubeconfig(openVfs(this.stateUrl(flags)), { cluster, adminMs, user: flags.user, internal: flags.internal, file });
    this.out(`kforge has set your kubectl context to ${r.context} (server ${r.server}) in ${r.file}`);
    if (r.adminExpiry) this.out(`The admin certificate expires at ${r.adminExpiry.toISOString()}.`);
    if (r.warning) this.status(`Warning: ${r.warning}`);
    if (r.withoutCredentials) this.status('Warning: exported kubeconfig with no user authentication; use --admin or --user');
  }
}
