/** The keysets of a cluster with etcd clusters `main` and `events`, sorted: what its first update must generate. */
export const CLUSTER_KEYSETS = [
  'apiserver-aggregator-ca',
  'etcd-clients-ca',
  'etcd-manager-ca-events',
  'etcd-manager-ca-main',
  'etcd-peers-ca-events',
  'etcd-peers-ca-main',
  'kops-controller-ca',
  'kube-controller-manager',
  'kube-proxy',
  'kube-scheduler',
  'kubelet-bootstrap',
  'kubernetes-ca',
  'service-account',
];

/** The keystore files of such a cluster, relative to its configBase, sorted. */
export const KEYSTORE_FILES = [...CLUSTER_KEYSETS.map((k) => `pki/issued/${k}/keyset.yaml`), ...CLUSTER_KEYSETS.map((k) => `pki/private/${k}/keyset.yaml`)];

/** Every object `create cluster NAME --zones ZONE` writes (the user's objects, as kops), prefixed with `base`, sorted. */
export function singleZoneUserObjects(base: string, zone: string): string[] {
  return ['config', `instancegroup/control-plane-${zone}`, `instancegroup/nodes-${zone}`].map((k) => base + k).sort();
}

/**
 * Every object of such a cluster after its first update (PKI and managed files), prefixed with `base` (e.g.
 * `some/prefix/NAME/`), sorted; with `nodeupSha256`, also the nodeup bundle an s3:// store holds for its nodes.
 */
export function singleZoneClusterObjects(base: string, zone: string, nodeupSha256?: string): string[] {
  return [
    ...(nodeupSha256 ? [`assets/nodeup/${nodeupSha256}/nodeup`] : []),
    'cluster-completed.spec',
    'config',
    `igconfig/controlplane/control-plane-${zone}/nodeupconfig.yaml`,
    `igconfig/node/nodes-${zone}/nodeupconfig.yaml`,
    `instancegroup/control-plane-${zone}`,
    `instancegroup/nodes-${zone}`,
    ...KEYSTORE_FILES,
  ]
    .map((k) => base + k)
    .sort();
}

/** A cluster UID for tests that run AWS tasks without `update` (which reads or writes `<cluster>/cluster-uid`). */
export const TEST_CLUSTER_UID = '00000000-0000-4000-8000-000000000001';
