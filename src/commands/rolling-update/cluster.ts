import { Args, Flags } from '@oclif/core';
import { BaseCommand, lockFlags } from '../../cli/base-command';
import { UsageError } from '../../errors/usage-error';
import { goDurationNs } from '../../util/go-duration';

/** A Go duration flag (`15m`, `30s`, `0s`) in milliseconds; the flag is named when the value is not one. */
function durationMs(flag: string, text: string): number {
  const ns = goDurationNs(text);
  if (ns === undefined) throw new UsageError(`${flag}: "${text}" is not a duration (e.g. 15m, 30s, 0s)`);
  return ns / 1e6;
}

/** kops's `--flag=false` booleans: `true` or `false`. */
const trueFalse = (description: string) => Flags.string({ description, options: ['true', 'false'], default: 'true' });

/** `kforge rolling-update cluster [C] [--yes]`: replaces the instances whose launch template version is older than their group's. */
export default class RollingUpdateCluster extends BaseCommand {
  static override summary = 'Replace the instances of a cluster that run an older specification, group by group.';
  static override description = [
    "Without --yes, prints kops's table (NAME STATUS NEEDUPDATE READY MIN TARGET MAX NODES) and changes nothing. An instance needs an update when it was launched from an older launch template version than its Auto Scaling group's (after \"kforge update cluster --yes\" changed the group), when an earlier rolling update detached it for a surge, when its Node is annotated kops.k8s.io/needs-update, or always with --force.",
    "With --yes, under the cluster lock: bastions, then the control plane one machine at a time, then the other groups, each by its rollingUpdate settings (maxSurge, maxUnavailable; kops's defaults: maxSurge 1 on AWS, 0 on GCE, which cannot surge). A surge detaches old instances from the group without lowering its desired capacity and waits for the replacements to join and be Ready. Each old instance is cordoned, drained through the Eviction API (PodDisruptionBudgets are honoured; one that blocks is named with its pod), its Node deleted, the instance terminated (on GCE recreated by its MIG under the same name), and the cluster validated --validate-count times in a row. The run stops at the first failure.",
    'Interrupted, it can simply be run again: it continues with the instances still on old versions, and finds the ones it detached by their kops.k8s.io/detached-from-asg tag. The Kubernetes API is reached through the kubeconfig context named after the cluster ("kforge export kubeconfig NAME --admin"); --cloudonly does without it. See docs/rolling-update.md.',
  ].join('\n\n');
  static override examples = [
    '<%= config.bin %> rolling-update cluster x.example.com',
    '<%= config.bin %> rolling-update cluster x.example.com --yes',
    '<%= config.bin %> rolling-update cluster x.example.com --detailed-exitcode   # exit 2 when something needs an update',
    '<%= config.bin %> rolling-update cluster x.example.com --yes --instance-group nodes-us-east-1a --node-interval 0s',
    '<%= config.bin %> rolling-update cluster x.example.com --yes --cloudonly --force',
  ];
  static override args = { name: Args.string({ description: 'Cluster name' }) };
  static override flags = {
    ...lockFlags,
    name: Flags.string({ description: 'Cluster name (alternative to the argument). Env: KFORGE_CLUSTER_NAME' }),
    yes: Flags.boolean({ char: 'y', description: 'Replace the instances; without it, only print the table' }),
    'detailed-exitcode': Flags.boolean({ description: 'Without --yes: exit 2 when some instance needs an update, 0 when none does' }),
    force: Flags.boolean({ description: 'Replace every instance of the selected groups, whether it needs an update or not' }),
    cloudonly: Flags.boolean({ description: 'Do not use the Kubernetes API: no surge, drain or validation; terminate and wait for the cloud to replace' }),
    'instance-group': Flags.string({ description: 'Only these instance groups (comma-separated or repeated)', multiple: true, delimiter: ',' }),
    'instance-group-roles': Flags.string({ description: 'Only groups of these roles: Bastion, ControlPlane (or Master), Node, APIServer (comma-separated or repeated)', multiple: true, delimiter: ',' }),
    'validation-timeout': Flags.string({ description: 'How long to wait for the cluster to validate, and for replacements to join, each time', default: '15m' }),
    'validate-count': Flags.integer({ description: 'Successful validations in a row needed after each step; 0 skips validation', default: 2, min: 0 }),
    'drain-timeout': Flags.string({ description: 'How long a drain may wait for evictions (PodDisruptionBudgets) before it fails', default: '15m' }),
    'post-drain-delay': Flags.string({ description: 'Wait after a drain, for connections to the evicted pods to close', default: '5s' }),
    'fail-on-drain-error': trueFalse('false: go on when a drain fails or times out (as --force-drain)'),
    'force-drain': Flags.boolean({ description: 'Go on when a drain fails or times out (kops: --fail-on-drain-error=false)' }),
    'fail-on-validate-error': trueFalse('false: go on when the cluster does not validate'),
    'control-plane-interval': Flags.string({ description: 'Wait after terminating a control-plane instance', default: '15s', aliases: ['master-interval'] }),
    'node-interval': Flags.string({ description: 'Wait after terminating (or detaching) a node instance', default: '15s' }),
    'bastion-interval': Flags.string({ description: 'Wait after terminating a bastion instance', default: '15s' }),
    kubeconfig: Flags.string({ description: 'Kubeconfig with the cluster\'s context; default $KUBECONFIG, else ~/.kube/config' }),
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(RollingUpdateCluster);
    const name = this.clusterName(args.name, flags.name);
    const tickText = process.env.KFORGE_ROLLING_UPDATE_TICK;
    const tick = tickText ? durationMs('KFORGE_ROLLING_UPDATE_TICK (environment variable)', tickText) : undefined;
    const intervals = { Bastion: durationMs('--bastion-interval', flags['bastion-interval']), ControlPlane: durationMs('--control-plane-interval', flags['control-plane-interval']), Node: durationMs('--node-interval', flags['node-interval']) };
    const timings = {
      intervalMs: (role: string) => (role === 'Bastion' ? intervals.Bastion : role === 'ControlPlane' ? intervals.ControlPlane : intervals.Node),
      validationTimeoutMs: durationMs('--validation-timeout', flags['validation-timeout']),
      validateCount: flags['validate-count'],
      // kops's ticks: 30 s after a failed pass, 10 s between successful ones (KFORGE_ROLLING_UPDATE_TICK overrides both).
      validateRetryMs: tick ?? 30_000,
      validateSuccessMs: tick ?? 10_000,
      drainTimeoutMs: durationMs('--drain-timeout', flags['drain-timeout']),
      drainRetryMs: tick ?? 5_000,
      postDrainDelayMs: durationMs('--post-drain-delay', flags['post-drain-delay']),
      failOnDrainError: flags['fail-on-drain-error'] === 'true' && !flags['force-drain'],
      failOnValidateError: flags['fail-on-validate-error'] === 'true',
      pollMs: tick ?? 5_000,
    };
    const { openVfs } = await import('../../state/vfs/open-vfs');
    const { rollingUpdateCluster } = await import('../../ops/rolling-update-cluster');
    const { connectRollingUpdateKube } = await import('../../rolling-update/connect-rolling-update-kube');
    const { renderRollingUpdateTable } = await import('../../rolling-update/render-rolling-update-table');
    const { rollingUpdateProgress } = await import('../../cli/rolling-update-progress');
    const vfs = openVfs(this.stateUrl(flags));
    const progress = rollingUpdateProgress();
    let result;
    try {
      result = await rollingUpdateCluster(vfs, name, {
        yes: flags.yes,
        lock: this.lockOptions(flags),
        selection: { instanceGroups: flags['instance-group'], roles: flags['instance-group-roles'], force: flags.force },
        cloudOnly: flags.cloudonly,
        timings,
        connectKube: (cluster, cloud) => connectRollingUpdateKube(vfs, cluster, cloud, { kubeconfig: flags.kubeconfig }),
        report: progress.report,
      });
    } finally {
      progress.stop();
    }
    this.out(renderRollingUpdateTable(result.groups).trimEnd());
    if (!result.needsUpdate) this.out('\nNo rolling-update required.');
    else if (result.applied) this.out(`\nRolling update of cluster "${name}" done.`);
    else this.out('\nMust specify --yes to rolling-update.');
    if (flags['detailed-exitcode'] && result.needsUpdate && !result.applied) this.exit(2);
  }
}
