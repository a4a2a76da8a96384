import { Args, Flags } from '@oclif/core';
import { BaseCommand, lockFlags } from '../../cli/base-command';

/** `kforge approve node-request NAME --name C`: records an operator's decision on a node's request (spec.nodeIdentity.mode Approval). */
export default class ApproveNodeRequest extends BaseCommand {
  static override summary = 'Approve a node request: the node-identity service then issues its certificates for exactly the node name it claimed.';
  static override description = 'The service issues CN=system:node:<node name>, O=system:nodes (and kube-proxy\'s certificate) for the keys of this request only, at the node\'s next poll; another request for the same node name, or these keys under another name, is refused. Compare the fingerprints "kforge get node-requests" lists with those nodeup printed on the machine first. Refused while another request of the same node name is approved (deny that one first). Under the cluster lock; an unknown NAME is NOT_FOUND and changes nothing.';
  static override examples = [
    '<%= config.bin %> approve node-request ip-10-0-1-5.ec2.internal-3fa2c1d09b8e7a61 --name x.example.com',
    'KFORGE_CLUSTER_NAME=x.example.com <%= config.bin %> approve node-request metal-1.example.com-0c5e2f4a91d3b786',
  ];
  static override args = { request: Args.string({ description: 'The request name, as "kforge get node-requests" lists it', required: true }) };
  static override flags = { ...lockFlags, name: Flags.string({ description: 'Cluster name. Env: KFORGE_CLUSTER_NAME' }) };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(ApproveNodeRequest);
    const cluster = this.clusterName(undefined, flags.name);
    const { openVfs } = await import('../../state/vfs/open-vfs');
    const { decideNodeRequest } = await import('../../ops/node-request-ops');
    const vfs = openVfs(this.stateUrl(flags));
    const r = await this.withClusterLock(vfs, cluster, flags, (store) => decideNodeRequest(store, cluster, args.request, 'Approved'));
    this.out(`Node request ${r.record.name} (node ${r.record.nodeName}) ${r.unchanged ? 'was already ' : ''}approved`);
  }
}
