import { Args, Flags } from '@oclif/core';
import { BaseCommand } from '../../cli/base-command';

/** `kforge get instances [NAME]`: the cluster's machines, their nodes, and which need an update. */
export default class GetInstances extends BaseCommand {
  static override summary = 'List the instances of a cluster with their instance group, node, readiness and whether they need an update.';
  static override description =
    'For each instance: id, instance group, role, state, node name, ready, and whether it needs an update (launched from an older launch-template version than its group\'s, or its Node is annotated kops.k8s.io/needs-update). Nodes are read with the same credentials as "validate cluster"; when the API cannot be used the node columns are empty and a warning says why.';
  static override examples = ['<%= config.bin %> get instances x.example.com', '<%= config.bin %> get instances x.example.com -o json'];
  static override args = { name: Args.string({ description: 'Cluster name' }) };
  static override flags = {
    name: Flags.string({ description: 'Cluster name (alternative to the argument). Env: KFORGE_CLUSTER_NAME' }),
    output: Flags.string({ char: 'o', description: 'Output format', options: ['table', 'json'], default: 'table' }),
    kubeconfig: Flags.string({ description: 'Kubeconfig to use (its context named after the cluster, else its current context)' }),
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(GetInstances);
    const cluster = this.clusterName(args.name, flags.name);
    const { openVfs } = await import('../../state/vfs/open-vfs');
    const { getInstances } = await import('../../ops/get-instances');
    const r = await getInstances(openVfs(this.stateUrl(flags)), { cluster, kubeconfig: flags.kubeconfig });
    if (r.apiProblem) this.status(`Warning: nodes not read: ${r.apiProblem}`);
    if (flags.output === 'json') {
      this.out(`${JSON.stringify(r.rows, null, 2)}\n`);
      return;
    }
    const { renderTable } = await import('../../cli/output');
    const rows = r.rows.map((i) => [i.id, i.instanceGroup ?? '', i.role, i.state, i.nodeName ?? '', i.ready === undefined ? '' : String(i.ready), i.needsUpdate ? 'yes' : 'no']);
    this.out(renderTable(['ID', 'INSTANCE GROUP', 'ROLE', 'STATE', 'NODE', 'READY', 'NEEDS UPDATE'], rows));
  }
}
