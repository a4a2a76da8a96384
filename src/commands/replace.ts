import { Flags } from '@oclif/core';
import { BaseCommand } from '../cli/base-command';
import { readInputFile } from '../cli/read-input-file';
import { UsageError } from '../errors/usage-error';

/** `kforge replace -f FILE`: replaces stored objects with the manifest's. */
export default class Replace extends BaseCommand {
  static override summary = 'Replace clusters and instance groups with the ones in a manifest.';
  static override description =
    'Like "kforge create -f", but every object must already exist. The whole cluster is validated with the new objects before anything is written; instance groups not in the file are kept.';
  static override examples = ['<%= config.bin %> get cluster a.example.com -o yaml > a.yaml && $EDITOR a.yaml && <%= config.bin %> replace -f a.yaml'];
  static override flags = {
    filename: Flags.string({ char: 'f', description: 'Manifest file to read ("-" for stdin)', multiple: true }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(Replace);
    if (!flags.filename || flags.filename.length === 0) throw new UsageError('-f FILE is required');
    const { openVfs } = await import('../state/vfs/open-vfs');
    const { applyManifests } = await import('../ops/apply-manifests');
    const vfs = openVfs(this.stateUrl(flags));
    for (const file of flags.filename) {
      for (const a of await applyManifests(vfs, await readInputFile(file), file, 'replace')) {
        this.out(`${a.kind === 'Cluster' ? 'cluster' : 'instancegroup'} "${a.name}" ${a.action}${a.kind === 'InstanceGroup' ? ` in cluster "${a.cluster}"` : ''}`);
      }
    }
  }
}
