import { applyManifestFiles, filenameFlag } from '../cli/apply-manifest-files';
import { BaseCommand, lockFlags } from '../cli/base-command';

/** `kforge replace -f FILE`: replaces stored objects with the manifest's. */
export default class Replace extends BaseCommand {
  static override summary = 'Replace clusters and instance groups with the ones in a manifest.';
  static override description =
    'Like "kforge create -f", but every object must already exist. The whole cluster is validated with the new objects before anything is written; instance groups not in the file are kept.';
  static override examples = ['<%= config.bin %> get cluster a.example.com -o yaml > a.yaml && $EDITOR a.yaml && <%= config.bin %> replace -f a.yaml'];
  static override flags = { ...lockFlags, filename: filenameFlag };

  async run(): Promise<void> {
    const { flags } = await this.parse(Replace);
    for (const line of await applyManifestFiles(this.stateUrl(flags), flags.filename, 'replace', this.lockOptions(flags))) this.out(line);
  }
}
