import { Args, Flags } from '@oclif/core';
import { BaseCommand, lockFlags } from '../../cli/base-command';

/** `kforge delete instancegroup IG --name C --yes`. */
export default class DeleteInstanceGroup extends BaseCommand {
  static override aliases = ['delete:ig'];
  static override summary = 'Delete an instance group from a cluster\'s spec.';
  static override description =
    'The cluster is revalidated without the group first: a control-plane group that still holds etcd members cannot be deleted. With --yes, as kops does, the group\'s cloud resources go at once (on AWS: its Auto Scaling group and instances, its launch template, a node group\'s own IAM role and instance profile; on GCE: its MIGs with their instances, then its instance templates), then the group leaves the spec. Without --yes, says what would be deleted.';
  static override examples = ['<%= config.bin %> delete instancegroup nodes-us-east-1b --name x.example.com --yes'];
  static override args = { group: Args.string({ description: 'Instance group name', required: true }) };
  static override flags = {
    ...lockFlags,
    name: Flags.string({ description: 'Cluster name. Env: KFORGE_CLUSTER_NAME' }),
    yes: Flags.boolean({ char: 'y', description: 'Really delete' }),
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(DeleteInstanceGroup);
    const cluster = this.clusterFromFlag(flags.name, 'instance groups');
    this.checkName('instance group', args.group);
    const { openVfs } = await import('../../state/vfs/open-vfs');
    const vfs = openVfs(this.stateUrl(flags));
    const { checkDeleteInstanceGroup, deleteInstanceGroup } = await import('../../ops/instance-group-ops');
    if (!flags.yes) {
      await checkDeleteInstanceGroup(vfs, cluster, args.group);
      this.out(`InstanceGroup "${args.group}" of cluster "${cluster}" would be deleted`);
      this.out('Must specify --yes to delete instancegroup');
      return;
    }
    // The store the callback gets is fenced; the fence also stops the cloud deletions once the lock is lost.
    const deleted = await this.withClusterLock(vfs, cluster, flags, (store, fence) => deleteInstanceGroup(store, cluster, args.group, process.env, fence.verify));
    for (const r of deleted) this.out(`Deleted ${r}`);
    this.out(`InstanceGroup "${args.group}" deleted from cluster "${cluster}"`);
  }
}
