import { Args, Flags } from '@oclif/core';
import { BaseCommand } from '../../cli/base-command';
import { OUTPUT_FORMATS } from '../../cli/output';

/** `kforge validate cluster [NAME]`: is the cluster up and healthy? Exit 0 valid, 2 invalid, 1 error. */
export default class ValidateCluster extends BaseCommand {
  static override summary = 'Check that a cluster is up: API, instance groups, machines, nodes, control plane and system pods.';
  static override description =
    'Checks, in order, and reports every failure with its cause: the API is reachable (else which step failed: DNS, TCP, TLS, 401/403); each instance group matches its Auto Scaling group (sizes, members InService); machines that have not registered as nodes (their state, or nodeup\'s last stage from the serial console); nodes are Ready (else the condition\'s reason and message); each control-plane node runs kube-apiserver, kube-controller-manager, kube-scheduler and its etcd pods; system-critical pods are ready (else why not). Credentials: --kubeconfig, else the current kubeconfig context when it is this cluster\'s, else an admin certificate issued in memory from the state store (never written). Exit status: 0 valid, 2 not valid, 1 error. See docs/validate.md.';
  static override examples = [
    '<%= config.bin %> validate cluster x.example.com',
    '<%= config.bin %> validate cluster x.example.com --wait 10m --count 3',
    '<%= config.bin %> validate cluster x.example.com -o json',
  ];
  static override args = { name: Args.string({ description: 'Cluster name' }) };
  static override flags = {
    name: Flags.string({ description: 'Cluster name (alternative to the argument). Env: KFORGE_CLUSTER_NAME' }),
    output: Flags.string({ char: 'o', description: 'Output format', options: [...OUTPUT_FORMATS], default: 'table' }),
    wait: Flags.string({ description: 'Keep validating until the cluster is valid or DURATION has passed (e.g. 10m); default: one verdict', helpValue: 'DURATION' }),
    interval: Flags.string({ description: 'Time between validation passes', default: '10s', helpValue: 'DURATION' }),
    count: Flags.integer({ description: 'Consecutive valid passes required (a failure resets the count)', default: 1, min: 1 }),
    kubeconfig: Flags.string({ description: 'Kubeconfig to use (its context named after the cluster, else its current context)' }),
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(ValidateCluster);
    const cluster = this.clusterName(args.name, flags.name);
    const { parseDuration } = await import('../../util/parse-duration');
    const waitMs = flags.wait !== undefined ? parseDuration(flags.wait, '--wait') : 0;
    const intervalMs = parseDuration(flags.interval, '--interval');
    const { openVfs } = await import('../../state/vfs/open-vfs');
    const { validateCluster } = await import('../../ops/validate-cluster');
    const format = flags.output as 'table' | 'yaml' | 'json';
    const progress = process.stderr.isTTY === true;
    const r = await validateCluster(openVfs(this.stateUrl(flags)), {
      cluster,
      kubeconfig: flags.kubeconfig,
      waitMs,
      intervalMs,
      count: flags.count,
      onPass: progress
        ? (p) => this.status(`pass ${p.pass}: ${p.result.valid ? 'valid' : `${p.result.failures.length} failure(s)`}, ${p.successes} of ${p.count} consecutive valid passes`)
        : undefined,
    });
    const note = r.timedOut ? `not valid ${flags.count > 1 ? `${flags.count} times in a row ` : ''}within --wait ${flags.wait}` : undefined;
    if (format === 'table') {
      const { renderValidationTable } = await import('../../cluster-validation/render-validation');
      this.out(renderValidationTable(r.result, r.valid, note));
    } else {
      const { validationOutput } = await import('../../cluster-validation/render-validation');
      const { renderObjects } = await import('../../cli/output');
      this.out(renderObjects(format, [validationOutput(r.result, r.valid)]));
    }
    if (flags.verbose) this.status(`credentials: ${r.credentials}; ${r.passes} pass(es); Kubernetes API calls ${JSON.stringify(r.kubeCalls)}; cloud API calls ${JSON.stringify(r.cloudCalls)}`);
    if (!r.valid) this.exit(2);
  }
}
