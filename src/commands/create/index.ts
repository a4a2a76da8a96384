import { Flags } from '@oclif/core';
import { BaseCommand } from '../../cli/base-command';
import { readInputFile } from '../../cli/read-input-file';
import { UsageError } from '../../errors/usage-error';

/** `kforge create -f FILE`: stores Clusters and InstanceGroups from a manifest. */
export default class Create extends BaseCommand {
  static override summary = 'Create clusters and instance groups from a manifest (kops v1alpha2 YAML).';
  static override description =
    'Reads one or more YAML documents (apiVersion kops.k8s.io/v1alpha2 or kforge.dev/v1alpha2, kind Cluster or InstanceGroup), validates each cluster as a whole, expands it, and writes it to the state store. Objects that already exist are refused; use "kforge replace -f" to change them.';
  static override examples = ['<%= config.bin %> create -f cluster.yaml', '<%= config.bin %> get cluster a.example.com -o yaml > a.yaml && <%= config.bin %> create -f a.yaml --state file:///tmp/other-store'];
  static override flags = {
    filename: Flags.string({ char: 'f', description: 'Manifest file to read ("-" for stdin)', multiple: true }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(Create);
    if (!flags.filename || flags.filename.length === 0) throw new UsageError('-f FILE is required (or use "kforge create cluster NAME")');
    const { openVfs } = await import('../../state/vfs/open-vfs');
    const { applyManifests } = await import('../../ops/apply-manifests');
    const vfs = openVfs(this.stateUrl(flags));
    for (const file of flags.filename) {
      for (const a of await applyManifests(vfs, await readInputFile(file), file, 'create')) {
        this.out(`${a.kind === 'Cluster' ? 'cluster' : 'instancegroup'} "${a.name}" ${a.action}${a.kind === 'InstanceGroup' ? ` in cluster "${a.cluster}"` : ''}`);
      }
    }
  }
}
