import { Args, Flags } from '@oclif/core';
import { BaseCommand, lockFlags } from '../../cli/base-command';
import { UsageError } from '../../errors/usage-error';

/** `kforge set cluster [C] path=value...`: sets fields of the stored Cluster (kops's `set cluster`). */
export default class SetCluster extends BaseCommand {
  static override strict = false;
  static override summary = 'Set fields of a cluster spec, e.g. spec.kubelet.maxPods=200.';
  static override description =
    'Each argument is path=value; the schema decides how a value is read (numbers, booleans, comma-separated lists, map keys such as spec.cloudLabels.team=x). The result is validated and saved exactly as "kforge edit cluster" saves: under the cluster lock, compare-and-swap on the version read, the completed spec and node configs re-derived. An unknown field, a value of the wrong type or an invalid result is an error naming the field, and nothing is written.';
  static override examples = [
    '<%= config.bin %> set cluster x.example.com spec.kubelet.maxPods=200',
    '<%= config.bin %> set cluster --name x.example.com spec.kubernetesVersion=1.35.7 spec.cloudLabels.team=infra',
  ];
  static override args = { fields: Args.string({ description: '[CLUSTER] then one or more path=value' }) };
  static override flags = { ...lockFlags, name: Flags.string({ description: 'Cluster name (alternative to the first argument). Env: KFORGE_CLUSTER_NAME' }) };

  async run(): Promise<void> {
    const { argv, flags } = await this.parse(SetCluster);
    const { splitFieldArgs } = await import('../../cli/split-field-args');
    const parsed = splitFieldArgs(argv as string[]);
    const name = this.clusterName(parsed.name, flags.name);
    if (parsed.fields.length === 0) throw new UsageError('no fields to set: pass path=value, e.g. spec.kubelet.maxPods=200');
    const { openVfs } = await import('../../state/vfs/open-vfs');
    const { changeFields } = await import('../../ops/change-fields');
    const vfs = openVfs(this.stateUrl(flags));
    const status = await this.withClusterLock(vfs, name, flags, (store) => changeFields(store, { cluster: name, set: parsed.fields }));
    this.out(`cluster "${name}" ${status}`);
  }
}
