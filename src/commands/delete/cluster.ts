import { Args, Flags } from '@oclif/core';
import { BaseCommand, lockFlags } from '../../cli/base-command';
import { renderTable } from '../../cli/output';

/** `kforge delete cluster [C] --yes`: deletes the cluster's cloud resources (AWS), then its state. */
export default class DeleteCluster extends BaseCommand {
  static override summary = 'Delete a cluster: its cloud resources and its state.';
  static override description =
    'Without --yes, lists what would be deleted: the cloud resources tagged for the cluster (AWS) and the state objects, and the shared resources it uses but does not own (an existing VPC, subnets, NAT gateways, security groups, instance profiles), which are left alone. With --yes, deletes the cloud resources in dependency order, removes the cluster\'s kubernetes.io/cluster/<name>=shared tag from the shared VPC and subnets, then deletes the state; if some resource cannot be deleted, the state is kept so the delete can be re-run. --unregister deletes the state only. There is no undo.';
  static override examples = [
    '<%= config.bin %> delete cluster x.example.com',
    '<%= config.bin %> delete cluster x.example.com --yes',
    '<%= config.bin %> delete cluster x.example.com --yes --unregister',
    '<%= config.bin %> delete cluster x.example.com --yes -o json',
  ];
  static override args = { name: Args.string({ description: 'Cluster name' }) };
  static override flags = {
    ...lockFlags,
    name: Flags.string({ description: 'Cluster name (alternative to the argument). Env: KFORGE_CLUSTER_NAME' }),
    yes: Flags.boolean({ char: 'y', description: 'Really delete' }),
    unregister: Flags.boolean({ description: "Delete the cluster's state only; leave its cloud resources" }),
    output: Flags.string({ char: 'o', description: 'Output format of the listing or the result: text (tables) or json', options: ['text', 'json'], default: 'text' }),
  };

  async run(): Promise<void> {
    const started = Date.now();
    const { args, flags } = await this.parse(DeleteCluster);
    const name = this.clusterName(args.name, flags.name);
    const { openVfs } = await import('../../state/vfs/open-vfs');
    const ops = await import('../../ops/delete-cluster');
    const { NotFoundError } = await import('../../errors/not-found-error');
    const vfs = openVfs(this.stateUrl(flags));
    const found = await ops.clusterKeys(vfs, name).catch(async (e: unknown) => {
      // Only temporary files of a crashed write left under the name: removing them is the whole delete.
      const stray = flags.yes && e instanceof NotFoundError ? await ops.removeStrayTemporaryFiles(vfs, name) : 0;
      if (stray === 0) throw e;
      return stray;
    });
    if (typeof found === 'number') {
      this.out(`Removed ${found} temporary files of "${name}" left by an interrupted command`);
      return;
    }
    // An incomplete cluster (no config) has no spec to find its cloud by: its leftovers are state only.
    const connected = found.complete && !flags.unregister ? await ops.connectClusterCloud(vfs, name) : {};
    if (connected.note) this.status(connected.note);
    const target = connected.cloud;
    const summary = async () => {
      if (!target) return;
      const { formatCallSummary } = await import('../../cloud/format-call-summary');
      this.status(formatCallSummary(target.cloud.calls, Date.now() - started, flags.verbose));
    };

    const json = flags.output === 'json';
    // TAG: whether the resource carries (preview) or carried and lost (--yes) the cluster's `shared` tag.
    const sharedRows = (shared: ReadonlyArray<{ type: string; name: string; id: string; tagged: boolean }>, label: string) => shared.map((r) => [r.type, r.name, r.id, r.tagged ? label : '-']);
    if (!flags.yes) {
      const [resources, shared] = target ? await Promise.all([ops.listClusterCloudResources(target), ops.listClusterSharedResources(target)]) : [[], []];
      const stateObjects = found.keys.map((k) => `${vfs.url.replace(/\/+$/, '')}/${k}`);
      if (json) {
        this.out(JSON.stringify({ cluster: name, complete: found.complete, resources: resources.map(({ type, name: n, id }) => ({ type, name: n, id })), shared: shared.map(({ type, name: n, id, tagged }) => ({ type, name: n, id, tagged })), stateObjects }, null, 2));
        this.status('Must specify --yes to delete cluster');
        await summary();
        return;
      }
      // Two tables: state objects have no id, and their long URLs would widen the resources' columns.
      if (target) this.out(`${renderTable(['TYPE', 'NAME', 'ID'], resources.map((r) => [r.type, r.name, r.id]))}\n`);
      this.out(renderTable(['TYPE', 'NAME'], stateObjects.map((o) => ['state-object', o])));
      if (shared.length > 0) this.out(`\nShared resources, left alone (only the cluster's kubernetes.io/cluster/${name}=shared tag is removed):\n${renderTable(['TYPE', 'NAME', 'ID', 'TAG'], sharedRows(shared, 'shared'))}`);
      if (!found.complete) this.out(`Cluster "${name}" is incomplete (it has no config): an interrupted command left these objects.`);
      this.out('Must specify --yes to delete cluster');
      await summary();
      return;
    }
    // Leftovers of an incomplete cluster (no config) are deleted under the lock too.
    const { deleted, cloudDeleted } = await this.withClusterLock(
      vfs,
      name,
      flags,
      async (store, fence) => {
        // Every deletion, in the cloud and in the store, verifies the lock first: a lost lock stops the delete.
        if (target) target.cloud.fence = fence.verify;
        // The state goes only after every cloud resource: a blocked delete throws and keeps it for a re-run.
        const cloudDeleted = target
          ? await ops.deleteClusterCloudResources(target, { ...deletePace(), fence: fence.verify, onRound: (r) => this.status(`round ${r.round}: deleted ${r.deleted.length}, ${r.waiting} waiting`) })
          : { deleted: [], shared: [] };
        return { deleted: await ops.deleteClusterState(store, name), cloudDeleted };
      },
      { mustExist: false },
    ).catch(async (e: unknown) => {
      // A blocked delete did cloud work worth counting; any other failure (the lock, the store) ends with its error alone.
      if ((e as { code?: unknown }).code === 'DELETE_BLOCKED') await summary();
      throw e;
    });
    await summary();
    if (json) {
      const resources = cloudDeleted.deleted.map(({ type, name: n, id }) => ({ type, name: n, id }));
      const shared = cloudDeleted.shared.map(({ type, name: n, id, tagged }) => ({ type, name: n, id, untagged: tagged }));
      this.out(JSON.stringify({ cluster: name, complete: deleted.complete, deleted: resources, shared, stateObjects: deleted.keys.length }, null, 2));
      return;
    }
    if (target) this.out(`Deleted ${cloudDeleted.deleted.length} cloud resources of "${name}"`);
    if (cloudDeleted.shared.length > 0) {
      this.out(`Left ${cloudDeleted.shared.length} shared resources alone (removed only the kubernetes.io/cluster/${name}=shared tag where it was):\n${renderTable(['TYPE', 'NAME', 'ID', 'TAG'], sharedRows(cloudDeleted.shared, 'removed'))}`);
    }
    this.out(
      deleted.complete
        ? `Deleted cluster: "${name}" (${deleted.keys.length} state objects)`
        : deleted.keys.length === 0
          ? `Removed the lock of "${name}" left by an interrupted command`
          : `Removed ${deleted.keys.length} state objects of the incomplete cluster "${name}", left by an interrupted command`,
    );
  }
}

/**
 * Tests make the rounds fast: KFORGE_TEST_DELETE_PACE=<backoff ms>/<rounds without progress before giving up>.
 * Users get the defaults (seconds between rounds, several minutes before giving up).
 */
function deletePace(): { backoffMs?: number; maxStalledRounds?: number } {
  const m = /^(\d+)\/(\d+)$/.exec(process.env.KFORGE_TEST_DELETE_PACE ?? '');
  return m ? { backoffMs: Number(m[1]), maxStalledRounds: Number(m[2]) } : {};
}
