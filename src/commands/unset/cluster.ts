import { Args, Flags } from '@oclif/core';
import { BaseCommand, lockFlags } from '../../cli/base-command';
import { UsageError } from '../../errors/usage-error';

/** `kforge unset cluster [C] path...`: removes fields of the stored Cluster (kops's `unset cluster`). */
export default class UnsetCluster extends BaseCommand {
  static override strict = false;
  static override summary = 'Unset fields of a cluster spec, e.g. spec.kubelet.maxPods, so their defaults apply.';
  static override description =
    'Each argument is a field path the schema knows (a map key such as spec.cloudLabels.team counts); a known field that is not set is not an error. The result is validated and saved exactly as "kforge edit cluster" saves: under the cluster lock, compare-and-swap on the version read. An unknown field or an invalid result is an error naming the field, and nothing is written.';
  static override examples = ['<%= config.bin %> unset cluster x.example.com spec.kubelet.maxPods', '<%= config.bin %> unset cluster --name x.example.com spec.cloudLabels.team'];
  static override args = { fields: Args.string({ description: '[CLUSTER] then one or more field paths' }) };
  static override flags = { ...lockFlags, name: Flags.string({ description: 'Cluster name (alternative to the first argument). Env: KFORGE_CLUSTER_NAME' }) };

  async run(): Promise<void> {
    const { argv, flags } = await this.parse(UnsetCluster);
    const { splitFieldArgs } = await import('../../cli/split-field-args');
    const parsed = splitFieldArgs(argv as string[]);
    const name = this.clusterName(parsed.name, flags.name);
    if (parsed.fields.length === 0) throw new UsageError('no fields to unset: pass field paths, e.g. spec.kubelet.maxPods');
    const { openVfs } = await import('../../state/vfs/open-vfs');
    const { changeFields } = await import('../../ops/change-fields');
    const vfs = openVfs(this.stateUrl(flags));
    const status = await this.withClusterLock(vfs, name, flags, (store) => changeFields(store, { cluster: name, unset: parsed.fields }));
    this.out(`cluster "${name}" ${status}`);
  }
}
