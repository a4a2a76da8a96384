import { newCluster } from '../../src/create/new-cluster';
import { assembleAddons, renderAddons } from '../../src/model/addons/addon-channel';
import { completeCluster } from '../../src/ops/expand-cluster';

/** The keysets of a cluster with etcd clusters `main` and `events`, sorted: what its first update must generate. */
export const CLUSTER_KEYSETS = [
  'apiserver-aggregator-ca',
  'etcd-clients-ca',
  'etcd-manager-ca-events',
  'etcd-manager-ca-main',
  'etcd-peers-ca-events',
  'etcd-peers-ca-main',
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
 * The addon files (channel and manifests, relative to the configBase) of a cluster `create cluster NAME --zones
 * ZONE` makes, as kforge's builders render them: which addons exist is their business (test/model/addons and the
 * addon conformance test check them), the store layout tests only that they are there and nothing else is.
 */
export function singleZoneAddonFiles(zone: string): string[] {
  const made = newCluster({ name: 'layout.example.com', zones: [zone] });
  const completed = completeCluster(made.cluster, made.instanceGroups, 'memfs://layout');
  const addons = renderAddons({ cluster: completed, instanceGroups: made.instanceGroups });
  return addons.length === 0 ? [] : [...assembleAddons(addons).files.keys()].map((f) => `addons/${f}`);
}

/**
 * Every object of such a cluster after its first update (PKI and managed files), prefixed with `base` (e.g.
 * `some/prefix/NAME/`), sorted; with `nodeupSha256`, also the nodeup bundle an s3:// store holds for its nodes.
 */
export function singleZoneClusterObjects(base: string, zone: string, nodeupSha256?: string): string[] {
  return [
    ...(nodeupSha256 ? [`assets/nodeup/${nodeupSha256}/nodeup`] : []),
    ...singleZoneAddonFiles(zone),
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
