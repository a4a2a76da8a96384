import type { NodeupConfig } from '../model/nodeup-config-builder';
import { KeysetYaml } from '../pki/keyset-yaml';
import type { Keypair } from '../pki/keypair';
import { openVfs } from '../state/vfs/open-vfs';
import type { Vfs } from '../state/vfs/vfs';
import { isControlPlaneConfig } from './parse-nodeup-config';
import { NodeupPkiError } from './nodeup-pki-error';

/** The keypairs nodeup uses, by keyset name: the one the config's KeypairIDs names, with its private key, and every trusted one. */
export interface NodeKeysets {
  [keyset: string]: { use: Keypair; trusted: Keypair[] };
}

/** The keysets with private keys a node reads: a worker only its two client identities; the control plane also the CAs it issues from and the signers it runs with. */
export function nodeKeysetNames(config: NodeupConfig): string[] {
  // A worker served by the node-identity service reads nothing from the store (docs/node-identity.md).
  if (!isControlPlaneConfig(config) && config.ConfigServer !== undefined) return [];
  const names = ['kubelet-bootstrap'];
  if (config.ComponentFlags['kube-proxy'] !== undefined) names.push('kube-proxy');
  if (isControlPlaneConfig(config)) names.push('apiserver-aggregator-ca', 'etcd-clients-ca', 'kube-controller-manager', 'kube-scheduler', 'kubernetes-ca', 'service-account');
  return names.sort();
}

/**
 * Reads the node's keysets from `pki/private/<name>/keyset.yaml` under the cluster's ConfigBase (or under
 * `<state>/<cluster>` when `state` is given, e.g. `--state` on bare metal), with this machine's own
 * credentials. Only the files `nodeKeysetNames` lists are read: a worker's role may read nothing else. The
 * key used is the one the config's KeypairIDs names (the primary when the config was written), so a
 * keyset promoted since does not change a node until its config does.
 */
export async function fetchNodeKeysets(config: NodeupConfig, options: { state?: string; open?: (url: string) => Vfs } = {}): Promise<NodeKeysets> {
  const names = nodeKeysetNames(config);
  if (names.length === 0) return {};
  const base = options.state ? `${options.state.replace(/\/+$/, '')}/${config.ClusterName}` : config.ConfigBase;
  if (!base) throw new NodeupPkiError('the nodeup config has no ConfigBase to read the keysets from; pass --state with the state store');
  const vfs = (options.open ?? openVfs)(base);
  const out: NodeKeysets = {};
  const results = await Promise.allSettled(
    names.map(async (name) => {
      const key = `pki/private/${name}/keyset.yaml`;
      const where = `${base.replace(/\/+$/, '')}/${key}`;
      let object;
      try {
        object = await vfs.read(key);
      } catch (e) {
        throw new NodeupPkiError(`keyset "${name}": cannot read ${where}: ${e instanceof Error ? e.message : String(e)}`);
      }
      if (!object) throw new NodeupPkiError(`keyset "${name}": ${where} does not exist; has "kforge update cluster ${config.ClusterName} --yes" run?`);
      let keyset;
      try {
        keyset = KeysetYaml.parse(object.data, where, name);
      } catch (e) {
        throw new NodeupPkiError(e instanceof Error ? e.message : String(e));
      }
      const id = config.KeypairIDs?.[name] ?? keyset.primaryId;
      const use = keyset.keys.find((k) => k.id === id);
      if (!use) throw new NodeupPkiError(`keyset "${name}": ${where} has no key with id ${id} (KeypairIDs.${name} of the nodeup config); run "kforge update cluster ${config.ClusterName} --yes"`);
      if (!use.privateKeyPem) throw new NodeupPkiError(`keyset "${name}": the key ${id} in ${where} has no private key`);
      out[name] = { use, trusted: keyset.keys.filter((k) => !k.distrustTimestamp) };
    }),
  );
  // Read in parallel, reported in name order, so the same store gives the same message.
  const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
  return out;
}
