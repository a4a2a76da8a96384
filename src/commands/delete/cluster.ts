import { Args, Flags } from '@oclif/core';
import { BaseCommand, lockFlags } from '../../cli/base-command';
import { renderTable } from '../../cli/output';

/** `kforge delete cluster [C] --yes`: removes the cluster's state (cloud resources: a later release). */
export default class DeleteCluster extends BaseCommand {
  static override summary = 'Delete a cluster from the state store.';
  static override description =
    'Without --yes, lists what would be deleted. This version deletes the cluster\'s state only; it does not yet delete cloud resources. There is no undo.';
  static override examples = ['<%= config.bin %> delete cluster x.example.com', '<%= config.bin %> delete cluster x.example.com --yes'];
  static override args = { name: Args.string({ description: 'Cluster name' }) };
  static override flags = {
    ...lockFlags,
    name: Flags.string({ description: 'Cluster name (alternative to the argument). Env: KFORGE_CLUSTER_NAME' }),
    yes: Flags.boolean({ char: 'y', description: 'Really delete' }),
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(DeleteCluster);
    const name = this.clusterName(args.name, flags.name);
    const { openVfs } = await import('../../state/vfs/open-vfs');
    const { clusterKeys, deleteClusterState, removeStrayTemporaryFiles } = await import('../../ops/delete-cluster');
    const { NotFoundError } = await import('../../errors/not-found-error');
    const vfs = openVfs(this.stateUrl(flags));
    const found = await clusterKeys(vfs, name).catch(async (e: unknown) => {
      // Only temporary files of a crashed write left under the name: removing them is the whole delete.
      const stray = flags.yes && e instanceof NotFoundError ? await removeStrayTemporaryFiles(vfs, name) : 0;
      if (stray === 0) throw e;
      return stray;
    });
    if (typeof found === 'number') {
      this.out(`Removed ${found} temporary files of "${name}" left by an interrupted command`);
      return;
    }
    if (!flags.yes) {
      this.out(renderTable(['TYPE', 'NAME'], found.keys.map((k) => ['state-object', `${vfs.url.replace(/\/+$/, '')}/${k}`])));
      if (!found.complete) this.out(`Cluster "${name}" is incomplete (it has no config): an interrupted command left these objects.`);
      this.out('Must specify --yes to delete cluster');
      return;
    }
    // Leftovers of an incomplete cluster (no config) are deleted under the lock too.
    const deleted = await this.withClusterLock(vfs, name, flags, () => deleteClusterState(vfs, name), { mustExist: false });
    this.out(
      deleted.complete
        ? `Deleted cluster: "${name}" (${deleted.keys.length} state objects)`
        : deleted.keys.length === 0
          ? `Removed the lock of "${name}" left by an interrupted command`
          : `Removed ${deleted.keys.length} state objects of the incomplete cluster "${name}", left by an interrupted command`,
    );
  }
}
