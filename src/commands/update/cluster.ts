import { Args, Flags } from '@oclif/core';
import { BaseCommand, lockFlags } from '../../cli/base-command';
import { DEFAULT_ADMIN, withAdminDefault } from '../../cli/admin-flag';
import { UsageError } from '../../errors/usage-error';
import { TaskFailedError } from '../../tasks/task-failed-error';


/** `kforge update cluster [C] [--yes] [--target terraform --out DIR]`: plans, and with --yes creates (or writes as Terraform), the cluster's cloud resources. */
export default class UpdateCluster extends BaseCommand {
  static override summary = "Create or update the cluster's cloud resources to match its spec.";
  static override description = [
    'Without --yes, prints the plan: what would be created, modified (each field, old -> new; a managed file as its changed lines) and deleted, and changes nothing.',
    'With --yes, applies it while holding the cluster lock: first the keypairs and managed files (completed spec, nodeup configs) in the state store, then the cloud resources, in dependency order.',
    'A second run with --yes changes nothing. Every run ends with a one-line summary of the AWS API calls it made.',
    'With --target terraform, writes the cloud resources as Terraform instead (DIR/kubernetes.tf and DIR/data/, DIR from --out) and makes no mutating AWS call, only reads (credentials, instance types, zones, images). As with kops, the keypairs and managed files are written to the state store at once, without --yes (the user-data in the output needs them); apply the output with terraform. See docs/terraform.md.',
    'With --lifecycle-overrides Kind=Lifecycle (comma-separated or repeated; kops\'s task kinds such as IAMRole, SecurityGroupRule, VPC), resources of that kind are handled as kops does: Sync (the default), Ignore (never created or changed), WarnIfInsufficientAccess (an access-denied error is a warning), ExistsAndValidates (must exist and match, or the run fails before any change), ExistsAndWarnIfChanges (must exist, or the run fails before any change; differences are warnings and left as they are). See docs/update-cluster.md.',
    'After --yes, as kops does, the cluster\'s context is written into your kubeconfig ($KUBECONFIG or ~/.kube/config; --no-create-kube-config skips it): with --admin[=DURATION] with a short-lived admin certificate (default 18h), with --user an existing kubeconfig user, else without credentials (see "export kubeconfig").',
    'Credentials come from the standard AWS chain (AWS_PROFILE, AWS_ACCESS_KEY_ID, instance roles); AWS_ENDPOINT_URL points the clients at another endpoint.',
  ].join('\n\n');
  static override examples = [
    '<%= config.bin %> update cluster x.example.com',
    '<%= config.bin %> update cluster x.example.com --yes',
    '<%= config.bin %> update cluster x.example.com --yes --admin   # and a kubeconfig with an 18h admin certificate',
    '<%= config.bin %> update cluster x.example.com --detailed-exitcode   # exit 2 when changes are pending',
    '<%= config.bin %> update cluster x.example.com -o json',
    '<%= config.bin %> update cluster x.example.com --target terraform --out tf/   # then: cd tf && terraform init && terraform apply',
    '<%= config.bin %> update cluster x.example.com --yes --lifecycle-overrides IAMRole=ExistsAndWarnIfChanges,IAMRolePolicy=ExistsAndWarnIfChanges   # IAM owned by another team',
  ];
  static override args = { name: Args.string({ description: 'Cluster name' }) };
  static override flags = {
    ...lockFlags,
    name: Flags.string({ description: 'Cluster name (alternative to the argument). Env: KFORGE_CLUSTER_NAME' }),
    yes: Flags.boolean({ char: 'y', description: 'Apply the changes; without it, only print the plan' }),
    'detailed-exitcode': Flags.boolean({ description: 'Exit 2 when the plan has changes (and --yes was not given), 0 when it has none, as "terraform plan -detailed-exitcode"' }),
    output: Flags.string({ char: 'o', description: 'Output format of the plan', options: ['text', 'json'], default: 'text' }),
    target: Flags.string({ description: 'direct: create the resources through the AWS API; terraform: write them as Terraform to --out', options: ['direct', 'terraform'], default: 'direct' }),
    out: Flags.string({ description: 'Directory of the Terraform output (with --target terraform); default out/terraform' }),
    'create-kube-config': Flags.boolean({ description: 'After --yes, write the cluster\'s context into your kubeconfig (--no-create-kube-config: do not)', default: true, allowNo: true }),
    admin: Flags.string({ description: `After --yes, also write an admin client certificate valid for DURATION into the kubeconfig (--admin alone: ${DEFAULT_ADMIN})`, helpValue: 'DURATION' }),
    user: Flags.string({ description: 'After --yes, use this existing kubeconfig user for the context', exclusive: ['admin'] }),
    internal: Flags.boolean({ description: 'After --yes, use the API\'s internal name (api.internal.<cluster>) in the kubeconfig' }),
    'lifecycle-overrides': Flags.string({
      description: 'Kind=Lifecycle per task kind, comma-separated or repeated, e.g. IAMRole=ExistsAndWarnIfChanges,SecurityGroupRule=Ignore. Lifecycles: Sync, Ignore, WarnIfInsufficientAccess, ExistsAndValidates, ExistsAndWarnIfChanges',
      delimiter: ',',
      multiple: true,
      multipleNonGreedy: true,
    }),
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(UpdateCluster, withAdminDefault(this.argv));
    const name = this.clusterName(args.name, flags.name);
    const started = Date.now();
    const { openVfs } = await import('../../state/vfs/open-vfs');
    const { updateCluster } = await import('../../ops/update-cluster');
    const { updatePlanReport, renderUpdatePlan } = await import('../../targets/update-plan-report');
    const { updateProgress } = await import('../../cli/update-progress');
    const { formatCallSummary } = await import('../../cloud/format-call-summary');
    const target = flags.target === 'terraform' ? 'terraform' : 'direct';
    if (flags.out !== undefined && target !== 'terraform') throw new UsageError('update cluster: --out is for --target terraform');
    const { parseDuration } = await import('../../util/parse-duration');
    const adminMs = flags.admin !== undefined ? parseDuration(flags.admin, '--admin') : undefined;
    // As kops: asking for credentials or the internal name means asking for the kubeconfig.
    const kubeconfig = flags['create-kube-config'] || adminMs !== undefined || flags.user !== undefined || flags.internal;
    if (!flags['create-kube-config'] && kubeconfig) throw new UsageError('update cluster: --admin, --user and --internal write the kubeconfig; drop --no-create-kube-config');
    const vfs = openVfs(this.stateUrl(flags));
    const progress = updateProgress();
    let result;
    try {
      result = await updateCluster(vfs, name, { yes: flags.yes, lock: this.lockOptions(flags), progress, target, outDir: flags.out, lifecycleOverrides: flags['lifecycle-overrides'] ?? [] });
    } catch (e) {
      // A script reading -o json learns which task failed and every task that did not run; the error is still reported on stderr.
      if (flags.output === 'json' && e instanceof TaskFailedError) this.out(JSON.stringify({ cluster: name, applied: false, failed: taskFailure(e) }, null, 2));
      throw e;
    } finally {
      progress.stop();
    }
    const report = updatePlanReport(name, result.cloudPlan, result.managed, result.discovery.files, result.orphans, result.warnings, result.duplicates);
    // On stderr, as kops prints its "did not match, problems possible": -o json keeps them in `warnings` too.
    if (result.storeWarning) this.status(`Warning: ${result.storeWarning}`);
    for (const w of result.warnings) this.status(`Warning: ${w.task} (${w.lifecycle}): ${w.message}`);
    const tf = result.terraform;
    if (flags.output === 'json') this.out(JSON.stringify({ ...report, applied: result.applied, ...(tf ? { terraform: tf } : {}) }, null, 2));
    else if (tf) {
      const { renderStateStoreFiles } = await import('../../targets/terraform/state-store-files');
      this.out(renderStateStoreFiles(tf.stateStoreFiles));
      const data = tf.files.filter((f) => f.startsWith('data/')).length;
      this.out(`Terraform output written to ${tf.dir}: kubernetes.tf (${tf.resources.length} resources) and ${data} files under data/.`);
      this.out(`To apply it: cd ${tf.dir} && terraform init && terraform apply`);
    } else {
      this.out(renderUpdatePlan(report, result.applied));
      if (report.hasChanges) this.out(result.applied ? `Cluster "${name}" updated.` : 'Must specify --yes to apply changes');
    }
    this.status(formatCallSummary(result.cloud.calls, Date.now() - started, flags.verbose ?? false));
    if (flags.yes && !tf && kubeconfig) {
      const { exportAfterUpdate } = await import('../../ops/export-after-update');
      const { kubeconfigPath } = await import('../../kubeconfig/kubeconfig-file');
      const lines = await exportAfterUpdate(vfs, { cluster: name, adminMs, user: flags.user, internal: flags.internal, cloud: result.cloud, file: await kubeconfigPath(undefined), applied: result.applied });
      // -o json keeps stdout one JSON document: the kubeconfig lines go to stderr then.
      for (const line of lines) {
        if (line.stream === 'out' && flags.output !== 'json') this.out(line.text);
        else this.status(line.text);
      }
    }
    if (flags['detailed-exitcode'] && !tf && report.hasChanges && !result.applied) this.exit(2);
  }
}

/** The `failed` object of `-o json` when a task stopped the run: the task, its error, and what did not run (sorted). */
function taskFailure(e: TaskFailedError): { task: string; phase: string; attempts: number; code: string; message: string; notRun: string[] } {
  return { task: e.taskKey, phase: e.phase, attempts: e.attempts, code: e.code, message: e.message, notRun: [...e.notRun].sort() };
}
