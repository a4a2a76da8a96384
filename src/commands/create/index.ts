import { applyManifestFiles, filenameFlag } from '../../cli/apply-manifest-files';
import { BaseCommand, lockFlags } from '../../cli/base-command';

/** `kforge create -f FILE`: stores Clusters and InstanceGroups from a manifest. */
export default class Create extends BaseCommand {
  static override summary = 'Create clusters and instance groups from a manifest (kops v1alpha2 YAML).';
  static override description =
    'Reads one or more YAML documents (apiVersion kops.k8s.io/v1alpha2 or kforge.dev/v1alpha2, kind Cluster or InstanceGroup), validates each cluster as a whole, expands it, and writes it to the state store. Objects that already exist are refused; use "kforge replace -f" to change them. A file is applied completely or not at all.';
  static override examples = ['<%= config.bin %> create -f cluster.yaml', '<%= config.bin %> get all a.example.com -o yaml > a.yaml && <%= config.bin %> create -f a.yaml --state file:///tmp/other-store'];
  static override flags = { ...lockFlags, filename: filenameFlag };

  async run(): Promise<void> {
    const { flags } = await this.parse(Create);
    for (const line of await applyManifestFiles(this.stateUrl(flags), flags.filename, 'create', this.lockOptions(flags))) this.out(line);
  }
}
