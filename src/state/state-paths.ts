/**
 * Keys of a cluster's objects in the state store, relative to the store base. The layout is kops's, so
 * `<store>/<cluster>/` is the cluster's configBase.
 */
export const StatePaths = {
  /** Everything of one cluster. */
  clusterPrefix: (cluster: string): string => `${cluster}/`,
  /** The user's Cluster object. */
  config: (cluster: string): string => `${cluster}/config`,
  /** Prefix of the user's InstanceGroup objects. */
  instanceGroupPrefix: (cluster: string): string => `${cluster}/instancegroup/`,
  /** One InstanceGroup object. */
  instanceGroup: (cluster: string, ig: string): string => `${cluster}/instancegroup/${ig}`,
  /** Objects of other kinds that came with the cluster's manifest (e.g. a KubeSchedulerConfiguration), kept as kops keeps them. */
  additionalObjects: (cluster: string): string => `${cluster}/clusteraddons/default`,
  /** The expanded Cluster, every default and derived value filled in. */
  completedSpec: (cluster: string): string => `${cluster}/cluster-completed.spec`,
  /** Prefix of the per-instance-group node bootstrap configs. */
  igconfigPrefix: (cluster: string): string => `${cluster}/igconfig/`,
  /** What the node bootstrapper reads for one instance group; `role` is the lower-cased IG role, as kops does. */
  nodeupConfig: (cluster: string, role: string, ig: string): string => `${cluster}/igconfig/${role.toLowerCase()}/${ig}/nodeupconfig.yaml`,
  /** The nodeup bundle of one build, content-addressed by its sha256: written once by `update cluster`, read by user-data with the instance role. */
  nodeupArtifact: (cluster: string, sha256: string): string => `${cluster}/assets/nodeup/${sha256}/nodeup`,
  /** Prefix of the nodeup bundles of a cluster. */
  nodeupArtifactPrefix: (cluster: string): string => `${cluster}/assets/nodeup/`,
  /** Prefix of the addons: kops's bootstrap channel and one manifest per addon (`update cluster` writes them, protokube applies them). */
  addonsPrefix: (cluster: string): string => `${cluster}/addons/`,
  /** One file under the addons prefix: `bootstrap-channel.yaml` or `<addon name>/<id>.yaml`. */
  addonFile: (cluster: string, relative: string): string => `${cluster}/addons/${relative}`,
  /** A keyset with its private keys: readable only by the control plane and admins. */
  privateKeyset: (cluster: string, name: string): string => `${cluster}/pki/private/${name}/keyset.yaml`,
  /** A keyset's certificates only, for readers who must not see keys. */
  issuedKeyset: (cluster: string, name: string): string => `${cluster}/pki/issued/${name}/keyset.yaml`,
  /** Prefix of the certificate-only keysets. */
  issuedPrefix: (cluster: string): string => `${cluster}/pki/issued/`,
  /** The lease that serialises mutating commands on one cluster (kforge; kops has no lock). */
  lock: (cluster: string): string => `${cluster}/kforge-lock.json`,
  /** Written by the first `update --yes`; after it, the PKI is in use and keys are rotated, not replaced (kops's kops-version.txt). */
  appliedMarker: (cluster: string): string => `${cluster}/kforge-version.txt`,
  /**
   * The UID of this life of the cluster: written create-only by the first `update --yes`, kept by every later
   * update, removed with the rest by `delete cluster`. Salts the EC2 idempotency tokens (kforge; kops has none).
   */
  clusterUid: (cluster: string): string => `${cluster}/cluster-uid`,
  /** Prefix of the node-identity service's approval queue (spec.nodeIdentity.mode Approval; kforge, kops has none): one record per request, public keys only. */
  nodeRequestPrefix: (cluster: string): string => `${cluster}/node-requests/`,
  /** The admin SSH public key, named by its fingerprint (kops's layout). */
  sshPublicKey: (cluster: string, fingerprint: string): string => `${cluster}/pki/ssh/public/admin/${fingerprint}`,
};
