import { Args, Flags } from '@oclif/core';
import { BaseCommand, lockFlags } from '../../cli/base-command';

/** `kforge deny node-request NAME --name C`: records an operator's decision on a node's request (spec.nodeIdentity.mode Approval). */
export default class DenyNodeRequest extends BaseCommand {
  static override summary = 'Deny a node request: the node-identity service refuses it (403) and nodeup on that machine fails with NODE_REQUEST_DENIED.';
  static override description = 'The record stays, denied, so the same keys are never served. Denying an approved request stops further certificates for it (those already issued stay valid until they expire). Under the cluster lock; an unknown NAME is NOT_FOUND and changes nothing.';
  static override examples = [
    '<%= config.bin %> deny node-request ip-10-0-1-5.ec2.internal-3fa2c1d09b8e7a61 --name x.example.com',
    'KFORGE_CLUSTER_NAME=x.example.com <%= config.bin %> deny node-request metal-1.example.com-0c5e2f4a91d3b786',
  ];
  static override args = { request: Args.string({ description: 'The request name, as "kforge get node-requests" lists it', required: true }) };
  static override flags = { ...lockFlags, name: Flags.string({ description: 'Cluster name. Env: KFORGE_CLUSTER_NAME' }) };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(DenyNodeRequest);
    const cluster = this.clusterName(undefined, flags.name);
    const { openVfs } = await import('../../state/vfs/open-vfs');
    const { decideNodeRequest } = await import('../../ops/node-request-ops');
    const vfs = openVfs(this.stateUrl(flags));
    const r = await this.withClusterLock(vfs, cluster, flags, (store) => decideNodeRequest(store, cluster, args.request, 'Denied'));
    this.out(`Node request ${r.record.name} (node ${r.record.nodeName}) ${r.unchanged ? 'was already ' : ''}denied`);
  }
}
