/**
 * What the AWS model builders need beyond the completed spec and its instance groups: values the update
 * pipeline computes from the state store before it builds (the builders stay pure and never read it).
 */
export interface AwsModelInputs {
  /** sha256 (lowercase hex) of each instance group's `nodeupconfig.yaml`, by instance group name; user-data carries it. */
  nodeupConfigHashes: Readonly<Record<string, string>>;
  /** The cluster's SSH public key (`pki/ssh/public/admin/<fingerprint>`), installed as an EC2 key pair; absent when none was given. */
  sshPublicKey?: { fingerprint: string; publicKey: string };
  /**
   * The customer-managed KMS key the S3 state store's objects are encrypted with (`KFORGE_STATE_S3_KMS_KEY_ID`:
   * a key ARN, key id, alias name or alias ARN); absent for SSE-S3. Nodes need it to read their config.
   */
  stateStoreKmsKey?: string;
  /** The kops-controller-ca bundle (PEM, public): workers' user-data pins the node-identity service to it (src/model/config-server.ts). */
  kopsControllerCa?: string;
}
